/**
 * Hunger as vanilla 1.21 (`FoodData`, `Player.causeFoodExhaustion`; Minecraft wiki "Hunger"):
 * exhaustion from sprinting, jumping, swimming and digging uses up saturation first and then
 * food; food ≥ 18 regenerates health (faster with saturation at full food); food 0 starves.
 * Eating: `use_item` with a food in hand (minecraft-data `foods`) finishes after 32 ticks,
 * restoring food and saturation, unless the player lets go or switches items first.
 */
import { createRequire } from 'node:module';
import type { Item } from 'prismarine-item';
import type { SquidServer } from '../embedded.ts';
import type { SquidPlayer } from './types.ts';
import { mechanicsOptions, movementOf, onPlayerMove } from './mechanics.ts';
import { handSlot, heldItem } from './block-utils.ts';
import { countOf } from './menus.ts';

const require = createRequire(import.meta.url);

/** vanilla constants (FoodData, Player): the exhaustion that costs one saturation/food point. */
export const EXHAUSTION_PER_POINT = 4;
/** vanilla maximum of the exhaustion counter. */
const MAX_EXHAUSTION = 40;
const MAX_FOOD = 20;
/** Exhaustion per action (vanilla `Player` / wiki "Hunger#Exhaustion level increase"). */
export const EXHAUSTION = {
  /** per metre sprinted on the ground (walking and sneaking cost 0 on Java Edition). */
  sprintPerBlock: 0.1,
  /** per metre swum or walked in water. */
  swimPerBlock: 0.01,
  jump: 0.05,
  sprintJump: 0.2,
  /** per block broken. */
  breakBlock: 0.005,
  attack: 0.1,
  /** per point of regenerated health from food ≥ 18. */
  regenerate: 6,
} as const;
/** Ticks between regenerations at food ≥ 18, and with saturation at full food; between starvation hits. */
const SLOW_REGEN_TICKS = 80;
const FAST_REGEN_TICKS = 10;
/** vanilla: eating takes 1.6 s = 32 ticks (food component `consume_seconds`); dried kelp 0.8 s. */
export const EAT_TICKS = 32;
const EAT_TICKS_BY_ITEM: Record<string, number> = { dried_kelp: 16 };
/** Foods vanilla lets you eat at full hunger (`can_always_eat`). */
const ALWAYS_EDIBLE = new Set(['golden_apple', 'enchanted_golden_apple', 'chorus_fruit', 'honey_bottle', 'suspicious_stew']);
/** Items left in hand after eating the last one (vanilla `use_remainder` / `BowlFoodItem`). */
const REMAINDER: Record<string, string> = {
  mushroom_stew: 'bowl', rabbit_stew: 'bowl', beetroot_soup: 'bowl', suspicious_stew: 'bowl', honey_bottle: 'glass_bottle',
};
/** entity_status: "use item complete" (vanilla EntityEvent 9); mineflayer's consume() waits for it. */
const STATUS_USE_ITEM_COMPLETE = 9;
/** block_dig status: release the used item (protocol). */
const DIG_STATUS_RELEASE_USE_ITEM = 5;

/** Server-side hunger state of a player. */
export interface HungerState {
  /** 0–40; every 4 costs one saturation point, or one food point when saturation is 0. */
  exhaustion: number;
  /** Ticks counted towards the next regeneration or starvation hit. */
  timer: number;
  /** Eating in progress: hotbar/offhand slot, item id and the server tick it started. */
  eating: { slot: number; type: number; startTick: number; hand: number } | null;
}

const states = new WeakMap<SquidPlayer, HungerState>();

/** A player's hunger state (created on first use). */
export function hungerOf(player: SquidPlayer): HungerState {
  let state = states.get(player);
  if (!state) {
    state = { exhaustion: 0, timer: 0, eating: null };
    states.set(player, state);
  }
  return state;
}

/** True for game modes where hunger applies (survival 0, adventure 2). */
function hungerApplies(player: SquidPlayer): boolean {
  return (player.gameMode === 0 || player.gameMode === 2) && player.health > 0;
}

/**
 * Adds exhaustion to a player (vanilla `causeFoodExhaustion`), scaled by the server's
 * `exhaustionMultiplier`. Ignored in creative and spectator mode.
 *
 * @param amount exhaustion points (see {@link EXHAUSTION}).
 */
export function addExhaustion(serv: SquidServer, player: SquidPlayer, amount: number): void {
  if (!hungerApplies(player)) return;
  const state = hungerOf(player);
  state.exhaustion = Math.min(state.exhaustion + amount * mechanicsOptions(serv).exhaustionMultiplier, MAX_EXHAUSTION);
}

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
  if (!name || !serv.registry.foodsByName[name]) return false;
  return player.gameMode === 1 || player.food < MAX_FOOD || ALWAYS_EDIBLE.has(name);
}

/** Finishes eating: restores food and saturation (minecraft-data `foods`), uses up one item. */
function finishEating(serv: SquidServer, player: SquidPlayer, state: HungerState): void {
  const eating = state.eating;
  state.eating = null;
  if (!eating) return;
  const item = player.inventory.slots[eating.slot] as Item | null;
  if (!item || item.type !== eating.type || countOf(item) <= 0) return;
  const name = serv.registry.items[item.type].name;
  const food = serv.registry.foodsByName[name];
  if (!food) return;
  // vanilla FoodData.add: food capped at 20, saturation capped at the new food level.
  player.food = Math.min(MAX_FOOD, player.food + food.foodPoints);
  player.foodSaturation = Math.min(player.food, (Number.isFinite(player.foodSaturation) ? player.foodSaturation : 0) + food.saturation);
  if (player.gameMode !== 1) {
    const left = countOf(item) - 1;
    const remainder = REMAINDER[name];
    if (left > 0) {
      item.count = left;
      player.inventory.updateSlot(eating.slot, item);
    } else if (remainder && serv.registry.itemsByName[remainder]) {
      const Item = require('prismarine-item')(serv.registry);
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
    for (const player of serv.players as SquidPlayer[]) {
      tickFood(serv, player);
      const state = hungerOf(player);
      if (state.eating && serv.tickCount - state.eating.startTick >= eatTicks(serv, state.eating.type)) finishEating(serv, player, state);
    }
  });

  onPlayerMove(serv, (player, from, to, wasOnGround) => {
    const move = movementOf(player);
    const horizontal = Math.hypot(to.x - from.x, to.z - from.z);
    // Jumping: leaving the ground upwards (vanilla `Player.jumpFromGround`).
    if (wasOnGround && !move.onGround && to.y > from.y) addExhaustion(serv, player, move.sprinting ? EXHAUSTION.sprintJump : EXHAUSTION.jump);
    if (horizontal <= 0) return;
    if (isInWater(player)) addExhaustion(serv, player, EXHAUSTION.swimPerBlock * Math.hypot(to.x - from.x, to.y - from.y, to.z - from.z));
    else if (move.onGround && move.sprinting) addExhaustion(serv, player, EXHAUSTION.sprintPerBlock * horizontal);
  });

  serv.on('newPlayer', (player: SquidPlayer) => {
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
    client.on('held_item_slot', () => { state.eating = null; });
    player.on('spawned', () => { state.exhaustion = 0; state.timer = 0; state.eating = null; });
  });
}

function eatTicks(serv: SquidServer, type: number): number {
  return EAT_TICKS_BY_ITEM[serv.registry.items[type]?.name] ?? EAT_TICKS;
}

/** Whether the player's feet are in water (server-side world). */
function isInWater(player: SquidPlayer): boolean {
  try {
    return player.world.sync?.getBlock(player.position.floored())?.name === 'water';
  } catch {
    return false;
  }
}
