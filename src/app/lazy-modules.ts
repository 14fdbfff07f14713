/**
 * The modules of the command line, each imported on first use. A command loads what it runs and
 * nothing else: `npm start` with the dashboard off loads no dashboard, evaluation or queue code,
 * and the provider SDKs are loaded by the models that use them (src/models/), so a start-up with
 * the oracle loads neither. Node caches modules, so asking twice costs nothing.
 *
 * @example const { startAgents } = await lazy.startBots();
 */
export const lazy = {
  startBots: () => import('./start-bots.ts'),
  events: () => import('../agent/events.ts'),
  logging: () => import('./logging.ts'),
  dashboard: () => import('./dashboard/server.ts'),
  campaignBoard: () => import('./dashboard/campaign.ts'),
  embeddedServer: () => import('../server/embedded.ts'),
  versions: () => import('../game/versions.ts'),
  runTask: () => import('./run-task.ts'),
  taskSetup: () => import('./task-setup.ts'),
  taskLoader: () => import('../tasks/loader.ts'),
  modelChoice: () => import('../agent/model-choice.ts'),
  campaign: () => import('../tasks/eval/campaign.ts'),
  progress: () => import('./progress.ts'),
  evaluate: () => import('./evaluate.ts'),
  coordinator: () => import('./queue/coordinator.ts'),
  worker: () => import('./queue/worker.ts'),
  jobs: () => import('./queue/jobs.ts'),
  exportSft: () => import('../tasks/eval/export.ts'),
  generate: () => import('./generate.ts'),
  mcp: () => import('./mcp/start.ts'),
};
