/**
 * What a skill, and so a command, reports: an {@link Outcome}, data first. Its `text` is what the
 * model and the player read; its `code` and `data` are what code reads (the offline policy, the
 * coordination strategies, the MCP server, the run records). Nothing downstream parses `text`:
 * rewording it changes no decision.
 *
 * A skill reports a failure either by returning a failed outcome ({@link failure}) or by throwing
 * a {@link SkillError}; anything else it throws becomes code `failed`. The action runner adds
 * `interrupted` and `timeout` for actions stopped from outside or by their time bound.
 */
import type { Counts } from '../game/production.ts';
import type { BlueprintCheckData } from '../tasks/blueprint.ts';

/**
 * The outcome codes, each with what it means. A small, closed set: add one only when code must
 * tell a new case apart (document it here).
 */
export const OUTCOME_CODES = {
  ok: 'it did what was asked',
  partial: 'it did part of what was asked; `data` says how much (e.g. a hand-over only partly picked up)',
  not_found: 'nothing of the kind named (a block, item, mob, player, bot, container, recipe or place) in range; `data.sought`',
  unreachable: 'no path to the target, or the bot could not get within reach of it in time',
  missing_items: 'the bot lacks what it needs (ingredients, a tool, fuel, the block to place); `data.missing` or `data.tools`',
  refused_by_server: 'the server did not do what the bot asked (a placement, dig, craft or pickup it refused or undid)',
  invalid: 'the request makes no sense here (not a block, yourself as the recipient, a position outside the world)',
  unavailable: 'the agent lacks a capability the command needs (vision off, no coding model, no blueprint, no memory of places)',
  interrupted: 'stopped from outside: `!stop`, a newer action, a mode, a teammate, the bot leaving the server',
  timeout: 'its time bound passed before it finished',
  failed: 'anything else went wrong; `text` says what',
} as const satisfies Record<string, string>;

/** One of {@link OUTCOME_CODES}. */
export type OutcomeCode = keyof typeof OUTCOME_CODES;

/** A block position, whole blocks. */
export interface BlockPos {
  x: number;
  y: number;
  z: number;
}

/** What a `not_found` outcome looked for. */
export interface Sought {
  kind: 'block' | 'item' | 'mob' | 'player' | 'bot' | 'container' | 'recipe' | 'place';
  /** The name asked for (`oak_log`, `Jill`, `furnace`). */
  name: string;
  /** How far it looked, in blocks, when bounded. */
  range?: number;
}

/**
 * A hand-over (`!givePlayer`): what was tossed and where it went. `received < count` means it went
 * (partly) astray: `takenBy` others, `takenBack` by the giver, the rest still `lying` on the ground.
 */
export interface HandOver {
  /** The recipient. */
  to: string;
  item: string;
  /** Items tossed. */
  count: number;
  /** Items the recipient picked up. */
  received: number;
  /** Items others picked up instead: player name → count. */
  takenBy: Record<string, number>;
  /** Items the giver picked back up. */
  takenBack: number;
  /** The block the first stack still on the ground lies in, if any does. */
  lying?: BlockPos;
  /** What the giver holds of `item` afterwards. */
  left: number;
}

/**
 * A blueprint check's data (`!checkBlueprintLevel`, `!checkBlueprint`): `level`, `complete`, the
 * `changes` in the order the text lists them (each a {@link CellChange}: `place`, `remove`,
 * `replace`, or `unseen` for a cell whose chunk is not loaded), and for the whole blueprint each
 * level's check and the construction score. Declared beside the check in `src/tasks/blueprint.ts`,
 * which builds the data and writes the text from it.
 */
export type { BlueprintCheckData, CellChange } from '../tasks/blueprint.ts';

/**
 * Structured facts of an outcome. Every field is optional and means the same for every command;
 * the command's docs say which it fills.
 */
export interface OutcomeData {
  /** Items that came into the inventory by this action: item → count. */
  gained?: Counts;
  /** Items that left the inventory by this action (used, placed, given, dropped): item → count. */
  spent?: Counts;
  /** Items the bot lacks to do it (code `missing_items`): item → count. */
  missing?: Counts;
  /** Tools of which the bot needs one (code `missing_items`), e.g. `['wooden_pickaxe', 'stone_pickaxe']`. */
  tools?: string[];
  /**
   * A scaffold the placement needs (code `missing_items` from `!placeBlockAt`): how many blocks of
   * any kind that drops itself (dirt, planks, logs) the bot must carry besides the block placed.
   */
  scaffold?: { blocks: number };
  /** What was looked for and not found (code `not_found`). */
  sought?: Sought;
  /** The block position acted on: placed at, dug at, refused at, walked to. */
  position?: BlockPos;
  /** A hand-over's report. */
  handOver?: HandOver;
  /** A blueprint check's result. */
  blueprint?: BlueprintCheckData;
  /** The other bot of a conversation command. */
  partner?: string;
  /** The inventory after the action (a query of it, or where a command reports it): item → count. */
  inventory?: Counts;
  /** The villager traded with or looked at (`!showVillagerTrades`, `!tradeWithVillager`). */
  villager?: { id: number; profession: string; level: number };
  /** A villager's offers (`!showVillagerTrades`), or the one asked for (`!tradeWithVillager`). */
  trades?: TradeOffer[];
  /** How many times a trade was done (`!tradeWithVillager`). */
  traded?: number;
  /**
   * A lever, button or pressure plate after `!activate`: its block name, whether it gives a signal,
   * the signal 0–15, and for a button the game ticks until it releases.
   */
  signal?: { name: string; powered: boolean; power: number; releasesInTicks?: number };
}

/** One offer of a villager, as the trading commands report it. */
export interface TradeOffer {
  /** 1-based, the `index` of `!tradeWithVillager`. */
  index: number;
  /** What the villager wants, at its current price. */
  buy: { item: string; count: number };
  /** A second item it wants too, if any. */
  buy2?: { item: string; count: number };
  /** What it gives. */
  sell: { item: string; count: number };
  /** Times traded since it last restocked. */
  uses: number;
  /** Times it can be traded before it restocks. */
  maxUses: number;
  /** Out of stock: used `maxUses` times. */
  disabled: boolean;
}

/** What a skill or command reports. */
export interface Outcome {
  /** It did what was asked (codes `ok` and, by itself, nothing else). */
  ok: boolean;
  code: OutcomeCode;
  /** For the model and the player: a short report, or what went wrong and what to do. */
  text: string;
  data?: OutcomeData;
}

/**
 * A run command's outcome: the {@link Outcome} plus which command it was.
 *
 * @example { command: '!collectBlocks', args: { type: 'oak_log', num: 3 }, ok: true, code: 'ok', text: 'Collected 3 oak_log.', data: { gained: { oak_log: 3 } } }
 */
export interface CommandOutcome extends Outcome {
  /** The command's name with the bang, e.g. `!collectBlocks`. */
  command: string;
  /** Its arguments by parameter name, as the parser converted them. */
  args: Readonly<Record<string, unknown>>;
}

/**
 * A skill's typed failure: thrown where returning is awkward (deep in a routine); the command
 * layer turns it into the outcome `{ ok: false, code, text: message, data }`.
 *
 * @example throw new SkillError('missing_items', 'You have no oak_planks.', { missing: { oak_planks: 1 } });
 */
export class SkillError extends Error {
  override readonly name = 'SkillError';
  readonly code: Exclude<OutcomeCode, 'ok'>;
  readonly data: OutcomeData | undefined;

  constructor(code: Exclude<OutcomeCode, 'ok'>, message: string, data?: OutcomeData) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** A successful outcome. */
export function done(text: string, data?: OutcomeData): Outcome {
  return data ? { ok: true, code: 'ok', text, data } : { ok: true, code: 'ok', text };
}

/** A failed (or `partial`) outcome. */
export function failure(code: Exclude<OutcomeCode, 'ok'>, text: string, data?: OutcomeData): Outcome {
  return data ? { ok: false, code, text, data } : { ok: false, code, text };
}

/**
 * The outcome of an error a skill threw: a {@link SkillError} keeps its code and data; anything
 * else is `failed` with the error's message.
 *
 * @param prefix put before the message, e.g. `!craftRecipe failed: `.
 */
export function outcomeOfError(err: unknown, prefix = ''): Outcome {
  if (err instanceof SkillError) return failure(err.code, `${prefix}${err.message}`, err.data);
  const message = err instanceof Error ? err.message : String(err);
  return failure('failed', `${prefix}${message}`);
}

/** True for a value shaped as an {@link Outcome} (a skill's or command's report). */
export function isOutcome(value: unknown): value is Outcome {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Outcome>;
  return typeof v.ok === 'boolean' && typeof v.text === 'string' && typeof v.code === 'string' && v.code in OUTCOME_CODES;
}
