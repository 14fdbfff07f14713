/**
 * Block entities as vanilla NBT (what `/data get block` shows and `/data merge block` loads):
 * `id`, position, `Items`, and a furnace's burn and cook numbers. Changes made here are saved
 * with the store and shown at once to players who have the container open.
 */
import { FURNACE_KINDS } from '../../game/smelting.ts';
import type { SquidServer } from '../types.ts';
import { blockEntities, syncViewers, type BlockEntity } from './block-entities.ts';
import { applyFurnaceNbt, furnaceNbt } from './furnaces.ts';
import { countOf, itemClass, type Slot } from './items.ts';
import { isCompound, type NbtCompound } from './snbt.ts';

/** vanilla ItemStack codec: most items one stack may hold, whatever the item's own limit. */
const MAX_NBT_COUNT = 99;

/**
 * A block entity as vanilla NBT: `id`, `x`, `y`, `z`, `Items` (`[{Slot, id, count}]`, empty
 * slots left out) and, for furnace-like blocks, the burn and cook numbers in ticks under the
 * server version's key names.
 */
export function blockEntityNbt(serv: SquidServer, entity: BlockEntity): NbtCompound {
  const items: NbtCompound[] = [];
  entity.slots.forEach((item, slot) => {
    if (item && countOf(item) > 0)
      items.push({ Slot: slot, id: `minecraft:${serv.registry.items[item.type]?.name ?? item.type}`, count: countOf(item) });
  });
  return {
    id: `minecraft:${entity.kind}`,
    ...entity.pos,
    ...(FURNACE_KINDS[entity.kind] ? furnaceNbt(serv, entity) : {}),
    Items: items,
  };
}

/**
 * Loads NBT into a block entity, as vanilla loads a block entity after `/data merge`: an `Items`
 * list replaces all slots (entries with an unknown item id or a slot out of range are skipped,
 * `count` defaults to 1, the pre-1.20.5 `Count` is read too); furnace numbers go to
 * {@link applyFurnaceNbt}. Other keys are ignored. Viewers are updated and the store saved.
 */
export function loadBlockEntityNbt(serv: SquidServer, entity: BlockEntity, nbt: NbtCompound): void {
  if (Array.isArray(nbt.Items)) {
    const Item = itemClass(serv);
    const slots = new Array<Slot>(entity.slots.length).fill(null);
    for (const entry of nbt.Items) {
      if (!isCompound(entry)) continue;
      const slot = entry.Slot;
      const info = typeof entry.id === 'string' ? serv.registry.itemsByName[entry.id.replace(/^minecraft:/, '')] : undefined;
      const rawCount = entry.count ?? entry.Count ?? 1;
      const count = typeof rawCount === 'number' ? Math.min(Math.floor(rawCount), MAX_NBT_COUNT) : 0;
      if (typeof slot !== 'number' || slot < 0 || slot >= slots.length || !info || info.name === 'air' || count < 1) continue;
      const item = new Item(info.id, count);
      item.slot = slot;
      slots[slot] = item;
    }
    entity.slots.splice(0, entity.slots.length, ...slots);
  }
  if (FURNACE_KINDS[entity.kind]) applyFurnaceNbt(serv, entity, nbt);
  blockEntities(serv).markDirty();
  syncViewers([entity]);
}

/**
 * Sets one slot of a block entity (null empties it), as `/item replace block`; viewers are
 * updated and the store saved. A furnace notices a new input on its next tick.
 *
 * @throws RangeError when the block entity has no such slot.
 */
export function setBlockEntitySlot(serv: SquidServer, entity: BlockEntity, slot: number, item: Slot): void {
  if (!Number.isInteger(slot) || slot < 0 || slot >= entity.slots.length) throw new RangeError(`${entity.kind} has no slot ${slot}`);
  if (item) item.slot = slot;
  entity.slots[slot] = item;
  blockEntities(serv).markDirty();
  syncViewers([entity]);
}
