/**
 * Sleeping in beds as vanilla 1.21 (`BedBlock.use`, `ServerPlayer.startSleepInBed`,
 * `ServerLevel.tick`): right-clicking a bed within 3 blocks (2 vertically) sets the player's
 * respawn point there; at night (time of day 12542–23459) with no hostile mob within 8 blocks
 * (5 vertically) the player lies down (pose SLEEPING + sleeping position metadata, the bed
 * `occupied`). Once every player in the world has slept {@link SLEEP_TICKS} ticks, the time
 * jumps to the next morning and everyone wakes up (animation 2). `entity_action stop_sleeping`
 * (mineflayer `bot.wake()`) leaves the bed early. Beds are used through flying-squid's block
 * interaction registry, which the placing feature dispatches right-clicks to.
 */
import type { Block } from 'prismarine-block';
import type { SquidPlayer, SquidServer, SquidWorld } from '../types.ts';
import { blockAt, withProperties } from '../services/blocks.ts';
import { sendActionBar, translatable } from '../services/text.ts';
import { DAY_TICKS, OPPOSITE, isHorizontal, offset, timeOfDay, toVec, vec, type Position } from '../services/geometry.ts';
import { metadataIndex } from '../services/protocol.ts';

/** vanilla: players must sleep 100 ticks before the night is skipped (`Player.isSleepingLongEnough`). */
export const SLEEP_TICKS = 100;
/** vanilla night window for sleeping (`Level.isDay` false, clear weather), in ticks of the day. */
export const NIGHT_START = 12542;
export const NIGHT_END = 23459;
/** vanilla bed reach (`ServerPlayer.isReachableBedBlock`), in blocks. */
const BED_REACH_XZ = 3;
const BED_REACH_Y = 2;
/** vanilla monster check box around the bed, in blocks. */
const MONSTER_XZ = 8;
const MONSTER_Y = 5;
/** entity Pose values (protocol): standing, sleeping. */
const POSE_STANDING = 0;
const POSE_SLEEPING = 2;
/** Bed height: players lie and stand 0.5625 blocks above the bed's block. */
const BED_HEIGHT = 0.5625;
/** animation id "leave bed" (protocol); mineflayer emits `entityWake`. */
const ANIMATION_WAKE = 2;

interface Sleeper {
  head: Position;
  foot: Position;
  ticks: number;
}
const sleepers = new WeakMap<SquidPlayer, Sleeper>();

/** True while the player is in a bed. */
export function isSleeping(player: SquidPlayer): boolean {
  return sleepers.has(player);
}

/** Writes the player's pose and sleeping position to every player in their world. */
function sendSleepMetadata(serv: SquidServer, player: SquidPlayer, head: Position | null): void {
  const playerType = serv.registry.entitiesByName.player?.id;
  const pose = metadataIndex(serv, playerType, 'pose');
  const sleepingPos = metadataIndex(serv, playerType, 'sleeping_pos');
  const metadata: { key: number; type: string; value: unknown }[] = [];
  if (pose >= 0) metadata.push({ key: pose, type: 'pose', value: head ? POSE_SLEEPING : POSE_STANDING });
  if (sleepingPos >= 0) metadata.push({ key: sleepingPos, type: 'optional_block_pos', value: head ? toVec(head) : undefined });
  const packet = { entityId: player.id, metadata };
  for (const other of serv.players) if (other.world === player.world) other._client.write('entity_metadata', packet);
}

async function setOccupied(serv: SquidServer, world: SquidWorld, pos: Position, occupied: boolean): Promise<void> {
  const block = await blockAt(world, pos);
  if (block?.name.endsWith('_bed')) await serv.setBlock(world, toVec(pos), withProperties(serv, block, { occupied }));
}

/** True when a hostile mob (minecraft-data entity type `hostile`) is near the bed. */
function monstersNear(serv: SquidServer, world: SquidWorld, pos: Position): boolean {
  return Object.values(serv.entities).some(
    (e) =>
      e.type === 'mob' &&
      e.world === world &&
      serv.registry.entitiesByName[e.name ?? '']?.type === 'hostile' &&
      Math.abs(e.position.x - pos.x - 0.5) <= MONSTER_XZ &&
      Math.abs(e.position.y - pos.y) <= MONSTER_Y &&
      Math.abs(e.position.z - pos.z - 0.5) <= MONSTER_XZ,
  );
}

/**
 * Right-click on a bed block (`block` at `pos`): sets the respawn point, then lies down if
 * vanilla allows it, else tells the player why (system message).
 *
 * @returns true (the click is always consumed by the bed).
 */
export async function useBed(serv: SquidServer, player: SquidPlayer, pos: Position, block: Block): Promise<boolean> {
  const props = block.getProperties();
  const facing = typeof props.facing === 'string' && isHorizontal(props.facing) ? props.facing : 'north';
  const head = props.part === 'head' ? toVec(pos) : offset(pos, facing);
  const foot = props.part === 'head' ? offset(pos, OPPOSITE[facing]) : toVec(pos);
  const headBlock = await blockAt(player.world, head);
  if (!headBlock?.name.endsWith('_bed')) return true;
  if (isSleeping(player) || player.health <= 0) return true;
  const p = player.position;
  const reachable = (b: Position): boolean =>
    Math.abs(p.x - b.x - 0.5) <= BED_REACH_XZ && Math.abs(p.y - b.y) <= BED_REACH_Y && Math.abs(p.z - b.z - 0.5) <= BED_REACH_XZ;
  if (!reachable(head) && !reachable(foot)) {
    sendActionBar(serv, player, translatable('block.minecraft.bed.too_far_away'));
    return true;
  }
  if (headBlock.getProperties().occupied) {
    sendActionBar(serv, player, translatable('block.minecraft.bed.occupied'));
    return true;
  }
  const spawn = vec(head.x + 0.5, head.y + BED_HEIGHT, head.z + 0.5);
  const changed = !player.spawnPoint || !player.spawnPoint.equals(spawn);
  player.spawnPoint = spawn;
  if (changed) sendActionBar(serv, player, translatable('block.minecraft.set_spawn'));
  const time = timeOfDay(serv.time);
  if (time < NIGHT_START || time > NIGHT_END) {
    sendActionBar(serv, player, translatable('block.minecraft.bed.no_sleep'));
    return true;
  }
  if (player.gameMode !== 1 && monstersNear(serv, player.world, head)) {
    sendActionBar(serv, player, translatable('block.minecraft.bed.not_safe'));
    return true;
  }
  sleepers.set(player, { head, foot, ticks: 0 });
  player.position = vec(head.x + 0.5, head.y + BED_HEIGHT, head.z + 0.5);
  await setOccupied(serv, player.world, head, true);
  await setOccupied(serv, player.world, foot, true);
  sendSleepMetadata(serv, player, head);
  return true;
}

/** Gets a player out of bed (vanilla `stopSleepInBed`): standing pose, bed free, wake animation. */
export async function wakeUp(serv: SquidServer, player: SquidPlayer): Promise<void> {
  const sleeper = sleepers.get(player);
  if (!sleeper) return;
  sleepers.delete(player);
  await setOccupied(serv, player.world, sleeper.head, false);
  await setOccupied(serv, player.world, sleeper.foot, false);
  sendSleepMetadata(serv, player, null);
  const packet = { entityId: player.id, animation: ANIMATION_WAKE };
  for (const other of serv.players) if (other.world === player.world) other._client.write('animation', packet);
}

/** Installs using beds, the sleep timer, the night skip and leaving the bed. */
export function installBeds(serv: SquidServer): void {
  for (const bed of serv.registry.blocksArray.filter((b) => b.name.endsWith('_bed'))) {
    serv.onBlockInteraction(bed.name, ({ block, player }) => useBed(serv, player, block.position, block));
  }
  serv.on('newPlayer', (player) => {
    player._client.on('entity_action', ({ actionId }: { actionId: number | string }) => {
      if (actionId === 'stop_sleeping' || actionId === 2) void wakeUp(serv, player).catch((err: unknown) => serv.emit('error', err));
    });
    player.once('disconnected', () => {
      void wakeUp(serv, player).catch(() => {});
    });
  });
  serv.on('playerDied', (player) => {
    void wakeUp(serv, player).catch(() => {});
  });

  serv.on('tick', () => {
    const players = serv.players;
    let anySleeping = false;
    for (const player of players) {
      const sleeper = sleepers.get(player);
      if (!sleeper) continue;
      anySleeping = true;
      sleeper.ticks = Math.min(sleeper.ticks + 1, SLEEP_TICKS);
    }
    if (!anySleeping) return;
    // vanilla playersSleepingPercentage 100: every non-spectator player must sleep long enough.
    const everyone = players.filter((p) => p.gameMode !== 3 && p.world === serv.overworld);
    if (!everyone.every((p) => (sleepers.get(p)?.ticks ?? 0) >= SLEEP_TICKS)) return;
    const next = Number(serv.time) + DAY_TICKS;
    serv.setTime(next - (next % DAY_TICKS));
    for (const p of everyone) void wakeUp(serv, p).catch((err: unknown) => serv.emit('error', err));
  });
}
