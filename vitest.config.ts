import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test matrix. Every test runs on the server's default version (1.21.4); the tests of the
 * server mechanics and of the agent commands, modes and tasks that drive them run again on each
 * older version we support. Tests read the version through test/helpers/version.ts (`MC_TEST_VERSION`).
 * One version alone: `npx vitest run --project 1.21.1 test/server/crafting.test.ts`.
 */
const OLDER_VERSIONS = ['1.21.1'];
const VERSION_DEPENDENT_TESTS = [
  'test/server/**/*.test.ts',
  'test/commands/commands.test.ts',
  'test/commands/world-commands.test.ts',
  'test/commands/container-commands.test.ts',
  'test/commands/movement-commands.test.ts',
  'test/commands/agent-commands.test.ts',
  'test/agent/modes.test.ts',
  // The long oracle games of cooking and construction are left out here (minutes of play, little of
  // it version-dependent: the mechanics they use are those of the server and command tests above).
  'test/e2e/crafting-oracle.test.ts',
  'test/e2e/crafting-oracle-teams.test.ts',
];
/**
 * Test files at once: one and a half per core. The integration tests mostly wait (game ticks,
 * pathfinding, round trips): with one per core the suite used a quarter of the CPU and took
 * 11 min. Measured on 2 cores (2026-11-24, `npm test`): two per core 5 min 36–56 s, three 4 min
 * 14–31 s, four 4 min 0 s, five 3 min 31 s; but with two per core, three full runs of the day
 * each failed a different timing-bound test (a hand-over landing 1.5 blocks from a player who
 * stands still, a dig not yet seen, a particle packet), so CI keeps more margin.
 */
const WORKERS = Math.max(3, Math.ceil(1.5 * availableParallelism()));

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
    // Integration tests start real servers and real bots: give them room, and run files in
    // separate forks so one server's state never leaks into another test file.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: true,
    sequence: { sequencer: TasksFirst },
    maxWorkers: WORKERS,
    projects: [
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts'] } },
      ...OLDER_VERSIONS.map((version) => ({
        extends: true,
        test: {
          name: version, include: VERSION_DEPENDENT_TESTS, env: { MC_TEST_VERSION: version },
        },
      })),
    ],
  },
});
