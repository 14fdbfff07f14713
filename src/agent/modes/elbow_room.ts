/**
 * elbow_room: when idle, step away from a player standing inside the bot (closer than 0.5
 * blocks). Reacts to `entityMoved` of players: one distance per event.
 *
 * The step goes straight away from the player, so two idle bots on one spot part in opposite
 * directions. When they stand exactly on each other there is no "away": each bot picks a direction
 * from its own name and how many times it has had to step, so two bots never keep choosing the
 * same block (a path search from one spot to "anywhere 1 block off" picks the same block for both,
 * and they would trade places forever).
 */
import type { Entity } from 'prismarine-entity';
import pathfinderPkg from 'mineflayer-pathfinder';
import { goTo } from '../../skills/movement.ts';
import { throwIfAborted } from '../../util/abort.ts';
import { distanceTo, Mode, nearestEntity } from './mode.ts';

const { goals } = pathfinderPkg;

/** Players closer than this are too close (blocks). */
export const ELBOW_ROOM = 0.5;

/** How far the bot steps away (blocks, horizontally). */
const STEP = 2;

/** Closer than this, two positions count as one spot with no direction between them (blocks). */
const SAME_SPOT = 0.05;

/** A direction in the horizontal plane (radians) from `key`: FNV-1a, spread over the circle. */
function angleOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return ((hash >>> 0) / 0x1_0000_0000) * 2 * Math.PI;
}

export class ElbowRoom extends Mode {
  readonly name = 'elbow_room';
  readonly description = 'When idle, step away from players standing too close.';
  override readonly interrupts = ['!followPlayer'] as const;
  #steps = 0;

  protected attach(): void {
    this.listen('entityMoved', (entity: Entity) => {
      if (entity.type !== 'player' || !this.host.mayAct(this)) return;
      this.host.tally();
      if (distanceTo(this.bot, entity) < ELBOW_ROOM) this.#stepAway(entity);
    });
  }

  override check(): void {
    if (!this.host.mayAct(this)) return;
    this.host.tally();
    const close = nearestEntity(this.bot, ELBOW_ROOM, (e) => e.type === 'player');
    if (close) this.#stepAway(close);
  }

  #stepAway(player: Entity): void {
    this.host.fire(
      this,
      `${player.username ?? 'a player'} is standing in you`,
      async (signal) => {
        const me = this.bot.entity.position;
        const them = player.position;
        let dx = me.x - them.x;
        let dz = me.z - them.z;
        const apart = Math.hypot(dx, dz);
        if (apart < SAME_SPOT) {
          const angle = angleOf(`${this.bot.username}:${this.#steps++}`);
          dx = Math.cos(angle);
          dz = Math.sin(angle);
        } else {
          dx /= apart;
          dz /= apart;
        }
        const bound = AbortSignal.any([signal, AbortSignal.timeout(3_000)]);
        try {
          await goTo(this.bot, new goals.GoalNearXZ(me.x + dx * STEP, me.z + dz * STEP, 1), bound);
        } catch {
          throwIfAborted(signal);
          // The way there is blocked: anywhere a block away from the player will do.
          try {
            await goTo(this.bot, new goals.GoalInvert(new goals.GoalNear(them.x, them.y, them.z, 1)), bound);
          } catch {
            throwIfAborted(signal);
          }
        }
        return `Made room for ${player.username ?? 'a player'}.`;
      },
      4_000,
    );
  }
}
