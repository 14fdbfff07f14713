/**
 * What the server knows about each player's movement, from their own packets: last position,
 * look, ground contact, sprinting and sneaking; and a hook for every walking step
 * ({@link onPlayerMove}). flying-squid compares the mapped `entity_action` names with numbers,
 * reads `onGround` where 1.21.2+ sends `flags.onGround`, and ignores `player_input` (1.21.2+
 * clients sneak through its `shift` flag instead of `entity_action`), so it knows none of them.
 */
import type { SquidPlayer, SquidServer } from '../types.ts';
import type { Position } from './geometry.ts';

/** What the server knows about a player's movement, from their own packets. */
export interface MovementState {
  /** Last position reported, in blocks (null before the first one and after a server teleport). */
  last: Position | null;
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

/** Called for one walking step of a player: positions in blocks, and whether they stood on the ground before it. */
export type MoveListener = (player: SquidPlayer, from: Position, to: Position, wasOnGround: boolean) => void;
const moveListeners = new WeakMap<SquidServer, MoveListener[]>();

/** Calls `listener` for every movement packet of every player (not for server teleports). */
export function onPlayerMove(serv: SquidServer, listener: MoveListener): void {
  const list = moveListeners.get(serv) ?? [];
  list.push(listener);
  moveListeners.set(serv, list);
}

/** Moves longer than this (blocks) are teleports, not walking. */
const TELEPORT_DISTANCE = 10;

/** `entity_action` ids before 1.20.5 mapped them to names. */
const ENTITY_ACTIONS = ['start_sneaking', 'stop_sneaking', 'stop_sleeping', 'start_sprinting', 'stop_sprinting'];

interface MovePacket {
  x?: number;
  y?: number;
  z?: number;
  yaw?: number;
  pitch?: number;
  onGround?: boolean;
  flags?: { onGround?: boolean } | number;
}

/**
 * Installs movement tracking for every player who joins afterwards. Must come after the
 * teleport service: a server teleport (its `player.teleport`) restarts the distance count.
 */
export function installMovement(serv: SquidServer): void {
  serv.on('newPlayer', (player) => {
    const state = movementOf(player);
    const client = player._client;
    const onMove = (data: MovePacket): void => {
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
    for (const packet of ['position', 'position_look', 'look', 'flying']) client.on(packet, onMove);
    client.on('entity_action', ({ actionId }: { actionId: number | string }) => {
      const action = typeof actionId === 'number' ? ENTITY_ACTIONS[actionId] : actionId;
      if (action === 'start_sprinting') state.sprinting = true;
      else if (action === 'stop_sprinting') state.sprinting = false;
      else if (action === 'start_sneaking') {
        state.sneaking = true;
        player.crouching = true;
      } else if (action === 'stop_sneaking') {
        state.sneaking = false;
        player.crouching = false;
      }
    });
    if (serv.supportFeature('newPlayerInputPacket')) {
      client.on('player_input', ({ inputs }: { inputs?: { shift?: boolean } }) => {
        const sneaking = inputs?.shift === true;
        state.sneaking = sneaking;
        player.crouching = sneaking;
      });
    }
    // A server teleport restarts the distance count.
    const teleport = player.teleport.bind(player);
    player.teleport = async (position) => {
      state.last = null;
      return teleport(position);
    };
  });
}
