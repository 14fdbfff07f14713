/**
 * Vanilla game mechanics for the embedded flying-squid server, as a mineflayer client observes
 * them on a 1.21 vanilla server, computed server-side:
 * - digging: tool requirements, dig time, durability, loot, creative instant break (./digging.ts);
 * - placing: doors, beds, trapdoors, fence gates, stairs, slabs, torches, carpets, farmland,
 *   crops, and opening doors/trapdoors/gates (./placing.ts), which owns right-clicks on blocks
 *   and dispatches the rest to flying-squid's `serv.onBlockInteraction` / `serv.onItemPlace`
 *   registries (containers, furnaces, crafting tables); broken blocks are announced with the
 *   `'blockBroken'` event (./digging.ts);
 * - crops growing by random ticks (./crops.ts), sleeping in beds (./beds.ts);
 * - hunger, regeneration, starvation and eating (./hunger.ts); death drops, `/gamemode`,
 *   creative inventory (./player-state.ts).
 *
 * Per-server settings ({@link MechanicsOptions}) are changed with {@link configureMechanics}.
 */
import type { SquidServer } from '../embedded.ts';
import type { SquidPlayer } from './types.ts';
import { installDigging } from './digging.ts';
import { installPlacing } from './placing.ts';
import { installCrops } from './crops.ts';
import { installBeds } from './beds.ts';
import { installHunger } from './hunger.ts';
import { installPlayerState } from './player-state.ts';

/** Tunable rules of one server. Defaults are vanilla's. */
export interface MechanicsOptions {
  /**
   * vanilla game rule `randomTickSpeed`: random ticks per 16×16×16 section per game tick
   * (default 3, so a given block gets one about every 1365 ticks ≈ 68 s). Crops grow on random
   * ticks. Tests raise it (e.g. 4096 = every crop gets about one random tick per game tick).
   */
  randomTickSpeed: number;
  /**
   * Multiplies every exhaustion increase (vanilla 1). Test-only knob to drain food quickly;
   * 0 disables hunger drain.
   */
  exhaustionMultiplier: number;
  /** vanilla game rule `naturalRegeneration` (default true): heal from food. */
  naturalRegeneration: boolean;
}

const DEFAULTS: MechanicsOptions = { randomTickSpeed: 3, exhaustionMultiplier: 1, naturalRegeneration: true };
const optionsByServer = new WeakMap<SquidServer, MechanicsOptions>();

/** The live settings of a server (defaults before {@link configureMechanics} is called). */
export function mechanicsOptions(serv: SquidServer): MechanicsOptions {
  let options = optionsByServer.get(serv);
  if (!options) {
    options = { ...DEFAULTS };
    optionsByServer.set(serv, options);
  }
  return options;
}

/**
 * Changes some settings of a running server; takes effect on the next tick.
 *
 * @example configureMechanics(server.serv, { randomTickSpeed: 4096 }) // crops grow in seconds
 * @throws RangeError for a negative number.
 */
export function configureMechanics(serv: SquidServer, changes: Partial<MechanicsOptions>): MechanicsOptions {
  for (const [key, value] of Object.entries(changes)) {
    if (typeof value === 'number' && (!Number.isFinite(value) || value < 0)) throw new RangeError(`${key} must be a number >= 0, got ${value}`);
  }
  return Object.assign(mechanicsOptions(serv), changes);
}

/** What the server knows about a player's movement, from their own packets. */
export interface MovementState {
  /** Last position reported, in blocks (null before the first one). */
  last: { x: number; y: number; z: number } | null;
  onGround: boolean;
  sprinting: boolean;
  sneaking: boolean;
  /** Look direction in degrees (Notchian: yaw 0 = +z/south, pitch 90 = down). */
  yaw: number;
  pitch: number;
}

const movement = new WeakMap<SquidPlayer, MovementState>();

/** The player's movement state (created on first use). */
export function movementOf(player: SquidPlayer): MovementState {
  let state = movement.get(player);
  if (!state) {
    state = { last: null, onGround: true, sprinting: false, sneaking: false, yaw: 0, pitch: 0 };
    movement.set(player, state);
  }
  return state;
}

type MoveListener = (player: SquidPlayer, from: { x: number; y: number; z: number }, to: { x: number; y: number; z: number }, wasOnGround: boolean) => void;
const moveListeners = new WeakMap<SquidServer, MoveListener[]>();

/** Calls `listener` for every movement packet of every player (not for server teleports). */
export function onPlayerMove(serv: SquidServer, listener: MoveListener): void {
  const list = moveListeners.get(serv) ?? [];
  list.push(listener);
  moveListeners.set(serv, list);
}

/** Moves longer than this (blocks) are teleports, not walking. */
const TELEPORT_DISTANCE = 10;

/**
 * Tracks look, ground contact, sprinting and sneaking from the client's packets. flying-squid
 * compares the mapped `entity_action` names with numbers, reads `onGround` where 1.21.2+
 * sends `flags.onGround`, and ignores `player_input` (1.21.2+ clients sneak through its `shift`
 * flag instead of `entity_action`), so it never knows any of them.
 */
function installMovementTracking(serv: SquidServer): void {
  serv.on('newPlayer', (player: SquidPlayer) => {
    const state = movementOf(player);
    const client = player._client;
    const onMove = (data: { x?: number; y?: number; z?: number; yaw?: number; pitch?: number; onGround?: boolean; flags?: { onGround?: boolean } | number }): void => {
      if (typeof data.yaw === 'number') state.yaw = data.yaw;
      if (typeof data.pitch === 'number') state.pitch = data.pitch;
      const wasOnGround = state.onGround;
      const flags = data.flags;
      const ground = typeof flags === 'object' ? flags?.onGround : typeof flags === 'number' ? (flags & 1) === 1 : data.onGround;
      if (typeof ground === 'boolean') state.onGround = ground;
      if (typeof data.x !== 'number' || typeof data.y !== 'number' || typeof data.z !== 'number') return;
      const to = { x: data.x, y: data.y, z: data.z };
      const from = state.last;
      state.last = to;
      if (!from || player.health <= 0) return;
      const d = Math.hypot(to.x - from.x, to.y - from.y, to.z - from.z);
      if (d > TELEPORT_DISTANCE) return;
      for (const listener of moveListeners.get(serv) ?? []) listener(player, from, to, wasOnGround);
    };
    client.on('position', onMove);
    client.on('position_look', onMove);
    client.on('look', onMove);
    client.on('flying', onMove);
    client.on('entity_action', ({ actionId }: { actionId: number | string }) => {
      const action = typeof actionId === 'number'
        ? ['start_sneaking', 'stop_sneaking', 'stop_sleeping', 'start_sprinting', 'stop_sprinting'][actionId]
        : actionId;
      if (action === 'start_sprinting') state.sprinting = true;
      else if (action === 'stop_sprinting') state.sprinting = false;
      else if (action === 'start_sneaking') { state.sneaking = true; player.crouching = true; }
      else if (action === 'stop_sneaking') { state.sneaking = false; player.crouching = false; }
    });
    if (serv.supportFeature('newPlayerInputPacket')) {
      client.on('player_input', ({ inputs }: { inputs?: { shift?: boolean } }) => {
        const sneaking = inputs?.shift === true;
        state.sneaking = sneaking;
        player.crouching = sneaking;
      });
    }
    // A server teleport restarts the distance count.
    const teleport = player.teleport?.bind(player);
    if (teleport) {
      player.teleport = async (position: Parameters<SquidPlayer['teleport']>[0]) => {
        state.last = null;
        return teleport(position);
      };
    }
  });
}

/**
 * Installs every mechanic in this module on a started server. Must run after the inventory
 * plugin (it wraps that plugin's `block_dig` listener and uses its inventory sync).
 */
export function mechanicsPlugin(serv: SquidServer): void {
  mechanicsOptions(serv);
  installMovementTracking(serv);
  installHunger(serv);
  installPlayerState(serv);
  installCrops(serv);
  installDigging(serv);
  installPlacing(serv);
  installBeds(serv);
}
