/**
 * Each player's food bookkeeping, as vanilla 1.21 `FoodData` keeps it (Minecraft wiki "Hunger"):
 * the exhaustion counter that actions raise ({@link addExhaustion}), the regeneration timer, and
 * an eating in progress. The hunger feature ticks it; digging and other actions add exhaustion.
 */
import type { SquidPlayer, SquidServer } from '../types.ts';
import { mechanicsOptions } from './game-rules.ts';

/** vanilla (FoodData): the exhaustion that costs one saturation or food point. */
export const EXHAUSTION_PER_POINT = 4;
/** vanilla maximum of the exhaustion counter. */
const MAX_EXHAUSTION = 40;

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

/** Server-side hunger state of a player. */
export interface HungerState {
  /** 0–40; every 4 costs one saturation point, or one food point when saturation is 0. */
  exhaustion: number;
  /** Ticks counted towards the next regeneration or starvation hit. */
  timer: number;
  /** Eating in progress: window slot, item id, the server tick it started and the hand. */
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

/** True for living players in game modes where hunger applies (survival 0, adventure 2). */
export function hungerApplies(player: SquidPlayer): boolean {
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
