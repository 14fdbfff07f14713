/**
 * The layers of src/ and the one rule between them: imports point down only, and never in a
 * cycle. `npm test` runs `depcruise` with this file (see package.json "lint:deps"); a violation
 * names the importing file, the imported file and the rule.
 *
 * Layers, top to bottom (a layer may import the layers below it, never above):
 *   cli.ts → app/ → coordination/ → agent/ → oracle/ → commands/ → sandbox/ → skills/ → tasks/ → conversation/
 *   → settings/ → models/ → client/ → game/, util/, upstream/ (library fixes, each skipped once upstream has it)
 * coordination/ is the team layer above the agents (task graphs, assignment, causal pruning, team
 * metrics: VillagerAgent's and CausalMACE's strategies); the application wires it to the agents.
 * models/ holds the providers only (no game knowledge); oracle/ is the offline policy, which plays
 * through the commands and reads their typed outcomes. client/ is the Minecraft client's side below
 * the bots: asking a server its version, finding LAN worlds, and fixes to mineflayer for versions
 * it misreads.
 * server/ (the embedded flying-squid server) sits beside them: only app/ and cli.ts import it,
 * and it imports only game/, util/ and upstream/ (fixes of the libraries under bots and server).
 */
const LAYERS = [
  'cli',
  'app',
  'coordination',
  'agent',
  'oracle',
  'commands',
  'sandbox',
  'skills',
  'tasks',
  'conversation',
  'settings',
  'models',
  'client',
  'game|util|upstream',
];

const dir = (layer) => (layer === 'cli' ? '^src/cli\\.ts$' : `^src/(${layer})/`);

const upward = LAYERS.slice(1).map((layer, i) => ({
  name: `no-upward-from-${layer.replace(/\|/g, '-')}`,
  comment: `${layer} may import only the layers below it`,
  severity: 'error',
  from: { path: dir(layer) },
  to: { path: LAYERS.slice(0, i + 1).map(dir) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import cycle: break it by moving the shared definition down a layer',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...upward,
    {
      name: 'server-only-from-app',
      comment: 'only the application layer (and cli.ts) starts or reaches into the embedded server',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/app/', '^src/cli\\.ts$', '^src/server/'] },
      to: { path: '^src/server/' },
    },
    {
      name: 'server-imports-vocabulary-only',
      comment: 'the embedded server depends on the shared vocabulary (game/, util/) and libraries only',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/', pathNot: ['^src/server/', '^src/game/', '^src/util/', '^src/upstream/'] },
    },
    {
      name: 'flying-squid-only-in-server',
      comment: 'flying-squid is loaded by the embedded server only, so settings, bots and tasks never load it',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/server/' },
      to: { path: 'node_modules/flying-squid' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
