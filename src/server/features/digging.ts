/**
 * Block breaking, computed server-side as vanilla 1.21 (`ServerPlayerGameMode`):
 * - the dig time comes from the block's hardness and the held tool (prismarine-block
 *   `digTime`, the formula mineflayer's `bot.digTime` uses): a "finished digging" from 70 % of
 *   that time on (vanilla's tolerance) breaks the block; one that arrives earlier (a client that
 *   digs too fast, or a server that read the start late, stalled under load) breaks it once the
 *   whole dig time has passed since the start, unless the block has changed meanwhile (vanilla's
 *   delayed destroy, one per player); unbreakable blocks (bedrock) never break;
 * - drops follow minecraft-data `blockLoot` (crops by age), and nothing drops when the block
 *   needs a tool (`harvestTools`) the player does not hold;
 * - the tool used loses durability (1 per block with hardness > 0, 2 for swords) and breaks
 *   at its `maxDurability`;
 * - both halves of doors, beds and tall plants go together (one drop); plants, torches, carpets and crops standing on
 *   the block (and wall torches on its sides) pop off with their drops;
 * - creative mode breaks instantly without drops; adventure and spectator cannot break;
 * - the other players nearby see a dig's cracks, stage by stage, until it ends (vanilla
 *   `destroyBlockProgress`): mineflayer bots read who is digging what from them.
 * Each broken block emits `serv.emit('blockBroken', event)` (`BlockBrokenEvent`): features
 * that keep data about blocks (containers' contents, sign texts) react to breaking there.
 */
import type { Block } from 'prismarine-block';
import type { BlockBrokenEvent, SquidPlayer, SquidServer, SquidWorld } from '../types.ts';
import { blockAt, isAir } from '../services/blocks.ts';
import { popDrops } from '../services/drops.ts';
import { addExhaustion, EXHAUSTION } from '../services/food.ts';
import { BLOCK_REACH, FACES, OPPOSITE, PLAYER_EYE_HEIGHT, isHorizontal, offset, toVec, vec, type Position } from '../services/geometry.ts';
import { damageHeldTool, heldItem, PLAYER_SLOTS } from '../services/items.ts';
import { blockDrops, type DropStack } from '../services/loot.ts';
import { movementOf } from '../services/movement.ts';

/** block_dig statuses handled here (protocol). */
const START = 0;
const CANCEL = 1;
const FINISH = 2;
/** vanilla accepts a finished dig once 70 % of the break progress is reached (`ServerPlayerGameMode.handleBlockBreakAction`). */
export const DIG_TOLERANCE = 0.7;
/** Network slack allowed on top of the tolerance, in ms (one tick). */
const DIG_SLACK_MS = 50;

interface DigState {
  pos: Position;
  stateId: number;
  startMs: number;
  /** The dig's expected time (ms), as at its start. */
  expectedMs: number;
  /** The break stage (0–9) last shown to the players nearby, if any. */
  shown?: number;
}
const digs = new WeakMap<SquidPlayer, DigState>();

/**
 * Shows `player`'s dig at `pos` to the other players nearby at break stage `stage` (0–9; -1
 * takes it away), as vanilla's `ServerLevel.destroyBlockProgress` does: everyone but the digger
 * sees the cracks, under the digger's entity id (mineflayer: `blockBreakProgressObserved`,
 * `blockBreakProgressEnd`).
 */
function showStage(player: SquidPlayer, pos: Position, stage: number): void {
  player._writeOthersNearby('block_break_animation', { entityId: player.id, location: pos, destroyStage: stage });
}

/** Ends `player`'s dig, if any: the others stop seeing its cracks. */
function endDig(player: SquidPlayer): void {
  const dig = digs.get(player);
  digs.delete(player);
  if (dig?.shown !== undefined) showStage(player, dig.pos, -1);
}

/** Each tick, the stage of every dig under way, shown when it changes (vanilla `ServerPlayerGameMode.tick`: `(int) (progress × 10)`). */
function showDigs(serv: SquidServer): void {
  const now = Date.now();
  for (const player of serv.players) {
    const dig = digs.get(player);
    if (!dig) continue;
    const stage = Math.min(9, Math.floor((10 * (now - dig.startMs)) / dig.expectedMs));
    if (stage === dig.shown) continue;
    dig.shown = stage;
    showStage(player, dig.pos, stage);
  }
}
/** Players with a delayed destroy pending (vanilla `ServerPlayerGameMode.hasDelayedDestroy`). */
const delayed = new WeakSet<SquidPlayer>();

/**
 * Expected time to break `block` for `player` with what they hold now, in ms (Infinity when
 * unbreakable, 0 when instant), from prismarine-block `digTime` with the server's view of the
 * player: held item and its enchantments, helmet enchantments, in water, on the ground.
 */
export function expectedDigTime(player: SquidPlayer, block: Block): number {
  const held = heldItem(player);
  const helmet = player.inventory.slots[PLAYER_SLOTS.head];
  let enchants: unknown[] = [];
  try {
    enchants = [...(held?.enchants ?? []), ...(helmet?.enchants ?? [])];
  } catch {
    enchants = [];
  }
  const eyes = player.position.offset(0, PLAYER_EYE_HEIGHT, 0).floored();
  let inWater = false;
  try {
    inWater = player.world.sync?.getBlock(eyes)?.name === 'water';
  } catch {
    inWater = false;
  }
  return block.digTime(held?.type ?? null, player.gameMode === 1, inWater, !movementOf(player).onGround, enchants as never, [] as never);
}

/** True for items that take wear from breaking blocks: minecraft-data `materials` tools, and swords. */
function miningDamage(serv: SquidServer, type: number | undefined): number {
  if (type === undefined) return 0;
  const name = serv.registry.items[type]?.name ?? '';
  if (name.endsWith('_sword')) return 2;
  const materials = serv.registry.materials as unknown as Record<string, Record<string, number>>;
  return Object.values(materials).some((m) => m[type] !== undefined) ? 1 : 0;
}

/**
 * The other half of a two-block block at `pos`: a door, a bed, or a tall plant (tall grass, large
 * fern, sunflower, lilac, rose bush, peony: vanilla `DoublePlantBlock`, whose halves go together).
 */
function linkedHalf(block: Block, pos: Position): Position | null {
  const props = block.getProperties();
  if (props.half === 'lower' || props.half === 'upper') return vec(pos.x, pos.y + (props.half === 'lower' ? 1 : -1), pos.z);
  if (block.name.endsWith('_bed') && props.part && typeof props.facing === 'string' && isHorizontal(props.facing)) {
    return props.part === 'foot' ? offset(pos, props.facing) : offset(pos, OPPOSITE[props.facing]);
  }
  return null;
}

/** True when `block`, resting on the block below it, falls off when that block goes. */
function needsFloor(block: Block): boolean {
  if (isAir(block.name)) return false;
  if (block.name.endsWith('_carpet')) return true;
  if (block.name.endsWith('_door')) return block.getProperties().half === 'lower';
  return block.boundingBox === 'empty' && block.hardness === 0 && !block.name.includes('wall_') && !block.name.endsWith('_button');
}

/**
 * Breaks the block at `pos` as `player` did: sets air (and the other half of a door or bed),
 * pops the drops unless `withDrops` is false, then breaks what depended on it.
 *
 * @returns the drops spawned.
 */
export async function breakBlock(
  serv: SquidServer,
  player: SquidPlayer,
  pos: Position,
  block: Block,
  withDrops: boolean,
): Promise<DropStack[]> {
  const world = player.world;
  const drops = withDrops ? blockDrops(serv, block, heldItem(player)?.type ?? null) : [];
  const other = linkedHalf(block, pos);
  await serv.setBlock(world, toVec(pos), 0);
  if (other) {
    const otherBlock = await blockAt(world, other);
    if (otherBlock?.name === block.name) await serv.setBlock(world, toVec(other), 0);
  }
  popDrops(serv, world, pos, drops);
  const event: BlockBrokenEvent = { player, position: toVec(pos), block, drops };
  serv.emit('blockBroken', event);
  await breakDependents(serv, player, pos, withDrops);
  if (other) await breakDependents(serv, player, other, withDrops);
  return drops;
}

/** Pops blocks that lost their support when `pos` became air (no tool needed for those). */
async function breakDependents(serv: SquidServer, player: SquidPlayer, pos: Position, withDrops: boolean): Promise<void> {
  const world = player.world;
  const above = vec(pos.x, pos.y + 1, pos.z);
  const top = await blockAt(world, above);
  if (top && needsFloor(top)) await breakSupported(serv, world, above, top, withDrops);
  for (const face of FACES.slice(2)) {
    const side = offset(pos, face);
    const block = await blockAt(world, side);
    if (block?.name.includes('wall_torch') && block.getProperties().facing === face)
      await breakSupported(serv, world, side, block, withDrops);
  }
}

async function breakSupported(serv: SquidServer, world: SquidWorld, pos: Position, block: Block, withDrops: boolean): Promise<void> {
  const drops = withDrops ? blockDrops(serv, block, null) : [];
  const other = linkedHalf(block, pos);
  await serv.setBlock(world, toVec(pos), 0);
  if (other) await serv.setBlock(world, toVec(other), 0);
  popDrops(serv, world, pos, drops);
}

/** Tells the client its dig at `pos` failed: the real block, and the acknowledgement. */
function reject(player: SquidPlayer, pos: Position, stateId: number, sequence: number | undefined): void {
  player._client.write('block_change', { location: pos, type: stateId });
  ack(player, sequence);
}

function ack(player: SquidPlayer, sequence: number | undefined): void {
  if (sequence === undefined) return;
  player._client.write('acknowledge_player_digging', {
    sequenceId: sequence,
    location: vec(0, 0, 0),
    block: 0,
    status: 0,
    successful: true,
  });
}

/** The fields of a `block_dig` packet digging reads. */
interface DigPacket {
  status: number;
  location: Position;
  sequence?: number;
}

/**
 * Handles one dig packet. `receivedMs` is when the packet arrived (`Date.now()` in the packet
 * listener), not when the queue got to it: under load a dig's START can wait in the queue, and
 * timing the dig from then made a real dig look too fast and rejected it.
 */
async function onDig(serv: SquidServer, player: SquidPlayer, packet: DigPacket, receivedMs: number): Promise<void> {
  const { status, sequence } = packet;
  const pos = vec(packet.location.x, packet.location.y, packet.location.z);
  const block = await blockAt(player.world, pos);
  if (!block) {
    ack(player, sequence);
    return;
  }
  if (status === CANCEL) {
    endDig(player);
    ack(player, sequence);
    return;
  }
  if (block.type === 0 || isAir(block.name)) {
    // Already broken (instant break on START, then mineflayer's FINISH).
    endDig(player);
    ack(player, sequence);
    return;
  }
  const eyes = player.position.offset(0, PLAYER_EYE_HEIGHT, 0);
  const tooFar = eyes.distanceTo(pos.offset(0.5, 0.5, 0.5)) > BLOCK_REACH;
  if (player.gameMode === 2 || player.gameMode === 3 || player.health <= 0 || tooFar) {
    endDig(player);
    reject(player, pos, block.stateId, sequence);
    return;
  }
  if (player.gameMode === 1) {
    if (status === START) await breakBlock(serv, player, pos, block, false);
    ack(player, sequence);
    return;
  }
  const expected = expectedDigTime(player, block);
  if (status === START) serv.emit('blockAttacked', { player, position: pos, block });
  if (status === START) {
    if (expected === Infinity) {
      reject(player, pos, block.stateId, sequence);
      return;
    }
    if (expected === 0) {
      await finishSurvivalBreak(serv, player, pos, block);
      ack(player, sequence);
      return;
    }
    endDig(player);
    digs.set(player, { pos, stateId: block.stateId, startMs: receivedMs, expectedMs: expected });
    ack(player, sequence);
    return;
  }
  if (status !== FINISH) return;
  const dig = digs.get(player);
  endDig(player);
  const sameDig = dig && dig.pos.x === pos.x && dig.pos.y === pos.y && dig.pos.z === pos.z && dig.stateId === block.stateId;
  if (!sameDig || expected === Infinity) {
    reject(player, pos, block.stateId, sequence);
    return;
  }
  if (receivedMs - dig.startMs + DIG_SLACK_MS < expected * DIG_TOLERANCE) {
    if (delayed.has(player)) reject(player, pos, block.stateId, sequence);
    else {
      delayDestroy(serv, player, pos, block.stateId, dig.startMs + expected);
      ack(player, sequence);
    }
    return;
  }
  await finishSurvivalBreak(serv, player, pos, block);
  ack(player, sequence);
}

/**
 * Vanilla's delayed destroy (`ServerPlayerGameMode.hasDelayedDestroy`): a dig finished early
 * breaks its block at `dueMs`, when the whole dig time has passed since its start, if the block
 * is still the one dug and the player is still there, alive and in survival; otherwise the block
 * stays (as the server last told the client: nothing to send).
 */
function delayDestroy(serv: SquidServer, player: SquidPlayer, pos: Position, stateId: number, dueMs: number): void {
  delayed.add(player);
  const timer = setTimeout(
    () => {
      delayed.delete(player);
      void (async () => {
        const block = await blockAt(player.world, pos);
        if (!block || block.stateId !== stateId || player.disconnected || player.health <= 0 || player.gameMode !== 0) return;
        await finishSurvivalBreak(serv, player, pos, block);
      })().catch((err: unknown) => {
        serv.emit('error', err);
      });
    },
    Math.max(0, dueMs - Date.now()),
  );
  timer.unref();
}

async function finishSurvivalBreak(serv: SquidServer, player: SquidPlayer, pos: Position, block: Block): Promise<void> {
  const toolType = heldItem(player)?.type;
  await breakBlock(serv, player, pos, block, true);
  addExhaustion(serv, player, EXHAUSTION.breakBlock);
  const wear = block.hardness > 0 ? miningDamage(serv, toolType) : 0;
  if (wear > 0) damageHeldTool(serv, player, wear);
}

/**
 * Installs server-side digging: takes over `block_dig` statuses 0–2 (start, cancel, finish)
 * from flying-squid, passing the others (drop item, release use item, swap hands) on to the
 * listeners installed before (the inventory service's and the hunger feature's).
 */
export function installDigging(serv: SquidServer): void {
  serv.on('tick', () => showDigs(serv));
  serv.on('newPlayer', (player) => {
    const client = player._client;
    const previous = client.listeners('block_dig');
    client.removeAllListeners('block_dig');
    let queue: Promise<void> = Promise.resolve();
    client.on('block_dig', (packet: DigPacket) => {
      if (packet.status === START || packet.status === CANCEL || packet.status === FINISH) {
        // Handle a player's dig packets in order (START of an instant break before its FINISH),
        // timed by their arrival.
        const receivedMs = Date.now();
        queue = queue
          .then(() => onDig(serv, player, packet, receivedMs))
          .catch((err: unknown) => {
            serv.emit('error', err);
          });
        return;
      }
      for (const listener of previous) listener.call(client, packet);
    });
  });
}
