/**
 * Teleports that work on every version: movement
 * packets ignored until the client confirmed a server-side position set, and
 * `player.teleport(position)` that sends the chunks around the destination first. The `/tp`
 * command is a feature on top (../features/teleport-command.ts).
 */
import type { Vec3 } from 'vec3';
import type { SquidPlayer, SquidServer } from '../types.ts';
import { byteToDegrees } from './geometry.ts';
import { movementOf } from './movement.ts';

/**
 * Chunk radius sent at once around a teleport destination, before the position and the paced
 * stream: the 5 × 5 columns that mineflayer's `waitForChunksToLoad` waits for (at most 10 s) after
 * a move. Behind a stream still running (the login's, on a busy server many seconds long) they
 * came too late for it.
 */
const IMMEDIATE_CHUNK_RADIUS = 2;
/** How long to wait for an in-flight chunk stream before streaming for the new position, in ms. */
const STREAM_WAIT_MS = 5_000;

/** Installs the teleport confirmation gate and chunk streaming after teleports. */
export function installTeleport(serv: SquidServer): void {
  serv.on('newPlayer', (player) => {
    installSelfPosition(player);
    ignoreMovesUntilTeleportConfirmed(player);
    overridePlayerTeleport(serv, player);
  });
}

// ---------------------------------------------------------------------------------------------
// The player's own position

/**
 * Replaces flying-squid's `player.sendSelfPosition`, which wrote the stored byte angles
 * (1/256 turn) where the `position` packet takes degrees, so every server-side position set
 * (respawn, game mode change, teleport) turned the player (a bot looking east at -90° was turned
 * to -64°), and left out the 1.21.2+ velocity fields. The look sent is the last one the client
 * reported, in degrees (the movement service), else the stored one converted.
 */
function installSelfPosition(player: SquidPlayer): void {
  player.sendSelfPosition = (newPosition?: Vec3): void => {
    if (newPosition) player.position = newPosition;
    const look = movementOf(player);
    const reported = look.last !== null || look.yaw !== 0 || look.pitch !== 0;
    player._client.write('position', {
      x: player.position.x,
      y: player.position.y,
      z: player.position.z,
      dx: 0,
      dy: 0,
      dz: 0,
      yaw: reported ? look.yaw : byteToDegrees(player.yaw),
      pitch: reported ? look.pitch : byteToDegrees(player.pitch),
      flags: 0, // all absolute
      teleportId: 1, // replaced by the confirmation gate below
    });
  };
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
// the players' places, for a reset

/** Where each player stood at the last checkpoint, and its game mode and spawn point then. */
const places = new WeakMap<
  SquidServer,
  Map<string, { position: Vec3; yaw: number; pitch: number; spawnPoint: Vec3 | undefined; gameMode: number }>
>();

/** Takes note of every player's position, facing, spawn point and game mode, for {@link resetPlayerPlaces}. */
export function checkpointPlayerPlaces(serv: SquidServer): void {
  places.set(
    serv,
    new Map(
      serv.players.map((p) => [
        p.username,
        { position: p.position.clone(), yaw: p.yaw, pitch: p.pitch, spawnPoint: p.spawnPoint?.clone(), gameMode: p.gameMode },
      ]),
    ),
  );
}

/**
 * Every player noted at the checkpoint back where it stood then, facing the same way, with its
 * spawn point then (the warm world's reset).
 *
 * @throws Error when a player noted is not on the server, or its game mode changed (a world in
 *   another game mode is not the one noted).
 */
export function resetPlayerPlaces(serv: SquidServer): void {
  for (const [name, place] of places.get(serv) ?? []) {
    const player = serv.getPlayer(name);
    if (!player) throw new Error(`${name} is not on the server`);
    if (player.gameMode !== place.gameMode) throw new Error(`${name}'s game mode changed`);
    player.spawnPoint = place.spawnPoint?.clone();
    player.yaw = place.yaw;
    player.pitch = place.pitch;
    void player.teleport(place.position.clone());
  }
}
