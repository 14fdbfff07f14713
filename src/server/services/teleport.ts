/**
 * Teleporting: the vanilla `/tp` (alias `/teleport`) command, a fix for the 1.21.2+
 * `entity_teleport` packet shape, and chunk streaming around a teleport's destination.
 */
import { Vec3 } from 'vec3';
import type { SquidServer } from '../embedded.ts';
import { commandAction, CommandError, displayName, requirePlayer, resolveTargets } from './targets.ts';
import { sendFeedback, translatable } from './text.ts';
import type { CommandContext, SquidEntity, SquidPlayer } from './types.ts';

/** Horizontal world limit for teleports, in blocks (vanilla `Level.isInSpawnableBounds`). */
const MAX_HORIZONTAL = 30_000_000;
/** Vertical world limit for teleports, in blocks (vanilla `Level.isInSpawnableBounds`). */
const MAX_VERTICAL = 20_000_000;
/** Chunk radius sent at once around a teleport destination, before the paced stream. */
const IMMEDIATE_CHUNK_RADIUS = 1;
/** How long to wait for an in-flight chunk stream before streaming for the new position, in ms. */
const STREAM_WAIT_MS = 5_000;

/** Installs the packet fix, chunk streaming after teleports, and the `/tp` command. */
export function installTeleport(serv: SquidServer): void {
  installEntityTeleportShape(serv);
  serv.on('newPlayer', (player: SquidPlayer) => {
    ignoreMovesUntilTeleportConfirmed(player);
    overridePlayerTeleport(serv, player);
  });
  serv.commands.add({
    base: 'teleport',
    aliases: ['tp'],
    info: 'Teleports entities to a player or to coordinates',
    usage: '/tp <destination> | /tp <x> <y> <z> | /tp <targets> <destination> | /tp <targets> <x> <y> <z>',
    op: true,
    action: commandAction(serv, (args, ctx) => runTeleportCommand(serv, args, ctx)),
  });
}

// ---------------------------------------------------------------------------------------------
// entity_teleport packet shape

/** Converts flying-squid's stored angle (protocol byte, 1/256 of a turn) to degrees. */
function angleByteToDegrees(angle: number): number {
  return (angle * 360) / 256;
}

/**
 * flying-squid writes `entity_teleport` in the pre-1.21.2 shape (byte angles, no velocity, no
 * flags). On 1.21.2+ the serializer throws on it, which silently kills the observer's connection.
 * Every player's `write` is wrapped so that packet is converted to the version's own shape,
 * whoever sends it (long moves, teleports, future code).
 */
function installEntityTeleportShape(serv: SquidServer): void {
  const fields: Array<{ name: string }> | undefined = serv.registry.protocol?.play?.toClient?.types?.packet_entity_teleport?.[1];
  if (!fields?.some((field) => field.name === 'dx')) return; // the old shape is still right
  serv.on('newPlayer', (player: SquidPlayer) => {
    const client = player._client;
    const write = client.write.bind(client);
    client.write = (name: string, params: Record<string, unknown>) => {
      if (name === 'entity_teleport' && params.dx === undefined) {
        params = {
          ...params,
          dx: 0,
          dy: 0,
          dz: 0,
          yaw: angleByteToDegrees(Number(params.yaw ?? 0)),
          pitch: angleByteToDegrees(Number(params.pitch ?? 0)),
          flags: 0, // all absolute
          onGround: Boolean(params.onGround),
        };
      }
      return write(name, params);
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Teleport confirmation

/** Longest wait for a `teleport_confirm` before movement packets are trusted again, in ms. */
const CONFIRM_TIMEOUT_MS = 3_000;

/**
 * Vanilla ignores a client's movement packets between a server-side position set and the client's
 * `teleport_confirm` (`ServerGamePacketListenerImpl.awaitingPositionFromClient`): movement sent
 * before the client saw the teleport would otherwise move the player back server-side. flying-squid
 * applies them, and always uses teleport id 1. Give each position set its own id and gate
 * flying-squid's `position` / `position_look` handlers until that id is confirmed.
 */
function ignoreMovesUntilTeleportConfirmed(player: SquidPlayer): void {
  const client = player._client;
  let nextTeleportId = 1;
  let awaitedId: number | undefined;
  let awaitedSince = 0;
  const originalWrite = client.write.bind(client);
  client.write = (name: string, params: Record<string, unknown>) => {
    if (name === 'position') {
      awaitedId = nextTeleportId++;
      awaitedSince = Date.now();
      params = { ...params, teleportId: awaitedId };
    }
    return originalWrite(name, params);
  };
  client.on('teleport_confirm', ({ teleportId }: { teleportId: number }) => {
    if (teleportId === awaitedId) awaitedId = undefined;
  });
  for (const packet of ['position', 'position_look']) {
    const handlers = client.listeners(packet) as Array<(data: unknown) => void>;
    client.removeAllListeners(packet);
    client.on(packet, (data: unknown) => {
      if (awaitedId !== undefined && Date.now() - awaitedSince < CONFIRM_TIMEOUT_MS) return;
      awaitedId = undefined;
      for (const handler of handlers) handler(data);
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Chunks around a teleport destination

/**
 * Sends the not-yet-loaded chunks within `radius` chunks of the player's current position at once
 * (no pacing), nearest first. Uses flying-squid's per-player loaded-chunk bookkeeping.
 */
async function sendChunksAround(serv: SquidServer, player: SquidPlayer, radius: number): Promise<void> {
  const centreX = Math.floor(player.position.x / 16);
  const centreZ = Math.floor(player.position.z / 16);
  const offsets: Array<[number, number]> = [];
  for (let dx = -radius; dx <= radius; dx++) for (let dz = -radius; dz <= radius; dz++) offsets.push([dx, dz]);
  offsets.sort((a, b) => Math.max(Math.abs(a[0]), Math.abs(a[1])) - Math.max(Math.abs(b[0]), Math.abs(b[1])));
  for (const [dx, dz] of offsets) {
    const chunkX = centreX + dx;
    const chunkZ = centreZ + dz;
    if (player.disconnected || !serv._worldLoadPlayerChunk(chunkX, chunkZ, player)) continue;
    const column = await player.world.getColumn(chunkX, chunkZ);
    await player.sendChunk(chunkX, chunkZ, column);
  }
}

/**
 * Streams the whole view distance around the player's current position. flying-squid skips this
 * when a stream is already running (its `move` handler checks `sendingChunks`), so a teleport that
 * lands mid-stream would otherwise leave the destination unloaded: wait for that stream, then run.
 */
async function streamViewAround(player: SquidPlayer): Promise<void> {
  const deadline = Date.now() + STREAM_WAIT_MS;
  while (player.sendingChunks && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  if (!player.disconnected) await player.worldSendRestOfChunks();
}

/**
 * Replaces `player.teleport(position)`: moves the player server-side (observers see an
 * `entity_teleport`), sends the chunks right around the destination, then the client position,
 * then streams the rest of the view — so the client never stands in an unloaded chunk.
 */
function overridePlayerTeleport(serv: SquidServer, player: SquidPlayer): void {
  let teleports = 0;
  // flying-squid's login (and changeWorld) ends with `await waitPlayerLogin(); sendSelfPosition(pos)`
  // with the position from *before* the wait, which undoes a teleport made in between (a bot that
  // runs /tp right after spawning). If one happened, turn that one stale call into a plain re-send.
  const waitPlayerLogin = player.waitPlayerLogin;
  player.waitPlayerLogin = async (): Promise<void> => {
    const before = teleports;
    await waitPlayerLogin();
    if (teleports === before) return;
    const sendSelfPosition = player.sendSelfPosition;
    player.sendSelfPosition = (): void => {
      player.sendSelfPosition = sendSelfPosition;
      sendSelfPosition();
    };
  };
  player.teleport = async (destination: Vec3): Promise<void> => {
    teleports++;
    const moved = await player.sendPosition(destination, false, true);
    if (moved !== true && !player.position.equals(destination)) return; // cancelled by a plugin
    await sendChunksAround(serv, player, IMMEDIATE_CHUNK_RADIUS);
    player.sendSelfPosition();
    streamViewAround(player).catch((err: unknown) => serv.debug?.(`chunk stream after teleport failed: ${String(err)}`));
  };
}

// ---------------------------------------------------------------------------------------------
// /tp command

/** One parsed coordinate token: `12`, `12.5`, `~`, `~-3`. */
interface CoordinateToken {
  relative: boolean;
  value: number;
  /** Written without a decimal point (vanilla centres such x/z on the block). */
  integer: boolean;
}

const COORDINATE = /^(~)?([-+]?(?:\d+\.?\d*|\.\d+))?$/;

function isCoordinate(token: string): boolean {
  return token !== '' && COORDINATE.test(token) && token !== '~~';
}

function parseCoordinate(token: string): CoordinateToken {
  if (token.startsWith('^')) throw new CommandError({ text: 'Local coordinates (^) are not supported' });
  const match = COORDINATE.exec(token);
  if (!match || (!match[1] && match[2] === undefined)) throw new CommandError(translatable('argument.pos3d.incomplete'));
  return { relative: match[1] === '~', value: match[2] === undefined ? 0 : Number(match[2]), integer: !token.includes('.') };
}

/**
 * Resolves `x y z` tokens to a position (vanilla `Vec3Argument` with centring): relative `~`
 * coordinates are offsets from `origin` (the command's execution position, Minecraft wiki
 * "Coordinates"); absolute integer x and z are centred on the block (+0.5), y never is.
 *
 * @throws CommandError for malformed tokens or a position outside vanilla's teleport bounds.
 */
export function resolveLocation(tokens: string[], origin: Vec3): Vec3 {
  const [x, y, z] = tokens.map(parseCoordinate) as [CoordinateToken, CoordinateToken, CoordinateToken];
  const axis = (c: CoordinateToken, base: number, centre: boolean): number =>
    c.relative ? base + c.value : c.value + (centre && c.integer ? 0.5 : 0);
  const position = new Vec3(axis(x, origin.x, true), axis(y, origin.y, false), axis(z, origin.z, true));
  if (Math.abs(position.x) >= MAX_HORIZONTAL || Math.abs(position.z) >= MAX_HORIZONTAL || Math.abs(position.y) >= MAX_VERTICAL) {
    throw new CommandError(translatable('commands.teleport.invalidPosition'));
  }
  return position;
}

/** Vanilla prints coordinates in feedback with `%f` (six decimals). */
function formatCoordinate(value: number): string {
  return value.toFixed(6);
}

async function teleportAll(targets: SquidEntity[], destination: Vec3): Promise<void> {
  await Promise.all(targets.map((target) => target.teleport(destination.clone())));
}

/**
 * Vanilla `/tp` semantics (Minecraft wiki "Commands/teleport"):
 * - `/tp <destination>`: the caller to an entity;
 * - `/tp <x> <y> <z>`: the caller to a location;
 * - `/tp <targets> <destination>`: entities to one entity;
 * - `/tp <targets> <x> <y> <z>`: entities to a location.
 * `~` is relative to the caller's position. Rotation/`facing` forms are not supported.
 */
async function runTeleportCommand(serv: SquidServer, args: string[], ctx: CommandContext): Promise<void> {
  const origin: Vec3 = ctx.player?.position ?? new Vec3(0, 0, 0);
  let targets: SquidEntity[];
  if (args.length === 1 || args.length === 2) {
    targets = args.length === 1 ? [requirePlayer(ctx)] : resolveTargets(serv, args[0]!, ctx);
    const [destinationEntity] = resolveTargets(serv, args[args.length - 1]!, ctx, { single: true });
    await teleportAll(targets, destinationEntity!.position);
    const feedback = targets.length === 1
      ? translatable('commands.teleport.success.entity.single', [displayName(targets[0]!), displayName(destinationEntity!)])
      : translatable('commands.teleport.success.entity.multiple', [targets.length, displayName(destinationEntity!)]);
    sendFeedback(serv, ctx.player, feedback);
    return;
  }
  if (args.length === 3 || args.length === 4) {
    const locationTokens = args.slice(-3);
    if (!locationTokens.every(isCoordinate)) throw new CommandError(translatable('argument.pos3d.incomplete'));
    targets = args.length === 3 ? [requirePlayer(ctx)] : resolveTargets(serv, args[0]!, ctx);
    const destination = resolveLocation(locationTokens, origin);
    await teleportAll(targets, destination);
    const coordinates = [destination.x, destination.y, destination.z].map(formatCoordinate);
    const feedback = targets.length === 1
      ? translatable('commands.teleport.success.location.single', [displayName(targets[0]!), ...coordinates])
      : translatable('commands.teleport.success.location.multiple', [targets.length, ...coordinates]);
    sendFeedback(serv, ctx.player, feedback);
    return;
  }
  throw new CommandError({ text: 'Usage: /tp <destination> | /tp <x> <y> <z> | /tp <targets> <destination> | /tp <targets> <x> <y> <z>' });
}
