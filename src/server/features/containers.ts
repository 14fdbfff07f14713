/**
 * Storage containers for the embedded server, as vanilla 1.21 (Java Edition) behaves to a
 * client: chests (single, and two adjacent chests of the same facing joined into a 54-slot
 * double chest), trapped chests and barrels.
 *
 * - Placing: a chest faces the player and joins a single chest beside it that faces the same
 *   way (vanilla `ChestBlock.getStateForPlacement`: the new half is `left` when its partner is
 *   clockwise of its facing, `right` when counter-clockwise; the partner takes the other type).
 *   A barrel faces away from the direction the player looks in, up and down included.
 * - Opening (use on the block, not while sneaking): a `generic_9x3` window (`generic_9x6` for
 *   a double chest, the `right` half's slots first), handled by the click simulation of
 *   ./clicks.ts; every viewer of the same storage is kept in sync.
 * - Breaking: the contents fall out as item entities (vanilla `Containers.dropContents`), open
 *   windows on it close, and the other half of a double chest becomes a single chest.
 * - Storage lives in ./block-entities.ts (persisted with a world folder).
 *
 * Game facts (block states, slot counts of window types) come from minecraft-data via
 * `serv.registry` and prismarine-windows; behaviour from the vanilla classes named above.
 */
import { createRequire } from 'node:module';
import type { Item } from 'prismarine-item';
import type { SquidServer } from '../embedded.ts';
import type { BlockBrokenEvent } from './digging.ts';
import { blockEntities, slotCountOf, type BlockEntity, type BlockPos } from './block-entities.ts';
import { spawnItemEntity, TICKS_PER_SECOND } from './drops.ts';
import { closeContainer, inventorySession, openMenu } from './inventory.ts';
import { broadcastChanges, countOf, createStorageMenu, withCount, type InventorySession, type Menu, type Slot, type SquidPlayer } from './menus.ts';

const require = createRequire(import.meta.url);

/** Player eye height while standing, in blocks (vanilla 1.62). */
const PLAYER_EYE_HEIGHT = 1.62;
/** Chest kinds that form double chests (a chest only joins the same kind). */
const CHEST_KINDS = ['chest', 'trapped_chest'] as const;
/** Window titles as vanilla shows them (`container.chest`, `container.chestDouble`, `container.barrel`). */
const TITLES: Record<string, string> = { chest: 'Chest', trapped_chest: 'Chest', barrel: 'Barrel' };
const DOUBLE_CHEST_TITLE = 'Large Chest';

export type Direction = 'north' | 'south' | 'west' | 'east' | 'up' | 'down';
type Horizontal = 'north' | 'south' | 'west' | 'east';

/** Unit offsets of the six directions, in blocks. */
export const DIRECTION_OFFSETS: Record<Direction, BlockPos> = {
  north: { x: 0, y: 0, z: -1 }, south: { x: 0, y: 0, z: 1 },
  west: { x: -1, y: 0, z: 0 }, east: { x: 1, y: 0, z: 0 },
  up: { x: 0, y: 1, z: 0 }, down: { x: 0, y: -1, z: 0 },
};
/** The opposite of each direction. */
export const OPPOSITE_DIRECTION: Record<Direction, Direction> = { north: 'south', south: 'north', west: 'east', east: 'west', up: 'down', down: 'up' };
/** vanilla Direction.getClockWise (seen from above). */
const CLOCKWISE: Record<Horizontal, Horizontal> = { north: 'east', east: 'south', south: 'west', west: 'north' };
const COUNTER_CLOCKWISE: Record<Horizontal, Horizontal> = { north: 'west', west: 'south', south: 'east', east: 'north' };

function offset(pos: BlockPos, d: Direction): BlockPos {
  const o = DIRECTION_OFFSETS[d];
  return { x: pos.x + o.x, y: pos.y + o.y, z: pos.z + o.z };
}

/**
 * The direction a player looks in when placing a block at `placed`, taken from their eyes to
 * the block's centre (the look ray of a placement ends on that block's face): the dominant
 * axis, horizontal only or with up/down (vanilla `getHorizontalDirection` /
 * `getNearestLookingDirection`).
 */
export function placementLookDirection(player: SquidPlayer, placed: BlockPos, horizontalOnly: boolean): Direction {
  const dx = placed.x + 0.5 - player.position.x;
  const dy = placed.y + 0.5 - (player.position.y + PLAYER_EYE_HEIGHT);
  const dz = placed.z + 0.5 - player.position.z;
  if (!horizontalOnly && Math.abs(dy) > Math.abs(dx) && Math.abs(dy) > Math.abs(dz)) return dy > 0 ? 'up' : 'down';
  if (Math.abs(dx) > Math.abs(dz)) return dx > 0 ? 'east' : 'west';
  return dz > 0 ? 'south' : 'north';
}

/** The `{id, data}` flying-squid's placeItem expects for a block state given by properties. */
export function placedState(serv: SquidServer, name: string, properties: Record<string, string | boolean>): { id: number; data: number } {
  const Block = require('prismarine-block')(serv.registry);
  const info = serv.registry.blocksByName[name];
  const block = Block.fromProperties(name, properties, 0);
  return { id: info.id, data: block.stateId - info.minStateId };
}

/** Writes a block state (by properties) to the world and shows it to players. */
export async function setBlockState(serv: SquidServer, world: unknown, pos: BlockPos, name: string, properties: Record<string, string | number | boolean>): Promise<void> {
  const Block = require('prismarine-block')(serv.registry);
  const { Vec3 } = require('vec3');
  await serv.setBlock(world, new Vec3(pos.x, pos.y, pos.z), Block.fromProperties(name, properties, 0).stateId);
}

interface WorldBlock { name: string; getProperties(): Record<string, string | number | boolean> }
/** A flying-squid (prismarine-world) world, as far as we read it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SquidWorld = any;

async function blockAt(world: SquidWorld, pos: BlockPos): Promise<WorldBlock> {
  const { Vec3 } = require('vec3');
  return world.getBlock(new Vec3(pos.x, pos.y, pos.z));
}

/** A chest block's facing and type, or null when the block is not a chest of `kind`. */
function chestState(block: WorldBlock | null, kind: string): { facing: Horizontal; type: 'single' | 'left' | 'right'; waterlogged: boolean } | null {
  if (!block || block.name !== kind) return null;
  const p = block.getProperties();
  return { facing: p.facing as Horizontal, type: p.type as 'single' | 'left' | 'right', waterlogged: p.waterlogged === true || p.waterlogged === 'true' };
}

/** vanilla ChestBlock.getConnectedDirection: where the other half of a `left`/`right` chest is. */
function connectedDirection(state: { facing: Horizontal; type: string }): Horizontal {
  return state.type === 'left' ? CLOCKWISE[state.facing] : COUNTER_CLOCKWISE[state.facing];
}

/**
 * The block positions holding a chest's storage, in window order: [pos] for a single chest,
 * [right half, left half] for a double chest whose partner is really there (same kind and
 * facing, opposite type).
 */
async function chestHalves(world: SquidWorld, pos: BlockPos, kind: string): Promise<BlockPos[]> {
  const state = chestState(await blockAt(world, pos), kind);
  if (!state || state.type === 'single') return [pos];
  const partnerPos = offset(pos, connectedDirection(state));
  const partner = chestState(await blockAt(world, partnerPos), kind);
  if (!partner || partner.facing !== state.facing || partner.type === state.type || partner.type === 'single') return [pos];
  return state.type === 'right' ? [pos, partnerPos] : [partnerPos, pos];
}

/**
 * Installs chests, trapped chests and barrels on a started server: placement states (through
 * flying-squid's `serv.onItemPlace`), opening (`serv.onBlockInteraction`; both dispatched by the
 * mechanics plugin's right-click handling), storage, and contents dropped when the mechanics
 * plugin reports the block broken (`'blockBroken'`). Must run after ./inventory.ts's plugin.
 */
export function containersPlugin(serv: SquidServer): void {
  const store = blockEntities(serv);
  for (const kind of CHEST_KINDS) {
    serv.onItemPlace(kind, async ({ player, placedPosition }: { player: SquidPlayer; placedPosition: BlockPos }) => {
      const facing = OPPOSITE_DIRECTION[placementLookDirection(player, placedPosition, true)] as Horizontal;
      let type: 'single' | 'left' | 'right' = 'single';
      // vanilla candidatePartnerFacing: a single chest of the same kind beside it, with its facing.
      const candidate = async (d: Horizontal): Promise<Horizontal | null> => {
        const s = chestState(await blockAt(player.world, offset(placedPosition, d)), kind);
        return s && s.type === 'single' ? s.facing : null;
      };
      if (!player.crouching) {
        if (facing === await candidate(CLOCKWISE[facing])) type = 'left';
        else if (facing === await candidate(COUNTER_CLOCKWISE[facing])) type = 'right';
      }
      if (type !== 'single') {
        // The partner's neighbour update (vanilla updateShape) makes it the other half.
        const partnerPos = offset(placedPosition, connectedDirection({ facing, type }));
        const partner = chestState(await blockAt(player.world, partnerPos), kind)!;
        await setBlockState(serv, player.world, partnerPos, kind, { facing, type: type === 'left' ? 'right' : 'left', waterlogged: partner.waterlogged });
      }
      return placedState(serv, kind, { facing, type, waterlogged: false });
    }, false);
    serv.onBlockInteraction(kind, async ({ block, player }: { block: { position: BlockPos }; player: SquidPlayer }) => {
      const session = inventorySession(player);
      if (!session || player.crouching) return false;
      const halves = await chestHalves(player.world, block.position, kind);
      const entities = halves.map((pos) => store.getOrCreate(player.world, pos, kind, slotCountOf(kind)));
      openStorage(serv, session, entities, halves.length === 2 ? DOUBLE_CHEST_TITLE : TITLES[kind]);
      return true;
    });
  }

  serv.onItemPlace('barrel', ({ player, placedPosition }: { player: SquidPlayer; placedPosition: BlockPos }) =>
    placedState(serv, 'barrel', { facing: OPPOSITE_DIRECTION[placementLookDirection(player, placedPosition, false)], open: false }), false);
  serv.onBlockInteraction('barrel', async ({ block, player }: { block: { position: BlockPos }; player: SquidPlayer }) => {
    const session = inventorySession(player);
    if (!session || player.crouching) return false;
    const entity = store.getOrCreate(player.world, block.position, 'barrel', slotCountOf('barrel'));
    const wasOpen = entity.viewers.size > 0;
    openStorage(serv, session, [entity], TITLES.barrel, () => {
      if (entity.viewers.size === 0) void setBarrelOpen(serv, entity, false).catch((err) => serv.emit('error', err));
    });
    // Awaited: the right-click handler re-sends this block afterwards, which must show it open.
    if (!wasOpen) await setBarrelOpen(serv, entity, true);
    return true;
  });

  // Digging belongs to the mechanics plugin (./digging.ts), which reports every broken block.
  serv.on('blockBroken', ({ player, position, block }: BlockBrokenEvent) => {
    void onContainerBroken(serv, player.world, position, block.name).catch((err) => serv.emit('error', err));
  });
}

/** Sets a barrel's `open` property (vanilla BarrelBlockEntity.updateBlockState), keeping its facing. */
async function setBarrelOpen(serv: SquidServer, entity: BlockEntity, open: boolean): Promise<void> {
  const world = blockEntities(serv).worldOf(entity.dimension);
  const block = await blockAt(world, entity.pos);
  if (block.name !== 'barrel') return;
  await setBlockState(serv, world, entity.pos, 'barrel', { ...block.getProperties(), open });
}

/**
 * Opens a window on the storage of one or two block entities (a double chest) for a player.
 *
 * @param onClosed called after the player closed it (and was removed from the viewers).
 */
function openStorage(serv: SquidServer, session: InventorySession, entities: BlockEntity[], title: string, onClosed?: () => void): Menu {
  const size = entities.length * 27;
  const windowType = entities.length === 2 ? 'minecraft:generic_9x6' : 'minecraft:generic_9x3';
  const locate = (slot: number): [BlockEntity, number] => [entities[Math.floor(slot / 27)], slot % 27];
  const store = blockEntities(serv);
  const menu = openMenu(session, (id) => createStorageMenu(session.player, id, 'container', {
    size,
    get: (slot) => { const [e, i] = locate(slot); return e.slots[i] ?? null; },
    set: (slot, item) => { const [e, i] = locate(slot); if (item) item.slot = i; e.slots[i] = item; },
  }, {
    // vanilla ChestMenu.quickMoveStack: container → inventory from the end, inventory → container.
    quickMoveTargets: (slot) => (slot < size ? [[size, size + 36, true]] : [[0, size, false]]),
    onChanged: (by) => {
      store.markDirty();
      syncViewers(entities, by);
    },
    onClose: (by) => {
      for (const e of entities) e.viewers.delete(by);
      onClosed?.();
    },
  }), windowType, title);
  // After openMenu: it closes the previous window first, which may be on the same storage.
  for (const e of entities) e.viewers.add(session);
  return menu;
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

/**
 * Drops `stacks` around a block as vanilla `Containers.dropItemStack` does: each stack in
 * random pieces of 10–30 items, from random points inside the block, with a small random push
 * (up by about 0.2 blocks/tick).
 */
export function dropContents(serv: SquidServer, world: unknown, pos: BlockPos, stacks: Slot[]): void {
  const Item = require('prismarine-item')(serv.registry);
  const triangle = (mode: number, deviation: number): number => mode + deviation * (Math.random() - Math.random());
  for (const stack of stacks) {
    let left = countOf(stack);
    while (stack && left > 0) {
      const n = Math.min(left, 10 + Math.floor(Math.random() * 21));
      left -= n;
      const perTick = { x: triangle(0, 0.11485), y: triangle(0.2, 0.11485), z: triangle(0, 0.11485) };
      spawnItemEntity(serv, {
        world,
        position: { x: pos.x + 0.125 + Math.random() * 0.75, y: pos.y + 0.125 + Math.random() * 0.75, z: pos.z + 0.125 + Math.random() * 0.75 },
        velocity: { x: perTick.x * TICKS_PER_SECOND, y: perTick.y * TICKS_PER_SECOND, z: perTick.z * TICKS_PER_SECOND },
        item: withCount(Item, stack as Item, n),
        pickupDelayTicks: 10,
      });
    }
  }
}

/**
 * After a block was broken: if it held a block entity (any kind: furnaces too), drops its contents, closes windows open on
 * it, forgets it, and turns the other half of a double chest into a single chest.
 */
async function onContainerBroken(serv: SquidServer, world: SquidWorld, pos: BlockPos, name: string): Promise<void> {
  const store = blockEntities(serv);
  const entity = store.get(world, pos);
  if (entity) {
    for (const viewer of [...entity.viewers]) closeContainer(viewer);
    store.remove(world, pos);
    dropContents(serv, world, pos, entity.slots);
  }
  if ((CHEST_KINDS as readonly string[]).includes(name)) {
    for (const d of ['north', 'south', 'west', 'east'] as Horizontal[]) {
      const partnerPos = offset(pos, d);
      const partner = chestState(await blockAt(world, partnerPos), name);
      if (partner && partner.type !== 'single' && connectedDirection(partner) === OPPOSITE_DIRECTION[d]) {
        await setBlockState(serv, world, partnerPos, name, { facing: partner.facing, type: 'single', waterlogged: partner.waterlogged });
      }
    }
  }
}
