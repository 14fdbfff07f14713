/**
 * mineflayer 4.39 on the versions it misreads, fixed in a plugin loaded on every bot. Each fix
 * applies only where the version's protocol definition (minecraft-data `protocol.json`, which
 * mineflayer's client serializes with) shows the change it was written for, and only while
 * mineflayer still sends or reads the old shape (checked on the bot it is loaded on):
 *
 * - `entity_action` since 1.21.6 (protocol 771) has no sneaking actions (sneaking moved to
 *   `player_input`), so every later action's id is 2 lower, and the field maps ids to names.
 *   mineflayer still writes the old numbers (its `entityActionUsesStringMapper` feature is not
 *   in minecraft-data), so a sprint went out as `start_riding_jump` and `bot.wake()` as
 *   `stop_sprinting`: the server never saw a bot sprint or get out of bed. The old number is
 *   written as its name, which the serializer maps to the version's id.
 * - `entity_velocity` and `spawn_entity` since 1.21.9 carry the velocity as an `lpVec3` in blocks
 *   per tick, where older versions sent 1/8000 block per tick; mineflayer still divides by 8000,
 *   so knockback and thrown items reached the bot 8000 times too slow. After mineflayer's own
 *   listener, the entity gets the packet's velocity as it is.
 *
 * Sources: minecraft-data's protocol definitions of 1.21.5, 1.21.6 and 1.21.9; the
 * minecraft.wiki "Java Edition protocol" pages of those releases (Player Command, Set Entity
 * Velocity); mineflayer `lib/plugins/physics.js`, `bed.js`, `entities.js`. Upstream:
 * docs/upstream/mineflayer.md.
 */
import type { Bot } from 'mineflayer';

/** `entity_action` ids before 1.21.6, by number (the protocol of 1.20.5–1.21.5). */
const OLD_ENTITY_ACTIONS = [
  'start_sneaking',
  'stop_sneaking',
  'stop_sleeping',
  'start_sprinting',
  'stop_sprinting',
  'start_riding_jump',
  'stop_riding_jump',
  'open_inventory',
  'start_fall_flying',
] as const;

type Protocol = Record<string, unknown>;

/** Follows object keys and array indices into an untyped value. */
function dig(value: unknown, ...path: Array<string | number>): unknown {
  let current = value;
  for (const step of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}

/** The type of one field of a play-state packet, or undefined. */
function fieldType(protocol: Protocol, direction: 'toClient' | 'toServer', packet: string, field: string): unknown {
  const fields = dig(protocol, 'play', direction, 'types', `packet_${packet}`, 1);
  if (!Array.isArray(fields)) return undefined;
  return (fields as Array<{ name?: string; type?: unknown }>).find((f) => f.name === field)?.type;
}

/** Whether the version's `entity_action` ids lost the sneaking actions (1.21.6+). */
export function entityActionsRenumbered(protocol: Protocol): boolean {
  const mappings = dig(fieldType(protocol, 'toServer', 'entity_action', 'actionId'), 1, 'mappings');
  return !!mappings && typeof mappings === 'object' && !Object.values(mappings).includes('start_sneaking');
}

/** Whether the version sends velocities as `lpVec3` in blocks per tick (1.21.9+). */
export function velocityInBlocksPerTick(protocol: Protocol): boolean {
  return fieldType(protocol, 'toClient', 'entity_velocity', 'velocity') === 'lpVec3';
}

/**
 * The mineflayer plugin: `bot.loadPlugin(versionFixes)`. Must be loaded before the bot spawns (it
 * wraps the client's `write` and listens ahead of mineflayer's own handlers).
 */
export function versionFixes(bot: Bot): void {
  const protocol = (bot.registry as unknown as { protocol?: Protocol }).protocol;
  if (!protocol) return;
  const client = bot._client as unknown as {
    write(name: string, params: Record<string, unknown>): void;
    on(event: string, listener: (packet: Record<string, unknown>) => void): void;
  };
  if (entityActionsRenumbered(protocol)) {
    const write = client.write.bind(client);
    client.write = (name, params) => {
      if (name === 'entity_action' && typeof params.actionId === 'number') {
        params = { ...params, actionId: OLD_ENTITY_ACTIONS[params.actionId] ?? params.actionId };
      }
      write(name, params);
    };
  }
  if (velocityInBlocksPerTick(protocol)) {
    // After mineflayer's own listener (plugins listen after mineflayer's): the entity gets the
    // packet's velocity as it is, blocks per tick; a mineflayer that reads it right already did.
    const setVelocity = (packet: Record<string, unknown>): void => {
      const v = packet.velocity as { x: number; y: number; z: number } | undefined;
      const entity = bot.entities[packet.entityId as number];
      if (v && entity) entity.velocity.set(v.x, v.y, v.z);
    };
    client.on('entity_velocity', setVelocity);
    client.on('spawn_entity', setVelocity);
  }
}
