/**
 * Block entities of the embedded server: the item slots (and a few numbers, e.g. a furnace's
 * burn time) that belong to a block such as a chest, barrel or furnace. flying-squid 1.12 has
 * no block-entity store (`world.blockEntityData` is a placeholder), so we keep our own.
 *
 * With a world folder (`EmbeddedServerOptions.worldFolder`) the store is saved as JSON in
 * `<worldFolder>/block_entities.json`: about a second after every change, and synchronously
 * when the server closes. Items are stored by minecraft-data name, so the file survives item
 * id changes between versions; data components (enchantments, names) are kept when present.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Item } from 'prismarine-item';
import type { Vec3 } from 'vec3';
import type { SquidServer, SquidWorld } from '../types.ts';
import { blockKey, blockPosition, type Position } from './geometry.ts';
import { countOf, itemClass, type ItemClass, type Slot } from './items.ts';
import { broadcastChanges, type InventorySession } from './menus.ts';

/** File name of the store inside the world folder. */
export const BLOCK_ENTITY_FILE = 'block_entities.json';
/** Delay between a change and the save it triggers, in ms. */
const SAVE_DELAY_MS = 1000;

/** One block entity: a container block's slots and numbers, and who has it open. */
export interface BlockEntity {
  /** minecraft-data block name it belongs to, e.g. 'chest', 'furnace'. */
  kind: string;
  /** 'overworld' or 'the_nether'. */
  dimension: string;
  pos: Position;
  /** The slots (vanilla order: a chest's 0–26; a furnace's 0 input, 1 fuel, 2 result). */
  slots: Slot[];
  /** Numeric state, e.g. a furnace's `litTime` in ticks. Persisted. */
  data: Record<string, number>;
  /** Text lines, e.g. a sign's `front` and `back` (4 plain-text lines each). Persisted. */
  text?: Record<string, string[]>;
  /** Players who have a window on this block entity open (not persisted). */
  viewers: Set<InventorySession>;
}

interface StoredItem {
  slot: number;
  name: string;
  count: number;
  components?: unknown;
}
interface StoredEntity {
  kind: string;
  dimension: string;
  x: number;
  y: number;
  z: number;
  items: StoredItem[];
  data: Record<string, number>;
  text?: Record<string, string[]>;
}

/** The block entities of one server. Get it with {@link blockEntities}. */
export class BlockEntityStore {
  readonly #serv: SquidServer;
  readonly #Item: ItemClass;
  readonly #file: string | undefined;
  readonly #entities = new Map<string, BlockEntity>();
  #saveTimer: NodeJS.Timeout | undefined;

  /**
   * @param file JSON file to load from and save to; undefined = in memory only.
   * @throws Error when the file exists but is not a valid store.
   */
  constructor(serv: SquidServer, file: string | undefined) {
    this.#serv = serv;
    this.#Item = itemClass(serv);
    this.#file = file;
    if (file && existsSync(file)) this.#load(file);
  }

  /** The dimension name of a flying-squid world object. */
  dimensionOf(world: SquidWorld): string {
    return world === this.#serv.netherworld ? 'the_nether' : 'overworld';
  }

  /** The world object of a dimension name. */
  worldOf(dimension: string): SquidWorld {
    return dimension === 'the_nether' ? this.#serv.netherworld : this.#serv.overworld;
  }

  #key(dimension: string, pos: Position): string {
    return `${dimension}:${blockKey(pos)}`;
  }

  /** The block entity at a block position of `world`, if any. */
  get(world: SquidWorld, pos: Position): BlockEntity | undefined {
    return this.#entities.get(this.#key(this.dimensionOf(world), pos));
  }

  /**
   * The block entity of a `kind` block at `pos`, created empty with `size` slots when missing
   * or when the one stored there belongs to another kind of block (a stale entry).
   */
  getOrCreate(world: SquidWorld, pos: Position, kind: string, size: number): BlockEntity {
    const dimension = this.dimensionOf(world);
    const key = this.#key(dimension, pos);
    let entity = this.#entities.get(key);
    if (!entity || entity.kind !== kind || entity.slots.length !== size) {
      entity = {
        kind,
        dimension,
        pos: blockPosition(pos),
        slots: new Array<Slot>(size).fill(null),
        data: {},
        viewers: new Set(),
      };
      this.#entities.set(key, entity);
      this.markDirty();
    }
    return entity;
  }

  /** Removes and returns the block entity at `pos` (its block is gone). */
  remove(world: SquidWorld, pos: Position): BlockEntity | undefined {
    const key = this.#key(this.dimensionOf(world), pos);
    const entity = this.#entities.get(key);
    if (entity) {
      this.#entities.delete(key);
      this.markDirty();
    }
    return entity;
  }

  /** Every block entity (e.g. for ticking furnaces). */
  all(): IterableIterator<BlockEntity> {
    return this.#entities.values();
  }

  /** Schedules a save (no-op without a file). */
  markDirty(): void {
    if (!this.#file || this.#saveTimer) return;
    this.#saveTimer = setTimeout(() => {
      this.#saveTimer = undefined;
      try {
        this.flush();
      } catch (err) {
        this.#serv.emit('error', err);
      }
    }, SAVE_DELAY_MS);
    this.#saveTimer.unref();
  }

  /**
   * Writes the store to its file now (atomically: a temporary file, then a rename).
   *
   * @throws Error when the file cannot be written.
   */
  flush(): void {
    if (this.#saveTimer) {
      clearTimeout(this.#saveTimer);
      this.#saveTimer = undefined;
    }
    if (!this.#file) return;
    const stored: StoredEntity[] = [];
    for (const e of this.#entities.values()) {
      const items: StoredItem[] = [];
      e.slots.forEach((item, slot) => {
        if (item && countOf(item) > 0) items.push(this.#storeItem(slot, item));
      });
      stored.push({ kind: e.kind, dimension: e.dimension, ...e.pos, items, data: e.data, ...(e.text ? { text: e.text } : {}) });
    }
    mkdirSync(path.dirname(this.#file), { recursive: true });
    const tmp = `${this.#file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ version: this.#serv.registry.version.minecraftVersion, entities: stored }));
    renameSync(tmp, this.#file);
  }

  #storeItem(slot: number, item: Item): StoredItem {
    const name = this.#serv.registry.items[item.type]?.name ?? String(item.type);
    const out: StoredItem = { slot, name, count: countOf(item) };
    const components = (item as Item & { components?: unknown[] }).components;
    if (Array.isArray(components) && components.length > 0) {
      // Components hold NBT; BigInt values (longs) do not survive JSON: keep those items bare.
      try {
        out.components = JSON.parse(JSON.stringify(components));
      } catch {
        /* dropped */
      }
    }
    return out;
  }

  #load(file: string): void {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { entities?: StoredEntity[] };
    if (!Array.isArray(parsed.entities)) throw new Error(`${file}: not a block entity store (no "entities" array)`);
    for (const s of parsed.entities) {
      const size = slotCountOf(s.kind);
      if (size === 0 && !s.text) continue;
      const slots = new Array<Slot>(size).fill(null);
      for (const stored of s.items) {
        const info = this.#serv.registry.itemsByName[stored.name];
        if (!info || stored.slot < 0 || stored.slot >= size) continue; // unknown in this version
        const item: Item & { components?: unknown } = new this.#Item(info.id, stored.count);
        if (stored.components) item.components = stored.components;
        item.slot = stored.slot;
        slots[stored.slot] = item;
      }
      const pos = { x: s.x, y: s.y, z: s.z };
      const entity: BlockEntity = { kind: s.kind, dimension: s.dimension, pos, slots, data: s.data ?? {}, viewers: new Set() };
      if (s.text) entity.text = s.text;
      this.#entities.set(this.#key(s.dimension, pos), entity);
    }
  }
}

/** Slot counts of the block entities we know (vanilla), 0 for anything else. */
const SLOT_COUNTS: Record<string, number> = {
  chest: 27,
  trapped_chest: 27,
  barrel: 27,
  furnace: 3,
  smoker: 3,
  blast_furnace: 3,
};

/** Number of slots of a block entity kind (a chest half has 27; a furnace 3), 0 when unknown. */
export function slotCountOf(kind: string): number {
  return SLOT_COUNTS[kind] ?? 0;
}

const stores = new WeakMap<SquidServer, BlockEntityStore>();

/**
 * The block-entity store of a server, created (and loaded from `serv.worldFolder`, set by
 * `startEmbeddedServer`) on first use. It is saved when the server emits `close`.
 */
export function blockEntities(serv: SquidServer): BlockEntityStore {
  let store = stores.get(serv);
  if (!store) {
    const folder = serv.worldFolder;
    const created = new BlockEntityStore(serv, folder ? path.join(folder, BLOCK_ENTITY_FILE) : undefined);
    serv.on('close', () => {
      try {
        created.flush();
      } catch (err) {
        serv.err(`saving block entities: ${String(err)}`);
      }
    });
    stores.set(serv, created);
    store = created;
  }
  return store;
}

/**
 * The block entity of the container or furnace block at `position` (created empty if it has
 * none yet), or undefined when the block there has no block entity with slots.
 */
export async function blockEntityAt(serv: SquidServer, world: SquidWorld, position: Vec3): Promise<BlockEntity | undefined> {
  const block = await world.getBlock(position);
  const size = block ? slotCountOf(block.name) : 0;
  return size > 0 ? blockEntities(serv).getOrCreate(world, position, block.name, size) : undefined;
}

/** Re-sends changed slots to every viewer of `entities` except `except` (who is already synced). */
export function syncViewers(entities: BlockEntity[], except?: InventorySession): void {
  const seen = new Set<InventorySession>();
  for (const e of entities) {
    for (const viewer of e.viewers) {
      if (viewer === except || seen.has(viewer)) continue;
      seen.add(viewer);
      broadcastChanges(viewer);
    }
  }
}

/** Removes every block entity (furnace and chest contents), as a fresh world has none (the warm world's reset). */
export function removeBlockEntities(serv: SquidServer): void {
  const store = blockEntities(serv);
  for (const entity of [...store.all()]) store.remove(store.worldOf(entity.dimension), entity.pos);
}
