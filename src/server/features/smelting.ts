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
 * (vanilla 1.21.4 data, see src/game/smelting.ts). The furnace's numbers and their NBT are the
 * furnace service's; contents persist with the block-entity store and drop like a chest's when
 * broken (the containers feature). Experience from smelting is not awarded.
 */
import type { Item } from 'prismarine-item';
import { FURNACE_KINDS, smeltingTableFor, type CookingRecipe, type CookingType } from '../../game/smelting.ts';
import type { SquidServer } from '../types.ts';
import { blockEntities, slotCountOf, syncViewers, type BlockEntity } from '../services/block-entities.ts';
import { placedState } from '../services/blocks.ts';
import { DEFAULT_COOKING_TIME, FURNACE_SLOTS, furnaceData, setFurnaceLit } from '../services/furnaces.ts';
import { OPPOSITE_HORIZONTAL, lookDirectionTo, type Horizontal } from '../services/geometry.ts';
import { inventorySession, openMenu } from '../services/inventory.ts';
import { countOf, itemClass, maxStack, sameItem } from '../services/items.ts';
import { createStorageMenu, type InventorySession } from '../services/menus.ts';

/** The property values a viewer was last sent, per session. */
const sentProperties = new WeakMap<InventorySession, number[]>();

/**
 * Installs furnaces, smokers and blast furnaces on a started server: placement facing the
 * player, the window, and the tick that smelts.
 */
export function installSmelting(serv: SquidServer): void {
  const store = blockEntities(serv);
  const table = smeltingTableFor(serv.registry);
  const Item = itemClass(serv);
  const bucket = serv.registry.itemsByName.bucket?.id;

  for (const [kind, spec] of Object.entries(FURNACE_KINDS)) {
    // vanilla AbstractFurnaceBlock.getStateForPlacement: the front faces the player.
    serv.onItemPlace(
      kind,
      ({ player, placedPosition }) =>
        placedState(serv, kind, {
          facing: OPPOSITE_HORIZONTAL[lookDirectionTo(player.position, placedPosition, true) as Horizontal],
          lit: false,
        }),
      false,
    );
    serv.onBlockInteraction(kind, ({ block, player }) => {
      const session = inventorySession(player);
      if (!session || player.crouching) return false;
      const entity = store.getOrCreate(player.world, block.position, kind, slotCountOf(kind));
      openFurnace(session, entity, spec);
      return true;
    });
  }

  const recipeFor = (type: CookingType, item: Item | null): CookingRecipe | undefined =>
    item ? table.recipes[type].get(item.type) : undefined;

  function openFurnace(session: InventorySession, entity: BlockEntity, spec: (typeof FURNACE_KINDS)[string]): void {
    const isFuel = (item: Item): boolean => table.fuels.has(item.type) || item.type === bucket;
    openMenu(
      session,
      (id) =>
        createStorageMenu(
          session.player,
          id,
          'furnace',
          {
            size: 3,
            get: (slot) => entity.slots[slot] ?? null,
            set: (slot, item) => {
              if (item) item.slot = slot;
              entity.slots[slot] = item;
            },
          },
          {
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
            onChanged: (by) => {
              store.markDirty();
              syncViewers([entity], by);
            },
            onClose: (by) => {
              entity.viewers.delete(by);
              sentProperties.delete(by);
            },
          },
        ),
      spec.window,
      spec.title,
    );
    entity.viewers.add(session);
    // All four properties go out with the next tick's update, not with the window: mineflayer
    // listens for them only once its openFurnace has seen the window open.
    sentProperties.delete(session);
  }

  /** One vanilla serverTick of a furnace-like block entity; true when its slots changed. */
  function tick(entity: BlockEntity): boolean {
    const spec = FURNACE_KINDS[entity.kind]!;
    const d = furnaceData(entity);
    const slots = entity.slots;
    const wasLit = d.litTime > 0;
    let changed = false;
    let input = slots[FURNACE_SLOTS.input] ?? null;
    if ((input?.type ?? -1) !== d.inputType) {
      // vanilla setItem(0): a different input restarts cooking with its recipe's time.
      d.inputType = input?.type ?? -1;
      d.cookingProgress = 0;
      d.cookingTotalTime = recipeFor(spec.type, input)?.cookingTime ?? DEFAULT_COOKING_TIME;
    }
    if (d.litTime > 0) d.litTime--;
    const fuel = slots[FURNACE_SLOTS.fuel] ?? null;
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
          if (input.count <= 0) {
            slots[FURNACE_SLOTS.input] = null;
            d.inputType = -1;
          }
          changed = true;
        }
      } else {
        d.cookingProgress = 0;
      }
    } else if (d.litTime <= 0 && d.cookingProgress > 0) {
      d.cookingProgress = Math.max(0, Math.min(d.cookingProgress - 2, d.cookingTotalTime));
    }
    if (wasLit !== d.litTime > 0) {
      void setFurnaceLit(serv, entity, d.litTime > 0).catch((err: unknown) => serv.emit('error', err));
      changed = true;
    }
    return changed;
  }

  /** vanilla canBurn: a recipe for the input, and room for one more result in the result slot. */
  function canBurn(recipe: CookingRecipe | undefined, entity: BlockEntity): boolean {
    if (!recipe || !entity.slots[FURNACE_SLOTS.input]) return false;
    const output = entity.slots[FURNACE_SLOTS.result];
    if (!output) return true;
    const result = new Item(recipe.result, 1);
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
