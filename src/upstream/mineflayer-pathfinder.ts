/**
 * mineflayer-pathfinder through open doorways, and never through a door by digging it.
 *
 * mineflayer-pathfinder 2.4.5 walks a cell only when its block's `boundingBox` is `'empty'`
 * (`Movements.getBlock`: `safe`). Doors, trapdoors and fence gates are `'block'` in
 * minecraft-data whatever their state, so an open door is a wall to the planner: it plans to dig
 * it (`safeOrBreak`) where the bot can harvest it (an iron door by hand on 1.21.4+, whose data
 * lists no harvest tools) and finds no path where it cannot (an iron door on 1.21.1, whose data
 * asks for a pickaxe). A bot walks out of an escape room by breaking the door the puzzle opened,
 * or not at all. Even when a doorway cell is planned, `postProcessPath` moves its node onto the
 * top of the door's leaf (`getPositionOnTopOf`: a block up and to the side), where the bot can
 * never arrive.
 *
 * Per bot, on every `Movements` set on its pathfinder (`setMovements` is wrapped: plugins set their
 * own), three changes, each a no-op where the library already does the right thing:
 * - `getBlock`: a door, trapdoor or fence gate whose `open` is true is walkable (`safe`, not
 *   `physical`, no shapes), as vanilla's collision lets a player through the frame beside the leaf;
 * - `blocksCantBreak` gains every door and fence gate: the planner never digs one (a closed one is
 *   a wall, as for a player who cannot open it);
 * - on `path_update`, a node that `postProcessPath` put on top of an open leaf is put back on the
 *   doorway's floor, at the cell's centre (the leaf is 3/16 of a block at one side: the bot's
 *   0.6-wide box passes at the centre).
 *
 * Upstream: docs/upstream/mineflayer-pathfinder.md (open pull requests #372 and #373 fix the same
 * in the library, for wooden doors and gates opened by the bot).
 */
import type { Bot } from 'mineflayer';
import type { Movements } from 'mineflayer-pathfinder';
import type { Block } from 'prismarine-block';
import { Vec3 } from 'vec3';

/** Whether a block of this name opens and closes as a doorway: doors, trapdoors, fence gates. */
function isDoorway(name: string): boolean {
  return name.endsWith('_door') || name.endsWith('_trapdoor') || name.endsWith('_fence_gate');
}

/** A block as `Movements.getBlock` returns it: prismarine's, with the planner's flags. */
type PlannedBlock = Block & { safe: boolean; physical: boolean };

const PATCHED = Symbol.for('mindcraft-ts.pathfinderDoorways');

/** Whether `block` is a doorway standing open (`getBlock` answers for an unloaded cell with a bare object, no name). */
function openDoorway(block: Block | null): boolean {
  return typeof block?.name === 'string' && isDoorway(block.name) && block.getProperties().open === true;
}

/**
 * Lets `bot`'s pathfinder walk through open doorways and never dig a door or gate (see the module
 * comment), with every `Movements` it plans with: the one set now, and each one set later
 * (mineflayer-collectblock and mineflayer-pvp set their own on the pathfinder and leave them
 * there). Call once per bot, after the pathfinder plugin has loaded; a second call does nothing.
 */
export function doorways(bot: Bot): void {
  const b = bot as Bot & { [PATCHED]?: true };
  if (b[PATCHED]) return;
  b[PATCHED] = true;
  const setMovements = bot.pathfinder.setMovements.bind(bot.pathfinder);
  bot.pathfinder.setMovements = (movements) => {
    throughDoorways(bot, movements);
    setMovements(movements);
  };
  throughDoorways(bot, bot.pathfinder.movements);
  bot.on('path_update', (results) => {
    for (const node of results.path) {
      if (!Number.isInteger(node.y)) continue;
      const floor = new Vec3(Math.floor(node.x), node.y - 1, Math.floor(node.z));
      const block = bot.blockAt(floor, false);
      if (!openDoorway(block) || Math.max(...block!.shapes.map((s) => s[4])) !== 1) continue;
      node.x = floor.x + 0.5;
      node.y = floor.y;
      node.z = floor.z + 0.5;
    }
  });
}

/** The `getBlock` and `blocksCantBreak` parts of {@link doorways} on one `Movements` (once each). */
function throughDoorways(bot: Bot, movements: Movements): void {
  const m = movements as Movements & { getBlock(pos: Vec3, dx: number, dy: number, dz: number): PlannedBlock; [PATCHED]?: true };
  if (m[PATCHED]) return;
  m[PATCHED] = true;
  for (const block of bot.registry.blocksArray) {
    if (block.name.endsWith('_door') || block.name.endsWith('_fence_gate')) m.blocksCantBreak.add(block.id);
  }
  const getBlock = m.getBlock.bind(m);
  m.getBlock = (pos, dx, dy, dz) => {
    const b = getBlock(pos, dx, dy, dz);
    if (!b.safe && openDoorway(b)) {
      b.safe = true;
      b.physical = false;
      b.shapes = [];
    }
    return b;
  };
}
