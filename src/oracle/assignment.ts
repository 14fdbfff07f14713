/**
 * The policy under a coordination strategy (`dag`, `causal`...): instead of agreeing on a plan by
 * chat, it does the subtask the strategy gave it (`AgentTask.assignment`), by its typed work, and
 * stops; the strategy sees from the world and the inventories whether it was done.
 * - `collect` and `make`: the items, from what it holds and what the world gives;
 * - `give`: the items to the teammate, made again when a hand-over went astray or was cut short;
 * - `build`: the cells, bottom up (`air`: dig the cell), each tried a few times; ground blocks
 *   dug for a scaffold a placement asks for again (`data.scaffold`, `ScaffoldDigs`).
 * What it cannot do it says once, with the reason, and stops.
 */
import type { Assignment } from '../commands/context.ts';
import type { GameData } from '../game/data.ts';
import { formatCounts, itemForBlock } from '../game/production.ts';
import type { AssignmentState, OracleMemory } from './memory.ts';
import type { Observation } from './observation.ts';
import { workToward } from './work.ts';
import { normalizeBlockName } from '../tasks/blueprint.ts';
import { ScaffoldDigs } from './villager-construction.ts';

/** Tries of one cell before it is left. */
const MAX_CELL_TRIES = 4;

/** The next step of the subtask `a`, or '' once it is done or cannot be done (said once). */
export function doAssignment(m: OracleMemory, obs: Observation, data: GameData, a: Assignment): string {
  const work = a.work;
  if (!work) return '';
  if (m.assignment?.node !== a.node) {
    m.assignment = {
      node: a.node,
      toGive: work.kind === 'give' ? { ...work.items } : {},
      cells:
        work.kind === 'build'
          ? [...work.cells].sort((p, q) => p.y - q.y || p.x - q.x || p.z - q.z).map((cell) => ({ cell, tries: 0 }))
          : [],
    };
  }
  const state = m.assignment;
  const cannot = (reason: string) => {
    if (state.said) return '';
    state.said = reason;
    return `I cannot finish ${a.node}: ${reason}.`;
  };
  switch (work.kind) {
    case 'collect':
    case 'make':
      return workToward(m, obs, data, work.targets, {
        done: () => '',
        short: (lacking) => cannot(`I lack ${formatCounts(lacking)}`),
      });
    case 'give':
      return give(state, obs, work.to, cannot);
    case 'build':
      return build(m, state, obs, data, cannot);
  }
}

/** The hand-overs still to make, each as much as is held; the outcomes of earlier ones are read by observe(). */
function give(state: AssignmentState, obs: Observation, to: string, cannot: (reason: string) => string): string {
  for (const [item, n] of Object.entries(state.toGive)) {
    if (n <= 0) continue;
    const have = obs.inventory[item] ?? 0;
    if (have === 0) return cannot(`I have no ${item} to give ${to}`);
    return `!givePlayer("${to}", "${item}", ${Math.min(have, n)})`;
  }
  return '';
}

/**
 * The next cell: placed (or dug, for `air`) bottom up; after a placement the server refused (the
 * builder stood in the cell, often) it steps aside first; a cell that keeps failing is left.
 */
function build(m: OracleMemory, state: AssignmentState, obs: Observation, data: GameData, cannot: (reason: string) => string): string {
  // A placement that needs a scaffold the bot has no blocks for: ground blocks dug for it first
  // (not a cell's command: its outcome must not settle the cell).
  const scaffold = obs.blueprint && (state.scaffold ??= new ScaffoldDigs()).next(obs);
  if (scaffold) {
    state.current = undefined;
    return scaffold;
  }
  const next = state.cells.find((c) => c.tries < MAX_CELL_TRIES);
  if (!next) return state.cells.length ? cannot(`${state.cells.length} cell(s) could not be placed`) : '';
  if (m.refused.delete(`${next.cell.x},${next.cell.y},${next.cell.z}`)) return '!moveAway(2)';
  next.tries++;
  state.current = next;
  const { x, y, z, block } = next.cell;
  if (block === 'air') return `!digAt(${x}, ${y}, ${z})`;
  // A cell may be a block state (`oak_stairs[facing=west]`): the item is the block's.
  const name = normalizeBlockName(block);
  const item = itemForBlock(data, name) ?? name;
  if ((obs.inventory[item] ?? 0) === 0) return cannot(`I have no ${item} for (${x}, ${y}, ${z})`);
  return `!placeBlockAt("${block}", ${x}, ${y}, ${z})`;
}
