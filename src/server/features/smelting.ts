/**
 * Furnaces, smokers and blast furnaces for the embedded server, following vanilla 1.21
 * `AbstractFurnaceBlockEntity.serverTick` and `AbstractFurnaceMenu`:
 *
 * - Slots: 0 input, 1 fuel (fuel items and empty buckets only), 2 result (take only), then the
 *   player's inventory (3–29) and hotbar (30–38). Shift-click sends smeltable items to the
 *   input, fuel to the fuel slot.
 * - Every server tick (20 per second), whether or not anyone has the window open: a burning
 *   furnace burns down one tick; an unlit one with fuel lights only when its input has a
 *   recipe of its type and the result fits; cooking advances one tick per lit tick and, at
 *   the recipe's cooking time (200 ticks; 100 in smokers and blast furnaces), moves one result
 *   into the result slot. Unlit, the progress falls back 2 ticks per tick. The block's `lit`
 *   state follows.
 * - A furnace only uses recipes of its type (minecraft:smelting / smoking / blasting): a smoker
 *   cooks food only, a blast furnace ores, raw metal and metal gear only. Smokers and blast
 *   furnaces burn fuel twice as fast (half the burn ticks).
 * - Window properties (`craft_progress_bar`) 0 fuel ticks left, 1 burn ticks of the last fuel,
 *   2 cooking progress, 3 total cooking time, all in ticks, sent whenever they change.
 *
 * minecraft-data has no smelting recipes or fuel values; they come from src/game/data/smelting.json
 * (vanilla 1.21.4 data, see src/game/smelting.ts). Contents persist and drop like chests
 * (./block-entities.ts, ./containers.ts). Experience from smelting is not awarded.
 */
import { createRequire } from 'node:module';
import type { Item } from 'prismarine-item';
import { FURNACE_KINDS, smeltingTableFor, type CookingRecipe, type CookingType } from '../../game/smelting.ts';
import type { SquidServer } from '../embedded.ts';
import { blockEntities, slotCountOf, type BlockEntity, type BlockPos } from './block-entities.ts';
import { OPPOSITE_DIRECTION, placedState, placementLookDirection, setBlockState, syncViewers } from './containers.ts';
import { inventorySession, openMenu } from './inventory.ts';
import { countOf, createStorageMenu, maxStack, sameItem, type InventorySession, type SquidPlayer } from './menus.ts';

const require = createRequire(import.meta.url);

/** vanilla AbstractFurnaceBlockEntity: cooking time when the input has no recipe, in ticks. */
const DEFAULT_COOKING_TIME = 200;
/** Slots of a furnace-like block entity and of its window (protocol). */
export const FURNACE_SLOTS = { input: 0, fuel: 1, result: 2, inventoryStart: 3, hotbarStart: 30, end: 39 } as const;

/** Numeric state of a furnace block entity (vanilla field names), all in ticks. */
interface FurnaceData {
  litTime: number;
  litDuration: number;
  cookingProgress: number;
  cookingTotalTime: number;
  /** Item id last seen in the input slot (-1 = empty): a different item restarts cooking. */
  inputType: number;
}

function furnaceData(entity: BlockEntity): FurnaceData {
  const d = entity.data;
  d.litTime ??= 0; d.litDuration ??= 0; d.cookingProgress ??= 0;
  d.cookingTotalTime ??= DEFAULT_COOKING_TIME; d.inputType ??= -1;
  return d as unknown as FurnaceData;
}

/**
 * A furnace's block-entity NBT key names by version. 1.21.4 renamed them (and saves the fuel's
 * total burn time, which 1.21.1 recomputed from the fuel slot); commands accept both sets.
 */
const FURNACE_NBT_KEYS = {
  current: { litTime: 'lit_time_remaining', litDuration: 'lit_total_time', cookingProgress: 'cooking_time_spent', cookingTotalTime: 'cooking_total_time' },
  legacy: { litTime: 'BurnTime', litDuration: undefined, cookingProgress: 'CookTime', cookingTotalTime: 'CookTimeTotal' },
} as const;

function nbtKeysFor(serv: SquidServer): typeof FURNACE_NBT_KEYS[keyof typeof FURNACE_NBT_KEYS] {
  return serv.registry.version['>=']('1.21.4') ? FURNACE_NBT_KEYS.current : FURNACE_NBT_KEYS.legacy;
}

/**
 * The burn and cook state of a furnace-like block entity as vanilla's block-entity NBT of the
 * server's version (`/data get block`), in ticks: 1.21.4 `lit_time_remaining`,
 * `lit_total_time`, `cooking_time_spent`, `cooking_total_time`; 1.21.1 `BurnTime`, `CookTime`,
 * `CookTimeTotal`. The items are not included.
 */
export function furnaceNbt(serv: SquidServer, entity: BlockEntity): Record<string, number> {
  const d = furnaceData(entity);
  const out: Record<string, number> = {};
  for (const [field, key] of Object.entries(nbtKeysFor(serv))) {
    if (key) out[key] = d[field as keyof FurnaceData];
  }
  return out;
}

/**
 * Loads burn and cook state into a furnace-like block entity from NBT, as `/data merge block`:
 * both vanilla 1.21.4's keys (`lit_time_remaining`, `lit_total_time`, `cooking_time_spent`,
 * `cooking_total_time`) and the older ones (`BurnTime`, `CookTime`, `CookTimeTotal`) are read,
 * on every version. Call it after the slots were changed: an input of another item first
 * restarts cooking with its recipe's time (vanilla `setItem(0)`), then the given numbers apply.
 * A remaining burn time longer than the fuel's total raises the total with it (the fuel bar
 * shows the fraction). The block's `lit` state follows at once.
 */
export function applyFurnaceNbt(serv: SquidServer, entity: BlockEntity, nbt: Record<string, unknown>): void {
  const spec = FURNACE_KINDS[entity.kind];
  if (!spec) return;
  const d = furnaceData(entity);
  const wasLit = d.litTime > 0;
  const input = entity.slots[FURNACE_SLOTS.input];
  if ((input?.type ?? -1) !== d.inputType) {
    d.inputType = input?.type ?? -1;
    d.cookingProgress = 0;
    d.cookingTotalTime = (input && smeltingTableFor(serv.registry).recipes[spec.type].get(input.type)?.cookingTime) || DEFAULT_COOKING_TIME;
  }
  const ticks = (field: keyof typeof FURNACE_NBT_KEYS.current): number | undefined => {
    for (const key of [FURNACE_NBT_KEYS.current[field], FURNACE_NBT_KEYS.legacy[field]]) {
      const value = key === undefined ? undefined : nbt[key];
      if (typeof value === 'number' && Number.isFinite(value)) return Math.max(0, Math.floor(value));
    }
    return undefined;
  };
  const litTime = ticks('litTime');
  const litDuration = ticks('litDuration');
  const cookingProgress = ticks('cookingProgress');
  const cookingTotalTime = ticks('cookingTotalTime');
  if (litTime !== undefined) d.litTime = litTime;
  if (litDuration !== undefined) d.litDuration = litDuration;
  else if (d.litTime > d.litDuration) d.litDuration = d.litTime;
  if (cookingProgress !== undefined) d.cookingProgress = cookingProgress;
  if (cookingTotalTime !== undefined) d.cookingTotalTime = cookingTotalTime;
  if (wasLit !== d.litTime > 0) void setFurnaceLit(serv, entity, d.litTime > 0).catch((err) => serv.emit('error', err));
}

/** Sets a furnace-like block's `lit` property (keeping its facing) if the block is still there. */
async function setFurnaceLit(serv: SquidServer, entity: BlockEntity, lit: boolean): Promise<void> {
  const { Vec3 } = require('vec3');
  const world = blockEntities(serv).worldOf(entity.dimension) as { getBlock(p: unknown): Promise<{ name: string; getProperties(): Record<string, string | number | boolean> }> };
  const block = await world.getBlock(new Vec3(entity.pos.x, entity.pos.y, entity.pos.z));
  if (block.name !== entity.kind) return;
  await setBlockState(serv, world, entity.pos, entity.kind, { ...block.getProperties(), lit });
}

/** The property values a viewer was last sent, per session. */
const sentProperties = new WeakMap<InventorySession, number[]>();

/**
 * Installs furnaces, smokers and blast furnaces on a started server: placement facing the
 * player, the window, and the tick that smelts. Must run after ./inventory.ts's plugin.
 */
export function smeltingPlugin(serv: SquidServer): void {
  const store = blockEntities(serv);
  const table = smeltingTableFor(serv.registry);
  const Item = require('prismarine-item')(serv.registry);
  const bucket: number | undefined = serv.registry.itemsByName.bucket?.id;

  for (const [kind, spec] of Object.entries(FURNACE_KINDS)) {
    // vanilla AbstractFurnaceBlock.getStateForPlacement: the front faces the player.
    serv.onItemPlace(kind, ({ player, placedPosition }: { player: SquidPlayer; placedPosition: BlockPos }) =>
      placedState(serv, kind, { facing: OPPOSITE_DIRECTION[placementLookDirection(player, placedPosition, true)], lit: false }), false);
    serv.onBlockInteraction(kind, ({ block, player }: { block: { position: BlockPos }; player: SquidPlayer }) => {
      const session = inventorySession(player);
      if (!session || player.crouching) return false;
      const entity = store.getOrCreate(player.world, block.position, kind, slotCountOf(kind));
      openFurnace(session, entity, spec);
      return true;
    });
  }

  const recipeFor = (type: CookingType, item: Item | null): CookingRecipe | undefined => (item ? table.recipes[type].get(item.type) : undefined);

  function openFurnace(session: InventorySession, entity: BlockEntity, spec: typeof FURNACE_KINDS[string]): void {
    const isFuel = (item: Item): boolean => table.fuels.has(item.type) || item.type === bucket;
    openMenu(session, (id) => createStorageMenu(session.player, id, 'furnace', {
      size: 3,
      get: (slot) => entity.slots[slot] ?? null,
      set: (slot, item) => { if (item) item.slot = slot; entity.slots[slot] = item; },
    }, {
      // vanilla FurnaceFuelSlot / FurnaceResultSlot.
      mayPlace: (slot, item) => (slot === FURNACE_SLOTS.fuel ? isFuel(item) : slot !== FURNACE_SLOTS.result),
      quickMoveTargets: (slot, item) => {
        const { inventoryStart: inv, hotbarStart: hot, end } = FURNACE_SLOTS;
        if (slot === FURNACE_SLOTS.result) return [[inv, end, true]];
        if (slot < inv) return [[inv, end, false]];
        if (recipeFor(spec.type, item)) return [[FURNACE_SLOTS.input, FURNACE_SLOTS.input + 1, false]];
        if (isFuel(item)) return [[FURNACE_SLOTS.fuel, FURNACE_SLOTS.fuel + 1, false]];
        return slot < hot ? [[hot, end, false]] : [[inv, hot, false]];
      },
      onChanged: (by) => { store.markDirty(); syncViewers([entity], by); },
      onClose: (by) => { entity.viewers.delete(by); sentProperties.delete(by); },
    }), spec.window, spec.title);
    entity.viewers.add(session);
    // All four properties go out with the next tick's update, not with the window: mineflayer
    // listens for them only once its openFurnace has seen the window open.
    sentProperties.delete(session);
  }

  /** One vanilla serverTick of a furnace-like block entity; true when its slots changed. */
  function tick(entity: BlockEntity): boolean {
    const spec = FURNACE_KINDS[entity.kind];
    const d = furnaceData(entity);
    const slots = entity.slots;
    const wasLit = d.litTime > 0;
    let changed = false;
    let input = slots[FURNACE_SLOTS.input];
    if ((input?.type ?? -1) !== d.inputType) {
      // vanilla setItem(0): a different input restarts cooking with its recipe's time.
      d.inputType = input?.type ?? -1;
      d.cookingProgress = 0;
      d.cookingTotalTime = recipeFor(spec.type, input)?.cookingTime ?? DEFAULT_COOKING_TIME;
    }
    if (d.litTime > 0) d.litTime--;
    const fuel = slots[FURNACE_SLOTS.fuel];
    if (d.litTime > 0 || (fuel && input)) {
      const recipe = recipeFor(spec.type, input);
      if (d.litTime <= 0 && canBurn(recipe, entity)) {
        const burn = fuel ? Math.floor((table.fuels.get(fuel.type)?.burnTicks ?? 0) / spec.burnDivisor) : 0;
        d.litTime = burn;
        d.litDuration = burn;
        if (burn > 0 && fuel) {
          changed = true;
          fuel.count = countOf(fuel) - 1;
          if (fuel.count <= 0) {
            const remainder = table.fuels.get(fuel.type)?.remainder;
            slots[FURNACE_SLOTS.fuel] = remainder === undefined ? null : new Item(remainder, 1);
          }
        }
      }
      if (d.litTime > 0 && recipe && canBurn(recipe, entity)) {
        d.cookingProgress++;
        if (d.cookingProgress >= d.cookingTotalTime) {
          d.cookingProgress = 0;
          d.cookingTotalTime = recipe.cookingTime;
          const output = slots[FURNACE_SLOTS.result];
          if (output) output.count = countOf(output) + 1;
          else slots[FURNACE_SLOTS.result] = new Item(recipe.result, 1);
          input = input!;
          input.count = countOf(input) - 1;
          if (input.count <= 0) { slots[FURNACE_SLOTS.input] = null; d.inputType = -1; }
          changed = true;
        }
      } else {
        d.cookingProgress = 0;
      }
    } else if (d.litTime <= 0 && d.cookingProgress > 0) {
      d.cookingProgress = Math.max(0, Math.min(d.cookingProgress - 2, d.cookingTotalTime));
    }
    if (wasLit !== d.litTime > 0) {
      void setFurnaceLit(serv, entity, d.litTime > 0).catch((err) => serv.emit('error', err));
      changed = true;
    }
    return changed;
  }

  /** vanilla canBurn: a recipe for the input, and room for one more result in the result slot. */
  function canBurn(recipe: CookingRecipe | undefined, entity: BlockEntity): boolean {
    if (!recipe || !entity.slots[FURNACE_SLOTS.input]) return false;
    const output = entity.slots[FURNACE_SLOTS.result];
    if (!output) return true;
    const result = new Item(recipe.result, 1) as Item;
    return sameItem(Item, output, result) && countOf(output) < maxStack(serv, output);
  }

  serv.on('tick', () => {
    for (const entity of store.all()) {
      if (!FURNACE_KINDS[entity.kind]) continue;
      const before = JSON.stringify(entity.data);
      const slotsChanged = tick(entity);
      if (slotsChanged) syncViewers([entity]);
      if (slotsChanged || JSON.stringify(entity.data) !== before) store.markDirty();
      for (const viewer of entity.viewers) sendProperties(viewer, entity);
    }
  });
}

/** Sends the furnace window properties that changed since the last send (all of them after opening). */
function sendProperties(session: InventorySession, entity: BlockEntity): void {
  const menu = session.container;
  if (!menu || menu.kind !== 'furnace') return;
  const d = furnaceData(entity);
  const values = [d.litTime, d.litDuration, d.cookingProgress, d.cookingTotalTime];
  const previous = sentProperties.get(session);
  values.forEach((value, property) => {
    if (previous?.[property] === value) return;
    session.player._client.write('craft_progress_bar', { windowId: menu.id, property, value });
  });
  sentProperties.set(session, values);
}
