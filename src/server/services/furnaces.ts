/**
 * The state of furnace-like block entities (furnace, smoker, blast furnace), as vanilla 1.21
 * `AbstractFurnaceBlockEntity` keeps it: slot layout, burn and cook numbers in ticks, their NBT
 * under each version's key names, and the block's `lit` state. The smelting feature ticks them;
 * commands read and write them as NBT.
 */
import { FURNACE_KINDS, smeltingTableFor } from '../../game/smelting.ts';
import type { SquidServer } from '../types.ts';
import { blockEntities, type BlockEntity } from './block-entities.ts';
import { blockAt, setBlockState } from './blocks.ts';

/** vanilla AbstractFurnaceBlockEntity: cooking time when the input has no recipe, in ticks. */
export const DEFAULT_COOKING_TIME = 200;
/** Slots of a furnace-like block entity and of its window (protocol). */
export const FURNACE_SLOTS = { input: 0, fuel: 1, result: 2, inventoryStart: 3, hotbarStart: 30, end: 39 } as const;

/** Numeric state of a furnace block entity (vanilla field names), all in ticks. */
export interface FurnaceData {
  litTime: number;
  litDuration: number;
  cookingProgress: number;
  cookingTotalTime: number;
  /** Item id last seen in the input slot (-1 = empty): a different item restarts cooking. */
  inputType: number;
}

/** A furnace block entity's numbers (stored in `entity.data`), with vanilla's defaults filled in. */
export function furnaceData(entity: BlockEntity): FurnaceData {
  const d = entity.data;
  d.litTime ??= 0;
  d.litDuration ??= 0;
  d.cookingProgress ??= 0;
  d.cookingTotalTime ??= DEFAULT_COOKING_TIME;
  d.inputType ??= -1;
  return d as unknown as FurnaceData;
}

/**
 * A furnace's block-entity NBT key names by version. 1.21.4 renamed them (and saves the fuel's
 * total burn time, which 1.21.1 recomputed from the fuel slot); commands accept both sets.
 */
const FURNACE_NBT_KEYS = {
  current: {
    litTime: 'lit_time_remaining',
    litDuration: 'lit_total_time',
    cookingProgress: 'cooking_time_spent',
    cookingTotalTime: 'cooking_total_time',
  },
  legacy: { litTime: 'BurnTime', litDuration: undefined, cookingProgress: 'CookTime', cookingTotalTime: 'CookTimeTotal' },
} as const;

function nbtKeysFor(serv: SquidServer): (typeof FURNACE_NBT_KEYS)[keyof typeof FURNACE_NBT_KEYS] {
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
  if (wasLit !== d.litTime > 0) void setFurnaceLit(serv, entity, d.litTime > 0).catch((err: unknown) => serv.emit('error', err));
}

/** Sets a furnace-like block's `lit` property (keeping its facing) if the block is still there. */
export async function setFurnaceLit(serv: SquidServer, entity: BlockEntity, lit: boolean): Promise<void> {
  const world = blockEntities(serv).worldOf(entity.dimension);
  const block = await blockAt(world, entity.pos);
  if (block.name !== entity.kind) return;
  await setBlockState(serv, world, entity.pos, entity.kind, { ...block.getProperties(), lit });
}
