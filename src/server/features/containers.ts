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
 *   a double chest, the `right` half's slots first), handled by the inventory service's click
 *   simulation; every viewer of the same storage is kept in sync.
 * - Breaking: the contents fall out as item entities (vanilla `Containers.dropContents`), open
 *   windows on it close, and the other half of a double chest becomes a single chest.
 * - Storage lives in the block-entity service (persisted with a world folder); the contents of
 *   any broken block entity (furnaces too) are dropped here.
 *
 * Game facts (block states, slot counts of window types) come from minecraft-data via
 * `serv.registry` and prismarine-windows; behaviour from the vanilla classes named above.
 */
import { Vec3 } from 'vec3';
import type { SquidServer, SquidWorld } from '../types.ts';
import { blockEntities, slotCountOf, syncViewers, type BlockEntity } from '../services/block-entities.ts';
import { blockAt, isTrue, placedState, setBlockState } from '../services/blocks.ts';
import { dropContents } from '../services/drops.ts';
import {
  CLOCKWISE,
  COUNTER_CLOCKWISE,
  HORIZONTALS,
  OPPOSITE,
  OPPOSITE_HORIZONTAL,
  lookDirectionTo,
  offset,
  type Horizontal,
  type Position,
} from '../services/geometry.ts';
import { closeContainer, inventorySession, openMenu } from '../services/inventory.ts';
import { createStorageMenu, type InventorySession, type Menu } from '../services/menus.ts';

/** Chest kinds that form double chests (a chest only joins the same kind). */
const CHEST_KINDS = ['chest', 'trapped_chest'] as const;
/** Window titles as vanilla shows them (`container.chest`, `container.chestDouble`, `container.barrel`). */
const TITLES: Record<string, string> = { chest: 'Chest', trapped_chest: 'Chest', barrel: 'Barrel' };
const DOUBLE_CHEST_TITLE = 'Large Chest';

type ChestType = 'single' | 'left' | 'right';
interface ChestState {
  facing: Horizontal;
  type: ChestType;
  waterlogged: boolean;
}

/** A chest block's facing and type, or null when the block is not a chest of `kind`. */
function chestState(
  block: { name: string; getProperties(): Record<string, string | number | boolean> } | null,
  kind: string,
): ChestState | null {
  if (!block || block.name !== kind) return null;
  const p = block.getProperties();
  return { facing: p.facing as Horizontal, type: p.type as ChestType, waterlogged: isTrue(p.waterlogged) };
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
async function chestHalves(world: SquidWorld, pos: Position, kind: string): Promise<Position[]> {
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
 * placing feature's right-click handling), storage, and the contents of any broken block entity
 * dropped when the digging feature reports the block broken (`'blockBroken'`).
 */
export function installContainers(serv: SquidServer): void {
  const store = blockEntities(serv);
  for (const kind of CHEST_KINDS) {
    serv.onItemPlace(
      kind,
      async ({ player, placedPosition }) => {
        const facing = OPPOSITE_HORIZONTAL[lookDirectionTo(player.position, placedPosition, true) as Horizontal];
        let type: ChestType = 'single';
        // vanilla candidatePartnerFacing: a single chest of the same kind beside it, with its facing.
        const candidate = async (d: Horizontal): Promise<Horizontal | null> => {
          const s = chestState(await blockAt(player.world, offset(placedPosition, d)), kind);
          return s && s.type === 'single' ? s.facing : null;
        };
        if (!player.crouching) {
          if (facing === (await candidate(CLOCKWISE[facing]))) type = 'left';
          else if (facing === (await candidate(COUNTER_CLOCKWISE[facing]))) type = 'right';
        }
        if (type !== 'single') {
          // The partner's neighbour update (vanilla updateShape) makes it the other half.
          const partnerPos = offset(placedPosition, connectedDirection({ facing, type }));
          const partner = chestState(await blockAt(player.world, partnerPos), kind)!;
          await setBlockState(serv, player.world, partnerPos, kind, {
            facing,
            type: type === 'left' ? 'right' : 'left',
            waterlogged: partner.waterlogged,
          });
        }
        return placedState(serv, kind, { facing, type, waterlogged: false });
      },
      false,
    );
    serv.onBlockInteraction(kind, async ({ block, player }) => {
      const session = inventorySession(player);
      if (!session || player.crouching) return false;
      const halves = await chestHalves(player.world, block.position, kind);
      const entities = halves.map((pos) => store.getOrCreate(player.world, pos, kind, slotCountOf(kind)));
      openStorage(serv, session, entities, halves.length === 2 ? DOUBLE_CHEST_TITLE : TITLES[kind]!, () => sendLid(serv, entities, false));
      sendLid(serv, entities, true);
      return true;
    });
  }

  serv.onItemPlace(
    'barrel',
    ({ player, placedPosition }) =>
      placedState(serv, 'barrel', { facing: OPPOSITE[lookDirectionTo(player.position, placedPosition, false)], open: false }),
    false,
  );
  serv.onBlockInteraction('barrel', async ({ block, player }) => {
    const session = inventorySession(player);
    if (!session || player.crouching) return false;
    const entity = store.getOrCreate(player.world, block.position, 'barrel', slotCountOf('barrel'));
    const wasOpen = entity.viewers.size > 0;
    openStorage(serv, session, [entity], TITLES.barrel!, () => {
      if (entity.viewers.size === 0) void setBarrelOpen(serv, entity, false).catch((err: unknown) => serv.emit('error', err));
    });
    // Awaited: the right-click handler re-sends this block afterwards, which must show it open.
    if (!wasOpen) await setBarrelOpen(serv, entity, true);
    return true;
  });

  serv.on('blockBroken', ({ player, position, block }) => {
    void onContainerBroken(serv, player.world, position, block.name).catch((err: unknown) => serv.emit('error', err));
  });
}

/** vanilla `ChestBlockEntity`: block event 1 carries the number of players with the chest open. */
const CHEST_LID_EVENT = 1;

/**
 * Tells the players in the chest's world how many have it open (vanilla `ChestBlockEntity`
 * `signalOpenCount` → `block_action` 1, which moves the lid; mineflayer `chestLidMove`), for each
 * half, and plays vanilla's open or close sound when the first opens or the last closes.
 */
function sendLid(serv: SquidServer, entities: BlockEntity[], opening: boolean): void {
  const store = blockEntities(serv);
  for (const entity of entities) {
    const world = store.worldOf(entity.dimension);
    const blockId = serv.registry.blocksByName[entity.kind]?.id;
    if (blockId === undefined) continue;
    const location = { x: entity.pos.x, y: entity.pos.y, z: entity.pos.z };
    serv._writeArray(
      'block_action',
      { location, byte1: CHEST_LID_EVENT, byte2: entity.viewers.size, blockId },
      serv.players.filter((p) => p.world === world),
    );
  }
  const first = entities[0];
  const count = first?.viewers.size ?? 0;
  if (first && (opening ? count === 1 : count === 0)) {
    const centre = new Vec3(first.pos.x + 0.5, first.pos.y + 0.5, first.pos.z + 0.5);
    // vanilla ChestBlockEntity.playSound: volume 0.5, pitch 0.9–1.0.
    serv.playSound?.(opening ? 'block.chest.open' : 'block.chest.close', store.worldOf(first.dimension), centre, {
      volume: 0.5,
      pitch: 0.9 + Math.random() * 0.1,
      soundCategory: 'block',
    });
  }
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
  const locate = (slot: number): [BlockEntity, number] => [entities[Math.floor(slot / 27)]!, slot % 27];
  const store = blockEntities(serv);
  const menu = openMenu(
    session,
    (id) =>
      createStorageMenu(
        session.player,
        id,
        'container',
        {
          size,
          get: (slot) => {
            const [e, i] = locate(slot);
            return e.slots[i] ?? null;
          },
          set: (slot, item) => {
            const [e, i] = locate(slot);
            if (item) item.slot = i;
            e.slots[i] = item;
          },
        },
        {
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
        },
      ),
    windowType,
    title,
  );
  // After openMenu: it closes the previous window first, which may be on the same storage.
  for (const e of entities) e.viewers.add(session);
  return menu;
}

/**
 * After a block was broken: if it held a block entity (any kind: furnaces too), drops its
 * contents, closes windows open on it, forgets it, and turns the other half of a double chest
 * into a single chest.
 */
async function onContainerBroken(serv: SquidServer, world: SquidWorld, pos: Position, name: string): Promise<void> {
  const store = blockEntities(serv);
  const entity = store.get(world, pos);
  if (entity) {
    for (const viewer of [...entity.viewers]) closeContainer(viewer);
    store.remove(world, pos);
    dropContents(serv, world, pos, entity.slots);
  }
  if ((CHEST_KINDS as readonly string[]).includes(name)) {
    for (const d of HORIZONTALS) {
      const partnerPos = offset(pos, d);
      const partner = chestState(await blockAt(world, partnerPos), name);
      if (partner && partner.type !== 'single' && connectedDirection(partner) === OPPOSITE[d]) {
        await setBlockState(serv, world, partnerPos, name, { facing: partner.facing, type: 'single', waterlogged: partner.waterlogged });
      }
    }
  }
}
