/**
 * The policy's building: a builder places its cells of the blueprint level by level, bottom up,
 * from the level checks it asks for (`!checkBlueprintLevel`, read as data: which cells to place,
 * remove or replace), waits off the site for teammates' cells, and takes over the cells of a
 * teammate who seems stuck once its own are done.
 */
import type { BlockPos, CellChange } from '../skills/outcome.ts';
import { blueprintBox } from '../tasks/worlds.ts';
import { blueprintCells, type BuildPlan, cellKey } from './construction-plan.ts';
import type { OracleMemory } from './memory.ts';
import type { Observation } from './observation.ts';
import { WAIT } from './retry.ts';

/** Waits (`!stay`) for teammates' cells on one level before a builder gives up. */
const MAX_WAITS = 40;
/** Level checks a builder with no cells of its own left waits before it takes over a teammate's. */
const TAKEOVER_WAITS = 5;
/** Tries of one cell's command before a builder leaves that cell. */
const MAX_CELL_ATTEMPTS = 5;

/** One command of a cell: its text, the block it places (if it places one) and the cell's key. */
export interface CellCommand {
  text: string;
  block?: string;
  key: string;
}

/** The next step of this agent's building. */
export function build(m: OracleMemory, obs: Observation, plan: BuildPlan, lastCommand: string): string {
  // Nothing to place: out of the builders' way, and done.
  if (![...plan.owner.values()].includes(obs.name)) return offSite(m, obs, lastCommand) ?? '';
  const levels = [...obs.blueprint!.levels].map((l) => l.level).sort((a, b) => a - b);
  if (m.level === undefined && !m.finishedSaid) m.level = levels[0];
  if (m.level === undefined) return '';
  // The newest level check, read once.
  const check = m.levelCheck;
  m.levelCheck = undefined;
  if (check?.level !== undefined) {
    const levelNum = check.level;
    if (check.complete) {
      if (levelNum === m.level) {
        m.waits = 0;
        m.level = levels.find((l) => l > levelNum);
        if (m.level === undefined) {
          m.finishedSaid = true;
          return 'My part of the blueprint is built.';
        }
      }
    } else {
      const builders = [...new Set(plan.owner.values())].sort((a, b) => a.localeCompare(b));
      const ownerOf = (p: BlockPos) => plan.owner.get(cellKey(p)) ?? builders[Math.abs(p.x + p.z) % builders.length];
      // A cell that keeps failing (someone stands in it, nothing to place against) is left
      // for later passes, and given up after a few. A block this builder does not hold is not
      // tried (it waits off the site for it, or a teammate with blocks to spare takes the cell over).
      const commands = (owner: typeof ownerOf) =>
        check.changes
          .flatMap((change) => cellCommands(change, owner, obs.name))
          .filter((c) => (m.attempts.get(c.text) ?? 0) < MAX_CELL_ATTEMPTS && (c.block === undefined || (obs.inventory[c.block] ?? 0) > 0))
          .flatMap((c) => (m.refused.delete(c.key) ? ['!moveAway(2)', c.text] : [c.text]));
      m.queue = commands(ownerOf);
      // Its own cells done, a builder that has waited a while on a teammate's takes them over
      // (their owner may be stuck, or out of the block) with the blocks its own cells of the
      // levels above do not need: whoever places first, the level check drops the cell for the
      // other.
      if (m.queue.length === 0 && m.waits >= TAKEOVER_WAITS) {
        const spare = { ...obs.inventory };
        for (const c of blueprintCells(obs.blueprint!)) {
          if (c.level > levelNum && plan.owner.get(cellKey(c)) === obs.name) spare[c.block] = (spare[c.block] ?? 0) - 1;
        }
        const toPlace = new Map(check.changes.filter((c) => c.action === 'place' && c.block).map((c) => [cellKey(c.position), c.block!]));
        const mine = (p: BlockPos) => {
          const block = toPlace.get(cellKey(p));
          if (!block || (spare[block] ?? 0) <= 0) return ownerOf(p);
          spare[block]! -= 1;
          return obs.name;
        };
        m.queue = commands(mine);
      }
      if (m.queue.length === 0) {
        if (++m.waits > MAX_WAITS) return '';
        // Cells given up on get another chance now and then (a teammate may have moved away).
        if (m.waits % 5 === 0) m.attempts.clear();
        return offSite(m, obs, lastCommand) ?? WAIT;
      }
    }
  }
  const next = m.queue.shift();
  if (next) {
    m.attempts.set(next, (m.attempts.get(next) ?? 0) + 1);
    return next;
  }
  return `!checkBlueprintLevel(${m.level})`;
}

/**
 * The walk off the building site while this agent waits there: a player standing in a cell
 * blocks it, also one whose feet are just outside the site's cells (a player is 0.6 blocks
 * wide). Each teammate waits on its own spot, west of the site; undefined when this agent is
 * off the site already or has just walked (a walk that fell short is not tried again at once).
 */
function offSite(m: OracleMemory, obs: Observation, lastCommand: string): string | undefined {
  const box = blueprintBox(obs.blueprint!);
  const p = obs.position;
  const onSite = p && p.x > box.min.x - 1 && p.x < box.max.x + 2 && p.z > box.min.z - 1 && p.z < box.max.z + 2;
  if (!onSite || (m.offSiteWalk && lastCommand === m.offSiteWalk)) return undefined;
  const k = Math.max(0, m.team?.indexOf(obs.name) ?? 0);
  m.offSiteWalk = `!goToCoordinates(${box.min.x - 3}, ${box.min.y}, ${box.min.z + k * 2}, 1)`;
  return m.offSiteWalk;
}

/**
 * The commands for one cell a level check lists (place into air, remove, or replace: dig then
 * place) when the cell is `me`'s, else none.
 */
export function cellCommands(change: CellChange, ownerOf: (p: BlockPos) => string | undefined, me: string): CellCommand[] {
  const p = change.position;
  if (ownerOf(p) !== me) return [];
  const key = cellKey(p);
  const dig = { text: `!digAt(${p.x}, ${p.y}, ${p.z})`, key };
  const place = (block: string) => ({ text: `!placeBlockAt("${block}", ${p.x}, ${p.y}, ${p.z})`, block, key });
  switch (change.action) {
    case 'place':
      return change.block ? [place(change.block)] : [];
    case 'remove':
      return [dig];
    case 'replace':
      return change.block ? [dig, place(change.block)] : [dig];
    case 'unseen':
      // Its chunk is not loaded: nothing to do until a later check sees it.
      return [];
  }
}
