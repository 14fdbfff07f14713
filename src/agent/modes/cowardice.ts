/**
 * cowardice: run from hostile mobs within 16 blocks (off by default). Event-driven like
 * self_defense.
 */
import type { Entity } from 'prismarine-entity';
import pathfinderPkg from 'mineflayer-pathfinder';
import { goTo } from '../../skills/movement.ts';
import { throwIfAborted } from '../../util/abort.ts';
import { distanceTo, isHostile, Mode, nearestEntity } from './mode.ts';

const { goals } = pathfinderPkg;

/** Hostiles closer than this are fled from (blocks). */
export const COWARDICE_RANGE = 16;

export class Cowardice extends Mode {
  readonly name = 'cowardice';
  readonly description = `Run away from hostile mobs within ${COWARDICE_RANGE} blocks.`;
  override readonly interrupts = 'all' as const;

  protected attach(): void {
    const seen = (entity: Entity) => {
      if (!isHostile(entity)) return;
      this.host.tally();
      if (distanceTo(this.bot, entity) <= COWARDICE_RANGE) this.#flee(entity);
    };
    this.listen('entitySpawn', seen);
    this.listen('entityMoved', seen);
  }

  override check(): void {
    this.host.tally();
    const hostile = nearestEntity(this.bot, COWARDICE_RANGE, isHostile);
    if (hostile) this.#flee(hostile);
  }

  #flee(entity: Entity): void {
    if (!this.host.mayAct(this)) return;
    this.host.fire(
      this,
      `a ${entity.name} came within ${COWARDICE_RANGE} blocks`,
      async (signal) => {
        const p = entity.position;
        try {
          await goTo(
            this.bot,
            new goals.GoalInvert(new goals.GoalNear(p.x, p.y, p.z, COWARDICE_RANGE + 8)),
            AbortSignal.any([signal, AbortSignal.timeout(10_000)]),
          );
        } catch {
          throwIfAborted(signal);
        }
        return `Ran ${distanceTo(this.bot, entity).toFixed(0)} blocks away from the ${entity.name}.`;
      },
      12_000,
    );
  }
}
