/**
 * Packet shapes across versions. flying-squid 1.12 writes its packets in the shapes of 1.21.4 and
 * older, and so do the features of this server that were written against them; on a newer
 * version the serializer throws on such a packet, and minecraft-protocol then drops the
 * connection of the player it was meant for. Every player's `write` is wrapped once, and each
 * packet whose shape changed is converted to the version's own shape, whoever wrote it.
 *
 * A converter applies when the version's protocol definition (minecraft-data `protocol.json`)
 * has the new shape, never by version number, and when the packet given is in the old shape (a
 * writer that already uses the new shape passes through). The differences, with where each was
 * read (minecraft-data's protocol definitions; the wiki.vg / minecraft.wiki "Java Edition
 * protocol" pages of each release):
 *
 * | packet | since | old shape | new shape |
 * | --- | --- | --- | --- |
 * | `entity_teleport` | 1.21.2 | byte angles, no velocity | degrees, velocity `dx dy dz`, relative `flags` |
 * | `map_chunk` heightmaps | 1.21.5 | an NBT compound of long arrays | an array of `{ type, data }` |
 * | `teams` | 1.21.5 | numeric modes, string visibility and collision rule | named modes, enums, a flags byte |
 * | `spawn_position` | 1.21.9 | `{ location, angle }` | `{ globalPos: { dimensionName, location }, yaw, pitch }` |
 * | `entity_velocity`, `spawn_entity` velocity | 1.21.9 | three shorts in 1/8000 block per tick | `lpVec3`, blocks per tick |
 *
 * Installed first of all plugins, so its conversion is the last step before the serializer.
 */
import type { SquidServer } from '../types.ts';
import { byteToDegrees } from './geometry.ts';
import { containerFields, dig, packetFields, toClientType, type ProtocolField } from './protocol.ts';

/** Converts one packet's parameters to the version's shape; returns them unchanged when already right. */
type Converter = (params: Record<string, unknown>) => Record<string, unknown>;

/** The old protocol's velocity unit: 1/8000 block per tick (vanilla `ClientboundSetEntityMotionPacket` before 1.21.9). */
const OLD_VELOCITY_UNIT = 8000;

/** The dimension every position of this server is in (it has only the overworld). */
const OVERWORLD = 'minecraft:overworld';

/**
 * Resolves a packet's fields, following named types (`"RespawnData"`) into the shared types.
 *
 * @returns the fields, or [] when the version has no such packet.
 */
export function resolvedPacketFields(serv: SquidServer, packet: string): ProtocolField[] {
  let type = toClientType(serv, `packet_${packet}`);
  for (let hops = 0; typeof type === 'string' && hops < 4; hops++) type = dig(serv.registry.protocol, 'types', type);
  return containerFields(type);
}

/** The type of a packet's field, or undefined. */
function fieldType(serv: SquidServer, packet: string, field: string): unknown {
  return resolvedPacketFields(serv, packet).find((f) => f.name === field)?.type;
}

/** The converters this version needs, by packet name. */
export function wireConverters(serv: SquidServer): Map<string, Converter> {
  const converters = new Map<string, Converter>();
  const entityTeleport = entityTeleportConverter(serv);
  if (entityTeleport) converters.set('entity_teleport', entityTeleport);
  const spawnPosition = spawnPositionConverter(serv);
  if (spawnPosition) converters.set('spawn_position', spawnPosition);
  if (fieldType(serv, 'entity_velocity', 'velocity') === 'lpVec3') converters.set('entity_velocity', perTickVelocity);
  if (fieldType(serv, 'spawn_entity', 'velocity') === 'lpVec3') converters.set('spawn_entity', perTickVelocity);
  const heightmaps = heightmapConverter(serv);
  if (heightmaps) converters.set('map_chunk', heightmaps);
  const teams = teamsConverter(serv);
  if (teams) converters.set('teams', teams);
  return converters;
}

/** Installs the conversions on every player's connection. */
export function installWireShapes(serv: SquidServer): void {
  const converters = wireConverters(serv);
  if (converters.size === 0) return;
  serv.on('newPlayer', (player) => {
    const client = player._client;
    const write = client.write.bind(client);
    client.write = (name: string, params: object) => {
      const convert = converters.get(name);
      return write(name, convert ? convert(params as Record<string, unknown>) : params);
    };
  });
}

/**
 * `entity_teleport` of 1.21.2+: the pre-1.21.2 shape (byte angles, no velocity, no flags) gets
 * degrees, zero velocity and absolute flags.
 */
function entityTeleportConverter(serv: SquidServer): Converter | undefined {
  if (!packetFields(serv, 'entity_teleport').some((field) => field.name === 'dx')) return undefined;
  return (params) =>
    params.dx !== undefined
      ? params
      : {
          ...params,
          dx: 0,
          dy: 0,
          dz: 0,
          yaw: byteToDegrees(Number(params.yaw ?? 0)),
          pitch: byteToDegrees(Number(params.pitch ?? 0)),
          flags: 0, // all absolute
          onGround: Boolean(params.onGround),
        };
}

/** `spawn_position` of 1.21.9+ (`RespawnData`): the position gets its dimension, the angle becomes the yaw. */
function spawnPositionConverter(serv: SquidServer): Converter | undefined {
  if (!resolvedPacketFields(serv, 'spawn_position').some((field) => field.name === 'globalPos')) return undefined;
  return (params) =>
    params.globalPos !== undefined
      ? params
      : { globalPos: { dimensionName: OVERWORLD, location: params.location }, yaw: Number(params.angle ?? 0), pitch: 0 };
}

/** A velocity of the old unit (1/8000 block per tick, marked by the old `velocityX` field) in blocks per tick. */
function perTickVelocity(params: Record<string, unknown>): Record<string, unknown> {
  if (params.velocityX === undefined) return params;
  const v = params.velocity as { x: number; y: number; z: number } | undefined;
  const velocity = v ? { x: v.x / OLD_VELOCITY_UNIT, y: v.y / OLD_VELOCITY_UNIT, z: v.z / OLD_VELOCITY_UNIT } : { x: 0, y: 0, z: 0 };
  const { velocityX: _x, velocityY: _y, velocityZ: _z, ...rest } = params;
  return { ...rest, velocity };
}

/** Heightmap names: the NBT keys of the old shape and the enum names of the new one are the same words. */
function heightmapConverter(serv: SquidServer): Converter | undefined {
  const type = fieldType(serv, 'map_chunk', 'heightmaps');
  if (!Array.isArray(type) || type[0] !== 'array') return undefined;
  return (params) => {
    const heightmaps = params.heightmaps as { type?: string; value?: Record<string, { value?: unknown }> } | unknown[] | undefined;
    if (heightmaps === undefined || Array.isArray(heightmaps)) return params;
    const entries = Object.entries(heightmaps.value ?? {}).map(([name, tag]) => ({ type: name.toLowerCase(), data: tag.value ?? [] }));
    return { ...params, heightmaps: entries };
  };
}

/** `teams` modes by number (the old shape's). */
const TEAM_MODES = ['add', 'remove', 'change', 'join', 'leave'] as const;

/**
 * `teams` of 1.21.5+: the mode is a name, the friendly-fire byte becomes flags, visibility and
 * collision rule are enums with the same names.
 */
function teamsConverter(serv: SquidServer): Converter | undefined {
  const mode = dig(fieldType(serv, 'teams', 'mode'), 0);
  if (mode !== 'mapper') return undefined;
  return (params) => {
    if (typeof params.mode !== 'number') return params;
    const converted: Record<string, unknown> = { ...params, mode: TEAM_MODES[params.mode] };
    if (typeof params.friendlyFire === 'number') {
      converted.flags = { friendly_fire: (params.friendlyFire & 1) !== 0, see_friendly_invisible: (params.friendlyFire & 2) !== 0 };
      delete converted.friendlyFire;
    }
    return converted;
  };
}
