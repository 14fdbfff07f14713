/**
 * idle_staring: when idle, turn the head toward the nearest moving creature within 8 blocks.
 * Not an action (it never interrupts anything): only the head turns, at most 4 times a second,
 * and only in answer to `entityMoved`.
 */
import type { Entity } from 'prismarine-entity';
import { distanceTo, Mode } from './mode.ts';

/** Creatures closer than this are watched (blocks). */
export const STARE_RANGE = 8;
const MIN_GAP_MS = 250;

export class IdleStaring extends Mode {
  readonly name = 'idle_staring';
  readonly description = 'When idle, look at creatures moving nearby.';
  #target: Entity | undefined;
  #lastLook = 0;

  protected attach(): void {
    this.listen('entityMoved', (entity: Entity) => {
      if (entity.name === 'item' || entity.type === 'projectile' || entity.type === 'other') return;
      if (this.host.current() || !this.host.mayAct(this)) return;
      const now = Date.now();
      if (now - this.#lastLook < MIN_GAP_MS) return;
      this.host.tally();
      const d = distanceTo(this.bot, entity);
      if (d > STARE_RANGE) return;
      const target = this.#target;
      if (target && target !== entity && this.bot.entities[target.id] && distanceTo(this.bot, target) < d) return;
      this.#target = entity;
      this.#lastLook = now;
      const eyes = entity.position.offset(0, entity.height ?? 1.6, 0);
      this.bot.lookAt(eyes).catch(() => {});
    });
  }

  protected override detached(): void {
    this.#target = undefined;
  }
}
