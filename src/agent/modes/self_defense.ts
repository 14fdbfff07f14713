/**
 * self_defense: fight hostile mobs within 8 blocks. Reacts to `entitySpawn` and `entityMoved`
 * (O(1) per event: a type test and one distance), never scans on a timer.
 */
import type { Entity } from 'prismarine-entity';
import { fight, GiveUps } from './combat.ts';
import { distanceTo, isHostile, Mode, nearestEntity } from './mode.ts';

/** Hostiles closer than this are fought (blocks). */
export const DEFENSE_RANGE = 8;

export class SelfDefense extends Mode {
  readonly name = 'self_defense';
  readonly description = `Fight hostile mobs within ${DEFENSE_RANGE} blocks.`;
  override readonly interrupts = 'all' as const;
  readonly #givenUp = new GiveUps();

  protected attach(): void {
    const seen = (entity: Entity) => {
      if (!isHostile(entity) || this.#givenUp.has(entity)) return;
      this.host.tally();
      if (distanceTo(this.bot, entity) <= DEFENSE_RANGE) this.#engage(entity);
    };
    this.listen('entitySpawn', seen);
    this.listen('entityMoved', seen);
  }

  override check(): void {
    this.host.tally();
    const hostile = nearestEntity(this.bot, DEFENSE_RANGE, (e) => isHostile(e) && !this.#givenUp.has(e));
    if (hostile) this.#engage(hostile);
  }

  #engage(entity: Entity): void {
    if (!this.host.mayAct(this)) return;
    this.host.fire(
      this,
      `a ${entity.name} came within ${DEFENSE_RANGE} blocks`,
      (signal) => this.#givenUp.guard(this.bot, entity, signal, () => fight(this.bot, entity, DEFENSE_RANGE * 3, signal)),
      30_000,
    );
  }
}
