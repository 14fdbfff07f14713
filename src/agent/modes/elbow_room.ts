/**
 * elbow_room: when idle, step away from a player standing inside the bot (closer than 0.5
 * blocks). Reacts to `entityMoved` of players: one distance per event.
 */
import type { Entity } from 'prismarine-entity';
import pathfinderPkg from 'mineflayer-pathfinder';
import { goTo } from '../../skills/movement.ts';
import { throwIfAborted } from '../../util/abort.ts';
import { distanceTo, Mode, nearestEntity } from './mode.ts';

const { goals } = pathfinderPkg;

/** Players closer than this are too close (blocks). */
export const ELBOW_ROOM = 0.5;

export class ElbowRoom extends Mode {
  readonly name = 'elbow_room';
  readonly description = 'When idle, step away from players standing too close.';
  override readonly interrupts = ['!followPlayer'] as const;

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
    this.host.fire(this, `${player.username ?? 'a player'} is standing in you`, async (signal) => {
      const p = player.position;
      try {
        await goTo(this.bot, new goals.GoalInvert(new goals.GoalNear(p.x, p.y, p.z, 1)), AbortSignal.any([signal, AbortSignal.timeout(3_000)]));
      } catch {
        throwIfAborted(signal);
      }
      return `Made room for ${player.username ?? 'a player'}.`;
    }, 4_000);
  }
}
