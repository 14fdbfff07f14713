/**
 * Environmental damage to players as vanilla 1.21 deals it (Minecraft wiki "Damage", "Fall
 * damage", "Lava", "Fire", "Drowning"; vanilla `Entity.lavaHurt`, `BaseFireBlock.entityInside`,
 * `Entity.baseTick`, `LivingEntity.causeFallDamage`), in survival and adventure, through the
 * damage service (invulnerability window, game rules `fallDamage`, `fireDamage`,
 * `drowningDamage`, death messages):
 * - fall: landing after a fall of d blocks deals `ceil(d − 3)` (`fall`); water, cobwebs, ladders,
 *   vines and scaffolding stop a fall;
 * - lava: 4 (`lava`) each tick in it (the invulnerability window makes that every 10 ticks) and
 *   set on fire for 15 s;
 * - fire: standing in fire deals 1 (`in_fire`; soul fire 2) and sets on fire for 8 s; burning
 *   deals 1 (`on_fire`) every 20 ticks until it runs out; water and rain put it out, fire
 *   resistance prevents both;
 * - drowning: with the eyes in water the air supply (300) drops 1 a tick; below −19 it comes back
 *   to 0 and the player takes 2 (`drown`); out of water it refills 4 a tick; the client follows
 *   through the `air_supply` metadata (mineflayer `bot.oxygenLevel`);
 * - flying-squid's own `player.takeDamage` goes through the damage service too, and attacking
 *   costs 0.1 food exhaustion (vanilla `Player.attack`).
 */
import { Vec3 } from 'vec3';
import type { SquidPlayer, SquidServer } from '../types.ts';
import { hurtPlayer, resetDamage, routeTakeDamage } from '../services/damage.ts';
import { effectsOf } from '../services/effects.ts';
import { addExhaustion, EXHAUSTION } from '../services/food.ts';
import { movementOf, onPlayerMove } from '../services/movement.ts';
import { metadataIndex } from '../services/protocol.ts';

/** vanilla `Player`: the most air (ticks of breath). */
const MAX_AIR = 300;
/** vanilla: air at which a drowning player is hurt (then reset to 0), and the damage. */
const DROWN_AT = -20;
const DROWN_DAMAGE = 2;
/** vanilla `LivingEntity.increaseAirSupply`: air regained per tick out of water. */
const AIR_REFILL = 4;
/** vanilla fire: seconds on fire from lava and from fire blocks; burn damage interval. */
const LAVA_FIRE_TICKS = 15 * 20;
const FIRE_BLOCK_FIRE_TICKS = 8 * 20;
const BURN_INTERVAL = 20;
/** vanilla damage: lava 4 per hit; fire 1 (soul fire 2); burning 1; magma 1. */
const LAVA_DAMAGE = 4;
const BURN_DAMAGE = 1;
/** vanilla `LivingEntity.calculateFallDamage`: the safe fall distance (attribute `safe_fall_distance`). */
const SAFE_FALL = 3;
/** Blocks that stop a fall (vanilla resets `fallDistance` in water, cobwebs and on climbable blocks). */
const FALL_STOPPERS = new Set([
  'water',
  'bubble_column',
  'cobweb',
  'ladder',
  'vine',
  'scaffolding',
  'twisting_vines',
  'twisting_vines_plant',
  'weeping_vines',
  'weeping_vines_plant',
  'cave_vines',
  'cave_vines_plant',
  'powder_snow',
]);
/** Blocks that count as water for breathing and putting fire out (waterlogged plants included). */
const WATER = new Set(['water', 'bubble_column', 'kelp', 'kelp_plant', 'seagrass', 'tall_seagrass']);
const FIRE_BLOCKS: Record<string, number> = { fire: 1, soul_fire: 2 };

/** Survival state of one player. */
interface SurvivalState {
  /** Highest y since the player last stood on the ground, or null while grounded. */
  fallFrom: number | null;
  /** Where the last movement packet left the player (to spot teleports). */
  last: { x: number; y: number; z: number } | null;
  air: number;
  fireTicks: number;
}

const states = new WeakMap<SquidPlayer, SurvivalState>();

function stateOf(player: SquidPlayer): SurvivalState {
  let state = states.get(player);
  if (!state) {
    state = { fallFrom: null, last: null, air: MAX_AIR, fireTicks: 0 };
    states.set(player, state);
  }
  return state;
}

/** The block name at a position of the player's world, or undefined where nothing is loaded. */
function blockName(player: SquidPlayer, x: number, y: number, z: number): string | undefined {
  try {
    const block = player.world.sync?.getBlock(new Vec3(Math.floor(x), Math.floor(y), Math.floor(z)));
    if (!block) return undefined;
    const waterlogged = (block.getProperties?.() as Record<string, unknown> | undefined)?.waterlogged;
    return waterlogged === true || waterlogged === 'true' ? 'water' : block.name;
  } catch {
    return undefined;
  }
}

/** A player's air supply in ticks of breath (300 = full; below 0 while drowning). */
export function airSupply(player: SquidPlayer): number {
  return stateOf(player).air;
}

/** Sets a player's air supply (tests: to reach drowning without 15 s under water); sent with the next tick's update. */
export function setAirSupply(player: SquidPlayer, air: number): void {
  stateOf(player).air = air;
}

function takesDamage(player: SquidPlayer): boolean {
  return (player.gameMode === 0 || player.gameMode === 2) && player.health > 0 && !player.disconnected;
}

/** Installs environmental damage, the air supply, the takeDamage route and attack exhaustion. */
export function installSurvival(serv: SquidServer): void {
  const airKey = metadataIndex(serv, serv.registry.entitiesByName.player?.id, 'air_supply');
  const sendAir = (player: SquidPlayer, air: number): void => {
    if (airKey < 0 || player.disconnected) return;
    player._client.write('entity_metadata', { entityId: player.id, metadata: [{ key: airKey, type: 'int', value: air }] });
  };

  serv.on('newPlayer', (player) => {
    routeTakeDamage(serv, player);
    player.on('attack', () => addExhaustion(serv, player, EXHAUSTION.attack));
    player.on('spawned', () => resetSurvival(player));
  });
  // A respawned player is a new entity in vanilla: not burning, not falling, full air.
  serv.on('playerRespawned', (player) => resetSurvival(player));
  const resetSurvival = (player: SquidPlayer): void => {
    resetDamage(player);
    const state = stateOf(player);
    state.fallFrom = null;
    state.last = null;
    state.fireTicks = 0;
    if (state.air !== MAX_AIR) sendAir(player, (state.air = MAX_AIR));
  };

  onPlayerMove(serv, (player, from, to) => {
    const state = stateOf(player);
    const teleported = state.last !== null && Math.hypot(from.x - state.last.x, from.y - state.last.y, from.z - state.last.z) > 0.01;
    state.last = to;
    if (teleported || !takesDamage(player)) {
      state.fallFrom = null;
      return;
    }
    const feet = blockName(player, to.x, to.y, to.z);
    if (feet !== undefined && FALL_STOPPERS.has(feet)) {
      state.fallFrom = null;
      return;
    }
    if (!movementOf(player).onGround) {
      state.fallFrom = Math.max(state.fallFrom ?? from.y, from.y, to.y);
      return;
    }
    if (state.fallFrom === null) return;
    const distance = state.fallFrom - to.y;
    state.fallFrom = null;
    const damage = Math.ceil(distance - SAFE_FALL);
    if (damage > 0) hurtPlayer(serv, player, damage, { type: 'fall' });
  });

  serv.on('tick', () => {
    for (const player of serv.players) {
      if (player.disconnected || player.health <= 0) continue;
      const state = stateOf(player);
      const { x, y, z } = player.position;
      const feet = blockName(player, x, y, z);
      const body = blockName(player, x, y + 1, z);
      const eyes = blockName(player, x, y + 1.62, z);
      const inWater = (feet !== undefined && WATER.has(feet)) || (body !== undefined && WATER.has(body));
      const survival = takesDamage(player);
      const fireResistant = effectsOf(player).has('fire_resistance');

      // Air.
      if (eyes !== undefined && WATER.has(eyes) && survival && !effectsOf(player).has('water_breathing')) {
        state.air--;
        if (state.air <= DROWN_AT) {
          state.air = 0;
          hurtPlayer(serv, player, DROWN_DAMAGE, { type: 'drown' });
        }
        sendAir(player, state.air);
      } else if (state.air < MAX_AIR) {
        state.air = Math.min(MAX_AIR, state.air + AIR_REFILL);
        sendAir(player, state.air);
      }
      if (!survival) {
        state.fireTicks = 0;
        continue;
      }

      // Lava and fire blocks.
      if (feet === 'lava' || body === 'lava') {
        if (!fireResistant) {
          state.fireTicks = Math.max(state.fireTicks, LAVA_FIRE_TICKS);
          hurtPlayer(serv, player, LAVA_DAMAGE, { type: 'lava' });
        }
      } else {
        const fire = FIRE_BLOCKS[feet ?? ''] ?? FIRE_BLOCKS[body ?? ''];
        if (fire !== undefined && !fireResistant) {
          state.fireTicks = Math.max(state.fireTicks, FIRE_BLOCK_FIRE_TICKS);
          hurtPlayer(serv, player, fire, { type: 'in_fire' });
        }
        const below = blockName(player, x, y - 0.2, z);
        if (below === 'magma_block' && !movementOf(player).sneaking && !fireResistant)
          hurtPlayer(serv, player, BURN_DAMAGE, { type: 'hot_floor' });
      }

      // Burning.
      if (state.fireTicks > 0) {
        if (inWater || fireResistant) state.fireTicks = 0;
        else {
          if (state.fireTicks % BURN_INTERVAL === 0) hurtPlayer(serv, player, BURN_DAMAGE, { type: 'on_fire' });
          state.fireTicks--;
        }
      }
    }
  });
}
