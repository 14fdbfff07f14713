/**
 * The typed work of a task-graph node: what an offline (rule-based) policy executes for it, and
 * what the game rules of `./rules.ts` read to prove or refute the graph's edges. An LLM's node has
 * only text (description, milestones); a rule-based decomposer also attaches a {@link Work}.
 *
 * Four kinds cover the MineCollab and VillagerBench work:
 * - `collect`: get items from the world (dig blocks, harvest crops, hunt mobs, take from a chest):
 *   logs for a pickaxe, wheat for bread, the cooking tasks' raw ingredients;
 * - `make`: craft, smelt or cook items from what is at hand; `planProduction` of
 *   `src/game/production.ts` finds the steps (oak_planks → stick → wooden_pickaxe, beef → cooked_beef);
 * - `give`: hand items to a teammate (`!givePlayer`): the hand-overs of crafting and cooking teams;
 * - `build`: place blocks at absolute positions (a blueprint's cells; `air` = clear the cell).
 *
 * Item and block names are minecraft-data names of the running version (`oak_log`, `stone_bricks`).
 */
import { z } from 'zod';
import { formatCounts, type Counts } from './production.ts';

/** One cell of a `build`: the block wanted at an absolute position (blocks). */
export interface BuildCell {
  x: number;
  y: number;
  z: number;
  /**
   * Block name, e.g. `stone_bricks`, or a block state where the orientation matters
   * (`oak_stairs[facing=west]`: VillagerBench's oriented cells); `air` means the cell is to be cleared.
   */
  block: string;
}

/** The work of one node; see the module header for what each kind means. */
export type Work =
  | { kind: 'collect'; targets: Counts }
  | { kind: 'make'; targets: Counts }
  | { kind: 'give'; to: string; items: Counts }
  | { kind: 'build'; cells: BuildCell[] };

const counts = z.record(z.string().min(1), z.number().int().positive());

/** The zod schema of {@link Work} (for work that arrives as JSON, e.g. from a file or a model). */
export const workSchema: z.ZodType<Work> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('collect'), targets: counts }),
  z.object({ kind: z.literal('make'), targets: counts }),
  z.object({ kind: z.literal('give'), to: z.string().min(1), items: counts }),
  z.object({
    kind: z.literal('build'),
    cells: z.array(z.object({ x: z.number().int(), y: z.number().int(), z: z.number().int(), block: z.string().min(1) })),
  }),
]);

/**
 * A short text of the work, for prompts and records.
 *
 * @example describeWork({ kind: 'give', to: 'Bob', items: { stick: 2 } }) // 'give 2 stick to Bob'
 */
export function describeWork(work: Work): string {
  switch (work.kind) {
    case 'collect':
      return `collect ${formatCounts(work.targets)}`;
    case 'make':
      return `make ${formatCounts(work.targets)}`;
    case 'give':
      return `give ${formatCounts(work.items)} to ${work.to}`;
    case 'build': {
      let lo = Infinity;
      let hi = -Infinity;
      for (const c of work.cells) [lo, hi] = [Math.min(lo, c.y), Math.max(hi, c.y)];
      const span = work.cells.length === 0 ? 'no cells' : lo === hi ? `y=${lo}` : `y=${lo}..${hi}`;
      return `build ${work.cells.length} cell${work.cells.length === 1 ? '' : 's'} (${span})`;
    }
  }
}
