/**
 * hunting: when idle, kill food animals within 8 blocks. Event-driven (`entitySpawn`,
 * `entityMoved`), and the events of animals cost one set lookup when the bot is busy.
 */
import type { Entity } from 'prismarine-entity';
import { fight, GiveUps } from './combat.ts';
import { distanceTo, isHuntable, Mode, nearestEntity } from './mode.ts';

/** Animals closer than this are hunted (blocks). */
export const HUNTING_RANGE = 8;

export class Hunting extends Mode {
  readonly name = 'hunting';
  readonly description = `When idle, hunt animals within ${HUNTING_RANGE} blocks for food.`;
  override readonly interrupts = ['!followPlayer'] as const;
  readonly #givenUp = new GiveUps();

  protected attach(): void {
    const seen = (entity: Entity) => {
      if (!isHuntable(entity) || !this.host.mayAct(this) || this.#givenUp.has(entity)) return;
      this.host.tally();
      if (distanceTo(this.bot, entity) <= HUNTING_RANGE) this.#hunt(entity);
    };
    this.listen('entitySpawn', seen);
    this.listen('entityMoved', seen);
  }

  override check(): void {
    if (!this.host.mayAct(this)) return;
    this.host.tally();
    const prey = nearestEntity(this.bot, HUNTING_RANGE, (e) => isHuntable(e) && !this.#givenUp.has(e));
    if (prey) this.#hunt(prey);
  }

  #hunt(entity: Entity): void {
    this.host.fire(
      this,
      `a ${entity.name} is within ${HUNTING_RANGE} blocks`,
      (signal) => this.#givenUp.guard(this.bot, entity, signal, () => fight(this.bot, entity, HUNTING_RANGE * 3, signal)),
      20_000,
    );
  }
}
