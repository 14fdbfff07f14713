/** The typed work of a task-graph node: the shared vocabulary of `src/game/work.ts`, which the offline policy executes. */
export { describeWork, workSchema, type BuildCell, type Work } from '../game/work.ts';
