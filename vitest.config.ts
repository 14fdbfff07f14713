import { globSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { DEFAULT_MINECRAFT_VERSION, SERVER_VERSIONS } from './src/game/versions.ts';

/**
 * The test matrix. Every test runs on the server's default version (DEFAULT_MINECRAFT_VERSION,
 * 1.21.11). The tests of the server's mechanics (each with a real mineflayer client: what differs
 * between versions is the wire) run again on one older version each, the older versions in turn
 * (SERVER_VERSIONS: 1.21.1, 1.21.4), so that each older version is reached by half of them; the
 * tests of who said a chat line run on every version, and those of the agent commands and modes on
 * the oldest (1.21.1) too. `MC_TEST_ALL_VERSIONS=1` (`npm run test:versions`) runs every server
 * test on every older version, and the crafting and escape-room plays on the oldest, as a release
 * check. Tests read the version through test/helpers/version.ts (`MC_TEST_VERSION`).
 * One version alone: `npx vitest run --project 1.21.1 test/server/crafting.test.ts`.
 *
 * Why the split (2026-11-28): a CI run with every server test on every version, and the command
 * tests on the oldest, took 24 min, over its 20; the older versions' runs were 37 % of the suite's
 * time.
 */
const OLDER_VERSIONS = SERVER_VERSIONS.filter((version) => version !== DEFAULT_MINECRAFT_VERSION).reverse();
/** The oldest version served: the command and mode tests run on it, as on the newest. */
const OLDEST_VERSION = SERVER_VERSIONS[0];
const ALL_VERSIONS = process.env.MC_TEST_ALL_VERSIONS === '1';
/** The server's mechanics tests, in a fixed order (each older version takes every n-th). */
const SERVER_TESTS = globSync('test/server/**/*.test.ts').sort();
/** Who said a chat line, read from the packets each version sends. */
const CHAT_IDENTITY_TESTS = ['test/agent/chat-identity.test.ts'];
/** The agent's commands and modes, which drive the server's mechanics. */
const COMMAND_TESTS = [
  'test/commands/commands.test.ts',
  'test/commands/world-commands.test.ts',
  'test/commands/container-commands.test.ts',
  'test/commands/movement-commands.test.ts',
  'test/commands/agent-commands.test.ts',
  'test/commands/use-on-commands.test.ts',
  'test/commands/switch-commands.test.ts',
  'test/commands/villager-commands.test.ts',
  'test/agent/modes.test.ts',
];
/**
 * Whole task plays over blocks and items the versions describe differently (iron doors' states, the
 * crafting tasks' items): in the full matrix, on the oldest.
 */
const TASK_PLAY_TESTS = ['test/e2e/crafting-oracle.test.ts', 'test/e2e/crafting-oracle-teams.test.ts', 'test/e2e/escape-oracle.test.ts'];

/** The test files an older `version` runs (see the matrix above). */
function olderVersionTests(version: string): string[] {
  const share = ALL_VERSIONS ? SERVER_TESTS : SERVER_TESTS.filter((_, i) => OLDER_VERSIONS[i % OLDER_VERSIONS.length] === version);
  const oldest = version !== OLDEST_VERSION ? [] : ALL_VERSIONS ? [...COMMAND_TESTS, ...TASK_PLAY_TESTS] : COMMAND_TESTS;
  return [...share, ...CHAT_IDENTITY_TESTS, ...oldest];
}

/**
 * Files that need a module graph of their own (see `isolate` below): the dashboard's test checks
 * that the 3D view's modules load only once a view is opened, which a file before it in the same
 * worker (the vision commands) would already have loaded.
 */
const OWN_MODULES_TESTS = ['test/app/dashboard.test.ts'];

/**
 * Test files at once: three per core (six on 2 cores). The integration tests mostly wait (game
 * ticks, pathfinding, round trips): with one per core the suite used a quarter of the CPU and took
 * 11 min. Measured on 2 cores (2026-11-25, `vitest run`, files not isolated, below): five at once
 * 4 min 23 s at 125 % CPU, seven 3 min 27 s–3 min 46 s at 146–165 %, eight 3 min 25 s at 161 %.
 * The tests that failed under that load were made to wait on conditions, and the server faults
 * the load showed were fixed (a dig read late was rejected, a time set on a clock step undone).
 * Since the survival world's task plays and the third version (2026-11-27), eight at once starved
 * a worker long enough for its server to kick a bot for a late keep-alive (30 s) now and then:
 * three per core since. Three CI runs in a row (2026-11-27) then each failed one different test on
 * a bound that a busy worker overran (an example bot's answer, a follow's distance, a refusal read
 * late): five on 2 cores since, two and a half per core.
 * At most {@link MAX_WORKERS}: each worker holds a server and its bots while a file runs.
 */
const MAX_WORKERS = 16;
const WORKERS = Math.min(Math.floor(2.5 * availableParallelism()), MAX_WORKERS);

/**
 * The files that play whole tasks (test/e2e/) start first, then vitest's order (the longest first
 * as the last run measured them, else the largest). They are the longest and among the smallest
 * files: on a fresh clone, with no run measured, size alone started them last and the suite
 * waited for them at its end.
 */
class TasksFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const plays = (spec: TestSpecification) => /[\\/]test[\\/]e2e[\\/]/.test(spec.moduleId);
    return [...sorted.filter(plays), ...sorted.filter((spec) => !plays(spec))];
  }
}

export default defineConfig({
  test: {
    // Integration tests start real servers and real bots: give them room, and run them in forks
    // of their own (a server's state stays in its file: each starts and closes its own).
    pool: 'forks',
    // A worker imports the modules once for all its files (not once per file: a fifth of the CPU
    // went to that); each file still starts and closes its own servers and bots, and the version
    // projects never share a worker.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    sequence: { sequencer: TasksFirst },
    maxWorkers: WORKERS,
    projects: [
      {
        extends: true,
        test: { name: 'default', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...OWN_MODULES_TESTS] },
      },
      { extends: true, test: { name: 'own-modules', include: OWN_MODULES_TESTS, isolate: true } },
      ...OLDER_VERSIONS.map((version) => ({
        extends: true,
        test: {
          name: version,
          include: olderVersionTests(version),
          env: { MC_TEST_VERSION: version },
        },
      })),
    ],
  },
});
