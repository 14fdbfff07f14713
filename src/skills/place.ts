/** Placing blocks. */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import { Vec3 } from 'vec3';
import { abortable, throwIfAborted } from '../util/abort.ts';
import { done, type Outcome, SkillError } from './outcome.ts';

/** Blocks a placed block may replace (vanilla: air-like and replaceable plants). */
function isReplaceable(block: Block | null): boolean {
  return !!block && block.boundingBox === 'empty' && !['water', 'lava'].includes(block.name);
}

/**
 * Whether a living entity (a player or mob, the bot itself included) stands in the block cell at
 * `pos`: vanilla refuses to place a full block there.
 */
function occupied(bot: Bot, pos: Vec3): boolean {
  return Object.values(bot.entities).some((e) => {
    if (e.type !== 'player' && e.type !== 'mob' && e.type !== 'hostile') return false;
    const half = (e.width ?? 0.6) / 2;
    const p = e.position;
    return (
      p.x + half > pos.x &&
      p.x - half < pos.x + 1 &&
      p.z + half > pos.z &&
      p.z - half < pos.z + 1 &&
      p.y + (e.height ?? 1.8) > pos.y &&
      p.y < pos.y + 1
    );
  });
}

/**
 * Places one `blockName` from the inventory on the ground next to the bot (never where the bot
 * or another player or mob stands), preferring spots level with its feet, nearest first. It sneaks while
 * placing, so a crafting table or chest under the spot is built on, not opened.
 *
 * @returns the placed block as the bot sees it.
 * @throws SkillError `missing_items` (`data.missing`) when the bot holds none, `not_found`
 *   (`data.sought` a place) when no free spot with solid ground is within 2 blocks,
 *   `refused_by_server` when the server refused the placement (mineflayer's words).
 */
export async function placeNearby(bot: Bot, blockName: string, signal: AbortSignal): Promise<Block> {
  const item = bot.inventory.items().find((i) => i.name === blockName);
  if (!item) throw new SkillError('missing_items', `You have no ${blockName} to place.`, { missing: { [blockName]: 1 } });
  const feet = bot.entity.position.floored();
  const offsets: Vec3[] = [];
  for (const r of [1, 2])
    for (let dx = -r; dx <= r; dx++)
      for (let dz = -r; dz <= r; dz++) {
        if (Math.max(Math.abs(dx), Math.abs(dz)) === r) offsets.push(new Vec3(dx, 0, dz));
      }
  offsets.sort((a, b) => a.x * a.x + a.z * a.z - (b.x * b.x + b.z * b.z));
  // Level with the bot's feet first, then a step down, then a step up (e.g. on top of another block);
  // air before a plant: vanilla replaces grass but not a flower (the `replaceable` block tag), which
  // a server refuses to place into.
  for (const open of [true, false])
    for (const dy of [0, -1, 1])
      for (const off of offsets) {
        throwIfAborted(signal);
        const pos = feet.plus(off).offset(0, dy, 0);
        const below = bot.blockAt(pos.offset(0, -1, 0));
        const here = bot.blockAt(pos);
        if (!isReplaceable(here) || (open && !here?.name.endsWith('air')) || !below || below.boundingBox !== 'block' || occupied(bot, pos))
          continue;
        await abortable(bot.equip(item, 'hand'), signal);
        // Sneak, as a player does, so that a block with a use action (crafting table, chest, furnace)
        // is built on instead of opened; mineflayer's placeBlock does not sneak by itself.
        const windowBefore = bot.currentWindow;
        bot.setControlState('sneak', true);
        try {
          await abortable(bot.placeBlock(below, new Vec3(0, 1, 0)), signal);
        } catch (err) {
          throwIfAborted(signal);
          throw new SkillError('refused_by_server', err instanceof Error ? err.message : String(err), {
            position: { x: pos.x, y: pos.y, z: pos.z },
          });
        } finally {
          bot.setControlState('sneak', false);
          // A server that ignores the sneak opens the block's window instead: do not leave it open.
          if (bot.currentWindow && bot.currentWindow !== windowBefore) void bot.closeWindow(bot.currentWindow); // closed at once; the returned promise never rejects (mineflayer catches its click)
        }
        const placed = bot.blockAt(pos);
        if (placed?.name === blockName) return placed;
      }
  throw new SkillError(
    'not_found',
    `No free spot with solid ground within 2 blocks to place ${blockName}. Move to open ground and try again.`,
    {
      sought: { kind: 'place', name: `a free spot for ${blockName}`, range: 2 },
    },
  );
}

/**
 * `!placeHere`: {@link placeNearby}, reported.
 *
 * @returns `ok` with the block's `position` and `data.spent`.
 * @throws as {@link placeNearby}.
 */
export async function placeHere(bot: Bot, blockName: string, signal: AbortSignal): Promise<Outcome> {
  const { x, y, z } = (await placeNearby(bot, blockName, signal)).position;
  return done(`Placed ${blockName} at (${x}, ${y}, ${z}).`, { position: { x, y, z }, spent: { [blockName]: 1 } });
}
