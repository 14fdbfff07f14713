/**
 * Reading the server version's protocol definition (minecraft-data `protocol.json`, untyped) and
 * entity metadata layouts (`metadataKeys`):
 * packet shapes differ between versions, and a few fixes pick the shape they write from it.
 */
import type { SquidServer } from '../types.ts';

/** One field of a protodef container: its name and type definition. */
export interface ProtocolField {
  name: string;
  type: unknown;
}

/**
 * Follows `path` (object keys and array indices) into an untyped value.
 *
 * @returns the value there, or undefined when the path leads nowhere.
 */
export function dig(value: unknown, ...path: Array<string | number>): unknown {
  let current = value;
  for (const step of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[step];
  }
  return current;
}

/** A type of the protocol's play → toClient namespace, e.g. `packet_respawn`, or undefined. */
export function toClientType(serv: SquidServer, name: string): unknown {
  return dig(serv.registry.protocol, 'play', 'toClient', 'types', name);
}

/** A type of the protocol's shared namespace (e.g. `SpawnInfo` on 1.20.5+), or undefined. */
export function sharedType(serv: SquidServer, name: string): unknown {
  return dig(serv.registry.protocol, 'types', name);
}

/** The fields of a container type definition (`['container', [fields…]]`), or [] when it is not one. */
export function containerFields(type: unknown): ProtocolField[] {
  const fields = dig(type, 1);
  if (!Array.isArray(fields)) return [];
  return fields.filter((f): f is ProtocolField => typeof dig(f, 'name') === 'string');
}

/** The fields of a clientbound packet (`packet_<name>`), or [] when the version has no such packet. */
export function packetFields(serv: SquidServer, packet: string): ProtocolField[] {
  return containerFields(toClientType(serv, `packet_${packet}`));
}

/** Index of an entity type's metadata entry named `key` (minecraft-data `metadataKeys`), or -1. */
export function metadataIndex(serv: SquidServer, entityType: number | null | undefined, key: string): number {
  const info = entityType === null || entityType === undefined ? undefined : serv.registry.entities[entityType];
  return info?.metadataKeys?.indexOf(key) ?? -1;
}

/**
 * Whether text components inside NBT (sign lines, block-entity names) are JSON strings: true
 * before 1.21.5, which stores the component itself as NBT (a string tag for plain text; Minecraft
 * wiki "Java Edition 1.21.5", "Text components are no longer stored as JSON strings in NBT").
 * The protocol definition does not show it (both are NBT), so the version decides.
 */
export function textComponentsInNbtAreJson(serv: SquidServer): boolean {
  return serv.registry.version['<']('1.21.5');
}
