/**
 * self_preservation: out of lava and fire, out from under falling blocks, up out of water, and
 * away when health runs low. Watches events only: the bot entering a new block (`move`, compared
 * by block cell), a block changing at its feet or head (`blockUpdate`), health dropping
 * (`health`), and a falling block appearing above it (`entitySpawn`).
 */
import type { Block } from 'prismarine-block';
import type { Entity } from 'prismarine-entity';
import pathfinderPkg from 'mineflayer-pathfinder';
import { Vec3 } from 'vec3';
import { goTo } from '../../skills/movement.ts';
import { sleep, throwIfAborted } from '../../util/abort.ts';
import { isDangerous, isHostile, isSafeStand, Mode, nearestEntity, nearestSafeStand } from './mode.ts';

const { goals } = pathfinderPkg;

/** Health (of 20) at or below which a fresh hit makes the bot run. */
export const LOW_HEALTH = 5;
/** Time bound of one escape (ms). */
const ESCAPE_MS = 10_000;

export class SelfPreservation extends Mode {
  readonly name = 'self_preservation';
  readonly description = 'Escape lava, fire, falling blocks and drowning; run when health is low.';
  override readonly interrupts = 'all' as const;
  #cell = '';
  #lastHealth = 20;
  #holdingJump = false;

  protected attach(): void {
    this.#lastHealth = this.bot.health ?? 20;
    this.listen('move', () => {
      const p = this.bot.entity?.position;
      if (!p) return;
      const cell = `${Math.floor(p.x)},${Math.floor(p.y)},${Math.floor(p.z)}`;
      if (cell === this.#cell) return; // O(1) for the once-a-second idle heartbeat
      this.#cell = cell;
      this.check();
    });
    this.listen('blockUpdate', (_old: Block | null, block: Block) => {
      const feet = this.bot.entity?.position;
      if (!feet || !block) return;
      const dx = block.position.x - Math.floor(feet.x);
      const dy = block.position.y - Math.floor(feet.y);
      const dz = block.position.z - Math.floor(feet.z);
      if (dx === 0 && dz === 0 && (dy === 0 || dy === 1)) this.check();
    });
    this.listen('health', () => {
      const dropped = this.bot.health < this.#lastHealth;
      this.#lastHealth = this.bot.health;
      if (dropped) this.check(true);
    });
    this.listen('entitySpawn', (entity: Entity) => {
      if (entity.name !== 'falling_block') return;
      const me = this.bot.entity?.position;
      if (!me) return;
      if (Math.abs(entity.position.x - me.x) < 1.2 && Math.abs(entity.position.z - me.z) < 1.2 && entity.position.y > me.y) {
        this.host.tally();
        this.host.fire(
          this,
          'a block is falling on you',
          (signal) => this.#escape(signal, 'Stepped out from under a falling block.'),
          ESCAPE_MS,
        );
      }
    });
  }

  protected override detached(): void {
    this.#releaseJump();
  }

  /**
   * Looks at the blocks the bot occupies (two lookups) and its health; fires when in danger.
   *
   * @param hurt health has just dropped.
   */
  override check(hurt = false): void {
    const entity = this.bot.entity;
    if (!entity?.position) return;
    this.host.tally();
    const feet = entity.position.floored();
    const at = this.bot.blockAt(feet);
    const head = this.bot.blockAt(feet.offset(0, 1, 0));
    if (isDangerous(at) || isDangerous(head)) {
      const what = isDangerous(at) ? at!.name : head!.name;
      this.#releaseJump();
      this.host.fire(this, `you are standing in ${what}`, (signal) => this.#escape(signal, `Got out of the ${what}.`), ESCAPE_MS);
      return;
    }
    // In water over the head: swim up. Not an action (the reference only holds jump): commands
    // that walk handle water through the pathfinder, so only an idle bot is helped.
    if (head?.name === 'water' && !this.host.current() && this.host.mayAct(this)) {
      this.#holdingJump = true;
      this.bot.setControlState('jump', true);
    } else {
      this.#releaseJump();
    }
    if (hurt && this.bot.health <= LOW_HEALTH && this.bot.health > 0) {
      this.host.fire(this, `your health is low (${Math.round(this.bot.health)}/20)`, (signal) => this.#flee(signal), ESCAPE_MS);
    }
  }

  #releaseJump(): void {
    if (!this.#holdingJump) return;
    this.#holdingJump = false;
    this.bot.setControlState('jump', false);
  }

  /** Walks to the nearest safe block; falls back to steering there by hand (e.g. from inside lava). */
  async #escape(signal: AbortSignal, done: string): Promise<string> {
    const target = nearestSafeStand(this.bot, 4);
    if (!target) {
      await this.#flee(signal);
      return 'No safe block nearby; moved away.';
    }
    try {
      await goTo(this.bot, new goals.GoalBlock(target.x, target.y, target.z), AbortSignal.any([signal, AbortSignal.timeout(4_000)]));
    } catch (err) {
      throwIfAborted(signal);
      this.host.log(`self_preservation: pathfinder failed (${(err as Error).message}); steering by hand`);
    }
    if (!this.#safeHere()) await this.#steer(target, signal);
    return this.#safeHere() ? done : 'Tried to get to safety but could not.';
  }

  #safeHere(): boolean {
    return isSafeStand(this.bot, this.bot.entity.position.floored());
  }

  /** Faces `target` and walks and jumps toward it until the bot stands safely (at most 4 s). */
  async #steer(target: Vec3, signal: AbortSignal): Promise<void> {
    const centre = target.offset(0.5, 0, 0.5);
    try {
      for (let i = 0; i < 40 && !this.#safeHere(); i++) {
        await this.bot.lookAt(centre.offset(0, this.bot.entity.height, 0), true);
        this.bot.setControlState('forward', true);
        this.bot.setControlState('jump', true);
        this.bot.setControlState('sprint', true);
        await sleep(100, signal);
      }
    } finally {
      this.bot.clearControlStates();
    }
  }

  /** Runs away from the nearest hostile mob (or just away from here) for a few seconds. */
  async #flee(signal: AbortSignal): Promise<string> {
    const threat = nearestEntity(this.bot, 16, isHostile);
    const from = threat?.position ?? this.bot.entity.position;
    try {
      await goTo(
        this.bot,
        new goals.GoalInvert(new goals.GoalNear(from.x, from.y, from.z, 12)),
        AbortSignal.any([signal, AbortSignal.timeout(6_000)]),
      );
    } catch (err) {
      throwIfAborted(signal);
    }
    return threat ? `Ran away from the ${threat.name}.` : 'Moved away to recover.';
  }
}
