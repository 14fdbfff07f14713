/**
 * Hunger as vanilla 1.21 (`FoodData`, `Player.causeFoodExhaustion`; Minecraft wiki "Hunger"):
 * exhaustion from sprinting, jumping and swimming (here) and digging (the digging feature, through
 * the food service) uses up saturation first and then food; food ≥ 18 regenerates health
 * (faster with saturation at full food); food 0 starves. Eating: `use_item` with a food in hand
 * (minecraft-data `foods`) finishes after 32 ticks, restoring food and saturation, unless the
 * player lets go, switches items or dies first. A milk bucket is drunk the same way: it clears
 * every effect and leaves a bucket.
 */
import type { Item } from 'prismarine-item';
import type { SquidPlayer, SquidServer } from '../types.ts';
import { addExhaustion, EXHAUSTION, EXHAUSTION_PER_POINT, hungerApplies, hungerOf, type HungerState } from '../services/food.ts';
import { mechanicsOptions } from '../services/game-rules.ts';
import { clearEffects } from '../services/effects.ts';
import { foodOf } from '../../game/data.ts';
import { countOf, handSlot, heldItem, itemClass } from '../services/items.ts';
import { movementOf, onPlayerMove } from '../services/movement.ts';

/** vanilla (FoodData): the most food a player can have. */
const MAX_FOOD = 20;
/** Ticks between regenerations at food ≥ 18, and with saturation at full food; between starvation hits. */
const SLOW_REGEN_TICKS = 80;
const FAST_REGEN_TICKS = 10;
/** vanilla: eating takes 1.6 s = 32 ticks (food component `consume_seconds`); dried kelp 0.8 s. */
export const EAT_TICKS = 32;
const EAT_TICKS_BY_ITEM: Record<string, number> = { dried_kelp: 16 };
/** Foods vanilla lets you eat at full hunger (`can_always_eat`). */
const ALWAYS_EDIBLE = new Set(['golden_apple', 'enchanted_golden_apple', 'chorus_fruit', 'honey_bottle', 'suspicious_stew']);
/**
 * Drinks that are not food: a milk bucket takes 32 ticks, clears every effect and leaves a bucket
 * (vanilla `MilkBucketItem`; 1.20.5+ `consumable` component with `clear_all_effects`). Drinkable
 * at any hunger.
 */
const MILK = 'milk_bucket';
/** Items left in hand after eating the last one (vanilla `use_remainder` / `BowlFoodItem`). */
const REMAINDER: Record<string, string> = {
  milk_bucket: 'bucket',
  mushroom_stew: 'bowl',
  rabbit_stew: 'bowl',
  beetroot_soup: 'bowl',
  suspicious_stew: 'bowl',
  honey_bottle: 'glass_bottle',
};
/** entity_status: "use item complete" (vanilla EntityEvent 9); mineflayer's consume() waits for it. */
const STATUS_USE_ITEM_COMPLETE = 9;
/** block_dig status: release the used item (protocol). */
const DIG_STATUS_RELEASE_USE_ITEM = 5;

/** Sends health, food and saturation (`update_health`). */
function sendHealth(player: SquidPlayer): void {
  player.updateHealth(player.health);
}

/** One game tick of vanilla `FoodData.tick` for a player. */
function tickFood(serv: SquidServer, player: SquidPlayer): void {
  if (!hungerApplies(player)) return;
  const state = hungerOf(player);
  const options = mechanicsOptions(serv);
  const before = `${player.health}/${player.food}/${player.foodSaturation}`;
  if (!Number.isFinite(player.foodSaturation)) player.foodSaturation = 0;
  if (state.exhaustion > EXHAUSTION_PER_POINT) {
    state.exhaustion -= EXHAUSTION_PER_POINT;
    if (player.foodSaturation > 0) player.foodSaturation = Math.max(player.foodSaturation - 1, 0);
    else if (serv.difficulty !== 0) player.food = Math.max(player.food - 1, 0);
  }
  const hurt = player.health < 20;
  if (options.naturalRegeneration && player.foodSaturation > 0 && hurt && player.food >= MAX_FOOD) {
    if (++state.timer >= FAST_REGEN_TICKS) {
      const used = Math.min(player.foodSaturation, 6);
      player.health = Math.min(20, player.health + used / 6);
      addExhaustion(serv, player, used);
      state.timer = 0;
    }
  } else if (options.naturalRegeneration && player.food >= 18 && hurt) {
    if (++state.timer >= SLOW_REGEN_TICKS) {
      player.health = Math.min(20, player.health + 1);
      addExhaustion(serv, player, EXHAUSTION.regenerate);
      state.timer = 0;
    }
  } else if (player.food <= 0) {
    if (++state.timer >= SLOW_REGEN_TICKS) {
      // vanilla: starvation stops at 10 HP on easy, 1 HP on normal, kills on hard.
      const difficulty = serv.difficulty ?? 1;
      if (player.health > 10 || difficulty === 3 || (player.health > 1 && difficulty === 2)) {
        player.health -= 1;
        player._writeOthersNearby?.('entity_status', { entityId: player.id, entityStatus: 2 });
      }
      state.timer = 0;
    }
  } else {
    state.timer = 0;
  }
  if (`${player.health}/${player.food}/${player.foodSaturation}` !== before) sendHealth(player);
}

/** True when the player may start eating `item` now (vanilla `FoodProperties` / `canEat`). */
function canEat(serv: SquidServer, player: SquidPlayer, item: Item): boolean {
  const name = serv.registry.items[item.type]?.name;
  if (name === MILK) return true;
  if (!name || !foodOf(serv.registry, name)) return false;
  return player.gameMode === 1 || player.food < MAX_FOOD || ALWAYS_EDIBLE.has(name);
}

/** Finishes eating: restores food and saturation (minecraft-data `foods`), uses up one item. */
function finishEating(serv: SquidServer, player: SquidPlayer, state: HungerState): void {
  const eating = state.eating;
  state.eating = null;
  if (!eating) return;
  const item = player.inventory.slots[eating.slot];
  if (!item || item.type !== eating.type || countOf(item) <= 0) return;
  const name = serv.registry.items[item.type]?.name ?? '';
  const food = foodOf(serv.registry, name);
  if (name === MILK) {
    clearEffects(serv, player);
  } else if (food) {
    // vanilla FoodData.add: food capped at 20, saturation capped at the new food level.
    player.food = Math.min(MAX_FOOD, player.food + food.foodPoints);
    player.foodSaturation = Math.min(player.food, (Number.isFinite(player.foodSaturation) ? player.foodSaturation : 0) + food.saturation);
  } else {
    return;
  }
  if (player.gameMode !== 1) {
    const left = countOf(item) - 1;
    const remainder = REMAINDER[name];
    if (left > 0) {
      item.count = left;
      player.inventory.updateSlot(eating.slot, item);
    } else if (remainder && serv.registry.itemsByName[remainder]) {
      const Item = itemClass(serv);
      player.inventory.updateSlot(eating.slot, new Item(serv.registry.itemsByName[remainder].id, 1));
    } else {
      player.inventory.updateSlot(eating.slot, null);
    }
  }
  player._client.write('entity_status', { entityId: player.id, entityStatus: STATUS_USE_ITEM_COMPLETE });
  sendHealth(player);
}

/** Installs hunger ticking, movement exhaustion and eating. */
export function installHunger(serv: SquidServer): void {
  serv.on('tick', () => {
    for (const player of serv.players) {
      tickFood(serv, player);
      const state = hungerOf(player);
      if (state.eating && serv.tickCount - state.eating.startTick >= eatTicks(serv, state.eating.type)) finishEating(serv, player, state);
    }
  });

  onPlayerMove(serv, (player, from, to, wasOnGround) => {
    const move = movementOf(player);
    const horizontal = Math.hypot(to.x - from.x, to.z - from.z);
    // Jumping: leaving the ground upwards (vanilla `Player.jumpFromGround`).
    if (wasOnGround && !move.onGround && to.y > from.y)
      addExhaustion(serv, player, move.sprinting ? EXHAUSTION.sprintJump : EXHAUSTION.jump);
    if (horizontal <= 0) return;
    if (isInWater(player)) addExhaustion(serv, player, EXHAUSTION.swimPerBlock * Math.hypot(to.x - from.x, to.y - from.y, to.z - from.z));
    else if (move.onGround && move.sprinting) addExhaustion(serv, player, EXHAUSTION.sprintPerBlock * horizontal);
  });

  // Dying stops eating (the player-state feature announces deaths).
  serv.on('playerDied', (player) => {
    hungerOf(player).eating = null;
  });

  serv.on('newPlayer', (player) => {
    const state = hungerOf(player);
    const client = player._client;
    client.on('use_item', ({ hand }: { hand?: number }) => {
      const item = heldItem(player, hand ?? 0);
      if (!item || player.health <= 0 || !canEat(serv, player, item)) return;
      state.eating = { slot: handSlot(player, hand ?? 0), type: item.type, startTick: serv.tickCount, hand: hand ?? 0 };
    });
    client.on('block_dig', ({ status }: { status: number }) => {
      if (status === DIG_STATUS_RELEASE_USE_ITEM) state.eating = null;
    });
    client.on('held_item_slot', () => {
      state.eating = null;
    });
    player.on('spawned', () => {
      state.exhaustion = 0;
      state.timer = 0;
      state.eating = null;
    });
  });
}

function eatTicks(serv: SquidServer, type: number): number {
  return EAT_TICKS_BY_ITEM[serv.registry.items[type]?.name ?? ''] ?? EAT_TICKS;
}

/** Whether the player's feet are in water (server-side world). */
function isInWater(player: SquidPlayer): boolean {
  try {
    return player.world.sync?.getBlock(player.position.floored())?.name === 'water';
  } catch {
    return false;
  }
}

/** Each player's health, food and saturation at the last checkpoint. */
const checkpoints = new WeakMap<SquidServer, Map<string, { health: number; food: number; saturation: number }>>();

/** Takes note of every player's health, food and saturation, for {@link resetHunger}. */
export function checkpointHunger(serv: SquidServer): void {
  checkpoints.set(serv, new Map(serv.players.map((p) => [p.username, { health: p.health, food: p.food, saturation: p.foodSaturation }])));
}

/** Every player noted back to its health, food and saturation then, no exhaustion, not eating (the warm world's reset). */
export function resetHunger(serv: SquidServer): void {
  for (const [name, noted] of checkpoints.get(serv) ?? []) {
    const player = serv.getPlayer(name);
    if (!player) continue;
    const hunger = hungerOf(player);
    hunger.exhaustion = 0;
    hunger.timer = 0;
    hunger.eating = null;
    player.food = noted.food;
    player.foodSaturation = noted.saturation;
    player.updateHealth(noted.health);
  }
}
