/**
 * item_collecting: when idle, walk over dropped items within 8 blocks to pick them up. Reacts to
 * item entities appearing (`entitySpawn`). Items the bot threw itself (a discard, a hand-over: see
 * `tossItems`) are never picked up again. Items that are someone else's are left alone for
 * {@link ItemCollecting.graceMs} ({@link TOSS_GRACE_MS} by default) and taken only if still lying
 * there afterwards: those that appear at a player's hands (thrown, most likely to someone: a
 * hand-over between bots is never stolen) and those that appear within a player's reach and
 * nearer that player than this bot, or where another player was just seen digging (what they dug
 * or killed: an idle teammate does not take a harvest from the one who is gathering it); the drop
 * of the bot's own dig is its own wherever it lands. An item
 * another player threw that comes to rest within {@link MINE_RADIUS} of this bot, nearer it than
 * anyone else, was thrown to it: it is taken at once (a hand-over that fell just out of reach).
 */
import type { Block } from 'prismarine-block';
import type { Entity } from 'prismarine-entity';
import type { Vec3 } from 'vec3';
import pathfinderPkg from 'mineflayer-pathfinder';
import { isOwnToss } from '../../skills/items.ts';
import { goTo } from '../../skills/movement.ts';
import { sleep, throwIfAborted } from '../../util/abort.ts';
import { distanceTo, Mode } from './mode.ts';

const { goals } = pathfinderPkg;

/** Items closer than this are collected (blocks). */
export const COLLECT_RANGE = 8;
/** Thrown items are left for their recipient this long (ms): longer than a hand-over's wait (8 s). */
export const TOSS_GRACE_MS = 10_000;
/** An item that spawns this close to a player's eyes was thrown by that player (blocks). */
const TOSS_RADIUS = 1.2;
/** An item that spawns this close to another player, and nearer them than the bot, is theirs (blocks): a player's dig reach (4.5) and a drop's scatter. */
const CLAIM_RADIUS = 5;
/**
 * An item that appears within this distance of a block another player was seen digging (their
 * break animation) is that dig's drop (blocks): a drop spawns within a quarter block of the block's
 * centre, and a block falls or rolls a little before it is seen.
 */
const DIG_DROP_RADIUS = 2;
/** How long after another player's dig was last seen its drop is still looked for (ms). */
const DIG_DROP_MS = 3_000;
/** A thrown item is first looked at this long after it appears (ms): a throw flies under a second. */
const SETTLE_MS = 1_500;
/** A thrown item still moving then is looked at again this often (ms), until it rests or its grace is over. */
const SETTLE_AGAIN_MS = 250;
/** An item that moved less than this between two looks rests (blocks). */
const AT_REST = 0.01;
/** A thrown item that comes to rest this close to the bot, nearer it than any other player, was thrown to it (blocks). */
export const MINE_RADIUS = 2.5;

/** A dig seen: the centre of its block, and when (ms). */
interface SeenDig {
  at: Vec3;
  seen: number;
}

/** Notes a dig of `block` in `digs` (and forgets those older than {@link DIG_DROP_MS}). */
function noteDig(digs: Map<string, SeenDig>, block: Block | null): void {
  if (!block) return;
  const now = Date.now();
  for (const [key, dig] of digs) if (now - dig.seen > DIG_DROP_MS) digs.delete(key);
  digs.set(block.position.toString(), { at: block.position.offset(0.5, 0.5, 0.5), seen: now });
}

/** Whether `item` appeared where one of `digs` was, lately: that dig's drop. */
function dropOf(digs: ReadonlyMap<string, SeenDig>, item: Entity): boolean {
  const now = Date.now();
  return [...digs.values()].some((dig) => now - dig.seen <= DIG_DROP_MS && dig.at.distanceTo(item.position) <= DIG_DROP_RADIUS);
}

export class ItemCollecting extends Mode {
  readonly name = 'item_collecting';
  readonly description = `When idle, pick up items lying within ${COLLECT_RANGE} blocks.`;
  override readonly interrupts = ['!followPlayer'] as const;
  /** How long someone else's item is left alone (ms); tests shorten it. */
  graceMs = TOSS_GRACE_MS;
  /** Item entity id → time before which it is left alone. */
  readonly #thrown = new Map<number, number>();
  #graceTimer: NodeJS.Timeout | undefined;
  /** Timers that look where another player's throw came to rest. */
  readonly #settling = new Set<NodeJS.Timeout>();
  /** Blocks other players were seen digging, by "x,y,z", for {@link DIG_DROP_MS}. */
  readonly #othersDigs = new Map<string, SeenDig>();
  /** The blocks this bot dug, likewise. */
  readonly #ownDigs = new Map<string, SeenDig>();

  protected attach(): void {
    // The server shows a dig's progress to everyone but the digger: those digs are someone else's.
    const seeOthersDig = (block: Block | null) => noteDig(this.#othersDigs, block);
    this.listen('blockBreakProgressObserved', seeOthersDig);
    this.listen('blockBreakProgressEnd', seeOthersDig);
    this.listen('diggingCompleted', (block: Block) => noteDig(this.#ownDigs, block));
    this.listen('entitySpawn', (entity: Entity) => {
      if (entity.name !== 'item') return;
      this.host.tally();
      const whose = this.#whose(entity);
      if (whose) {
        this.#thrown.set(entity.id, Date.now() + this.graceMs);
        this.#recheckAfterGrace();
        if (whose === 'thrown') this.#lookWhereItRests(entity.id);
        return;
      }
      if (this.host.mayAct(this) && distanceTo(this.bot, entity) <= COLLECT_RANGE && !isOwnToss(this.bot, entity.id)) this.#collect(entity);
    });
    this.listen('entityGone', (entity: Entity) => {
      this.#thrown.delete(entity.id);
    });
  }

  protected override detached(): void {
    clearTimeout(this.#graceTimer);
    this.#graceTimer = undefined;
    for (const timer of this.#settling) clearTimeout(timer);
    this.#settling.clear();
    this.#thrown.clear();
    this.#othersDigs.clear();
    this.#ownDigs.clear();
  }

  /**
   * Once another player's throw has come to rest: taken at once if it was thrown to this bot. A
   * throw still moving when first looked at (a busy server runs its ticks late) is looked at again
   * until it rests, within its grace.
   */
  #lookWhereItRests(id: number, delayMs = SETTLE_MS, seenAt?: Vec3): void {
    const timer = setTimeout(() => {
      this.#settling.delete(timer);
      const item = this.bot.entities[id];
      if (!item || !this.#thrown.has(id)) return;
      const at = item.position.clone();
      const moved = !seenAt || at.distanceTo(seenAt) >= AT_REST;
      if (moved && Date.now() + SETTLE_AGAIN_MS < (this.#thrown.get(id) ?? 0)) {
        this.#lookWhereItRests(id, SETTLE_AGAIN_MS, at);
        return;
      }
      const mine = distanceTo(this.bot, item);
      if (mine > MINE_RADIUS) return;
      for (const player of Object.values(this.bot.players)) {
        const e = player.entity;
        if (e && e !== this.bot.entity && e.position && item.position.distanceTo(e.position) <= mine) return;
      }
      this.#thrown.delete(id);
      this.check();
    }, delayMs);
    timer.unref();
    this.#settling.add(timer);
  }

  override check(): void {
    if (!this.host.mayAct(this)) return;
    this.host.tally();
    const now = Date.now();
    let best: Entity | undefined;
    let bestDistance = COLLECT_RANGE;
    for (const entity of Object.values(this.bot.entities)) {
      if (entity.name !== 'item' || (this.#thrown.get(entity.id) ?? 0) > now || isOwnToss(this.bot, entity.id)) continue;
      const d = distanceTo(this.bot, entity);
      if (d <= bestDistance) {
        best = entity;
        bestDistance = d;
      }
    }
    if (best) this.#collect(best);
  }

  /**
   * Whose the item is: `thrown` when it appeared at another player's hands, `own` at this bot's
   * (its own toss), `claimed` when it appeared within {@link CLAIM_RADIUS} of another player and
   * nearer them than this bot, or where another player was just digging (a log dug from a tree
   * top lands nearer the idle bot than the one who dug it); undefined for anyone's, and for the
   * drop of this bot's own dig.
   */
  #whose(item: Entity): 'thrown' | 'own' | 'claimed' | undefined {
    const mine = distanceTo(this.bot, item);
    // The drop of a dig: the digger's, wherever it lands.
    if (dropOf(this.#ownDigs, item)) return undefined;
    let claimed = dropOf(this.#othersDigs, item);
    for (const player of Object.values(this.bot.players)) {
      const e = player.entity;
      if (!e?.position) continue;
      const dx = item.position.x - e.position.x;
      const dy = item.position.y - (e.position.y + 1.3);
      const dz = item.position.z - e.position.z;
      if (dx * dx + dy * dy + dz * dz <= TOSS_RADIUS * TOSS_RADIUS) return e === this.bot.entity ? 'own' : 'thrown';
      if (e !== this.bot.entity) {
        const theirs = item.position.distanceTo(e.position);
        if (theirs <= CLAIM_RADIUS && theirs < mine) claimed = true;
      }
    }
    return claimed ? 'claimed' : undefined;
  }

  /** One timer for the earliest grace to end, so a thrown item nobody took is collected later. */
  #recheckAfterGrace(): void {
    if (this.#graceTimer) return;
    const next = Math.min(...this.#thrown.values());
    this.#graceTimer = setTimeout(
      () => {
        this.#graceTimer = undefined;
        if (this.#thrown.size) {
          const now = Date.now();
          for (const [id, until] of this.#thrown) if (until <= now) this.#thrown.delete(id);
          if (this.#thrown.size) this.#recheckAfterGrace();
        }
        this.check();
      },
      Math.max(0, next - Date.now()) + 50,
    );
    this.#graceTimer.unref();
  }

  #collect(item: Entity): void {
    this.host.fire(
      this,
      'an item is lying nearby',
      async (signal) => {
        const gone = () => !this.bot.entities[item.id];
        const name = item.getDroppedItem?.()?.name ?? 'item';
        try {
          const p = item.position;
          await goTo(this.bot, new goals.GoalNear(p.x, p.y, p.z, 0), AbortSignal.any([signal, AbortSignal.timeout(8_000)]));
        } catch {
          throwIfAborted(signal);
        }
        for (let i = 0; i < 20 && !gone(); i++) await sleep(100, signal); // the server's pickup
        return gone() ? `Picked up ${name}.` : `Could not reach the ${name}.`;
      },
      12_000,
    );
  }
}
