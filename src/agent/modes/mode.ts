/**
 * What every mode shares: its switch, the host (the {@link ModeController}) it asks to act through,
 * and listeners that are attached only while the mode is on.
 */
import type { Bot, BotEvents } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import type { Block } from 'prismarine-block';
import { Vec3 } from 'vec3';

/** The mode names, in the order the reference checks them (earlier = more important). */
export const MODE_NAMES = [
  'self_preservation',
  'unstuck',
  'cowardice',
  'self_defense',
  'hunting',
  'item_collecting',
  'torch_placing',
  'elbow_room',
  'idle_staring',
  'cheat',
] as const;
export type ModeName = (typeof MODE_NAMES)[number];

/** A mode's action: honours `signal`, returns a short report for the model. */
export type ModeAction = (signal: AbortSignal) => Promise<string | undefined>;

/** What a mode may ask of its controller. */
export interface ModeHost {
  readonly bot: Bot;
  /** Label of the running action (an agent command like `!collectBlocks`, or `mode:<name>`), if any. */
  current(): string | undefined;
  /**
   * Whether `mode` may act now: it is on and not paused, and either it interrupts any action or
   * the bot is idle (or runs an action the mode may interrupt). Cheap; modes call it before
   * doing any work of their own.
   */
  mayAct(mode: Mode): boolean;
  /**
   * Asks to run `action` as the bot's action, labelled `mode:<name>`. The controller refuses when
   * the mode is off or paused, when this or a more important mode is already acting, or when the
   * mode only acts on an idle bot and the bot is busy.
   *
   * @param reason what the mode saw, told to the model of an interrupted action.
   * @returns whether the action was started.
   */
  fire(mode: Mode, reason: string, action: ModeAction, timeoutMs: number): boolean;
  /** Counts one evaluation of a mode's condition (for the cost figures in `stats`). */
  tally(): void;
  /** Counts one bot event delivered to a mode listener. */
  heard(): void;
  log(line: string): void;
}

type Listener<E extends keyof BotEvents> = BotEvents[E];

/**
 * Base of every mode. A subclass registers its bot listeners in {@link Mode.attach} through
 * {@link Mode.listen}; they are removed when the mode is switched off or disposed.
 */
export abstract class Mode {
  abstract readonly name: ModeName;
  /** One line for `!modes`. */
  abstract readonly description: string;
  /**
   * `all`: may interrupt any action (and cannot be cancelled by a newer ordinary one);
   * otherwise the command labels it may interrupt — it acts only on an idle bot or during those.
   */
  readonly interrupts: 'all' | readonly string[] = [];
  protected host!: ModeHost;
  readonly #detach: (() => void)[] = [];

  protected get bot(): Bot {
    return this.host.bot;
  }

  /** Switches the mode's listeners on. */
  start(host: ModeHost): void {
    this.host = host;
    this.attach();
  }

  /** Removes every listener and timer of the mode. */
  stop(): void {
    for (const off of this.#detach.splice(0)) off();
    this.detached();
  }

  /** Registers the mode's listeners (called on start). */
  protected abstract attach(): void;

  /** Extra clean-up on stop (timers, held controls). */
  protected detached(): void {}

  /**
   * Evaluates the mode's condition once, now, and fires if it holds. Called when the bot
   * becomes idle, after a mode's action, and when the mode is switched on — never on a timer.
   */
  check(): void {}

  /** Adds a bot listener that is removed on {@link stop}. */
  protected listen<E extends keyof BotEvents>(event: E, listener: Listener<E>): void {
    const counted = ((...args: unknown[]) => {
      this.host.heard();
      (listener as (...a: unknown[]) => void)(...args);
    }) as Listener<E>;
    this.bot.on(event, counted);
    this.#detach.push(() => this.bot.off(event, counted));
  }

  /** Adds a clean-up step run on {@link stop}. */
  protected onStop(fn: () => void): void {
    this.#detach.push(fn);
  }
}

/** Mobs that attack players: minecraft-data's `hostile` type and the hostile ones typed `mob`. */
const HOSTILE_MOBS = new Set(['ghast', 'magma_cube', 'phantom', 'shulker', 'slime', 'ender_dragon']);

/** Whether `entity` is a hostile mob (alive as far as the bot knows). */
export function isHostile(entity: Entity): boolean {
  return (entity.type === 'hostile' || HOSTILE_MOBS.has(entity.name ?? '')) && entity.isValid !== false;
}

/** Animals the reference hunts for food. */
const HUNTABLE = new Set(['chicken', 'cod', 'cow', 'llama', 'mooshroom', 'pig', 'rabbit', 'salmon', 'sheep']);

/** Whether `entity` is an animal worth hunting. */
export function isHuntable(entity: Entity): boolean {
  return HUNTABLE.has(entity.name ?? '') && entity.isValid !== false;
}

/** Distance from the bot to `entity`, or Infinity when either has no position. */
export function distanceTo(bot: Bot, entity: Entity): number {
  const me = bot.entity?.position;
  return me && entity.position ? me.distanceTo(entity.position) : Infinity;
}

/** The nearest entity matching `match` within `range`, scanning the bot's entity table once. */
export function nearestEntity(bot: Bot, range: number, match: (e: Entity) => boolean): Entity | undefined {
  let best: Entity | undefined;
  let bestDistance = range;
  for (const entity of Object.values(bot.entities)) {
    if (entity === bot.entity || !match(entity)) continue;
    const d = distanceTo(bot, entity);
    if (d <= bestDistance) {
      best = entity;
      bestDistance = d;
    }
  }
  return best;
}

const DANGEROUS = new Set(['lava', 'fire', 'soul_fire', 'magma_block', 'campfire', 'soul_campfire']);

/** Whether a block hurts whoever stands in it. */
export function isDangerous(block: Block | null): boolean {
  return !!block && DANGEROUS.has(block.name);
}

/** Whether a position is a safe place to stand: free feet and head, solid safe ground. */
export function isSafeStand(bot: Bot, feet: Vec3): boolean {
  const below = bot.blockAt(feet.offset(0, -1, 0));
  const at = bot.blockAt(feet);
  const head = bot.blockAt(feet.offset(0, 1, 0));
  const free = (b: Block | null) => !!b && b.boundingBox === 'empty' && !isDangerous(b) && b.name !== 'water';
  return !!below && below.boundingBox === 'block' && !isDangerous(below) && free(at) && free(head);
}

/**
 * The nearest safe place to stand within `radius` blocks (same level first, then one up or down),
 * or undefined. A one-off scan of at most (2r+1)² × 3 blocks, only when a mode has fired.
 */
export function nearestSafeStand(bot: Bot, radius: number): Vec3 | undefined {
  const feet = bot.entity.position.floored();
  const spots: Vec3[] = [];
  for (let dx = -radius; dx <= radius; dx++)
    for (let dz = -radius; dz <= radius; dz++) {
      if (dx === 0 && dz === 0) continue;
      for (const dy of [0, 1, -1]) spots.push(feet.offset(dx, dy, dz));
    }
  spots.sort((a, b) => a.distanceSquared(feet) - b.distanceSquared(feet));
  return spots.find((p) => isSafeStand(bot, p));
}
