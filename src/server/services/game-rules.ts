/**
 * Per-server game rules of the mechanics (vanilla game rules and test knobs), read by the
 * features that apply them (crops, hunger). Defaults are vanilla's.
 */
import type { SquidServer } from '../types.ts';

/** Tunable rules of one server. Defaults are vanilla's. */
export interface MechanicsOptions {
  /**
   * vanilla game rule `randomTickSpeed`: random ticks per 16×16×16 section per game tick
   * (default 3, so a given block gets one about every 1365 ticks ≈ 68 s). Crops grow on random
   * ticks. Tests raise it (e.g. 4096 = every crop gets about one random tick per game tick).
   */
  randomTickSpeed: number;
  /**
   * Multiplies every exhaustion increase (vanilla 1). Test-only knob to drain food quickly;
   * 0 disables hunger drain.
   */
  exhaustionMultiplier: number;
  /** vanilla game rule `naturalRegeneration` (default true): heal from food. */
  naturalRegeneration: boolean;
}

const DEFAULTS: MechanicsOptions = { randomTickSpeed: 3, exhaustionMultiplier: 1, naturalRegeneration: true };
const optionsByServer = new WeakMap<SquidServer, MechanicsOptions>();

/** The live settings of a server (defaults before {@link configureMechanics} is called). */
export function mechanicsOptions(serv: SquidServer): MechanicsOptions {
  let options = optionsByServer.get(serv);
  if (!options) {
    options = { ...DEFAULTS };
    optionsByServer.set(serv, options);
  }
  return options;
}

/**
 * Changes some settings of a running server; takes effect on the next tick.
 *
 * @example configureMechanics(server.serv, { randomTickSpeed: 4096 }) // crops grow in seconds
 * @throws RangeError for a negative or non-finite number.
 */
export function configureMechanics(serv: SquidServer, changes: Partial<MechanicsOptions>): MechanicsOptions {
  for (const [key, value] of Object.entries(changes)) {
    if (typeof value === 'number' && (!Number.isFinite(value) || value < 0))
      throw new RangeError(`${key} must be a number >= 0, got ${value}`);
  }
  return Object.assign(mechanicsOptions(serv), changes);
}

/**
 * Vanilla 1.21 game rules (Minecraft wiki "Game rule", Java Edition defaults) that `/gamerule`
 * reads and sets. `randomTickSpeed` and `naturalRegeneration` live in {@link MechanicsOptions}
 * and are shared with it. The features that apply a rule read it with {@link gameRule}.
 */
export const GAME_RULE_DEFAULTS = {
  announceAdvancements: true,
  commandBlockOutput: true,
  disableElytraMovementCheck: false,
  disableRaids: false,
  doDaylightCycle: true,
  doEntityDrops: true,
  doFireTick: true,
  doImmediateRespawn: false,
  doInsomnia: true,
  doLimitedCrafting: false,
  doMobLoot: true,
  doMobSpawning: true,
  doPatrolSpawning: true,
  doTileDrops: true,
  doTraderSpawning: true,
  doVinesSpread: true,
  doWardenSpawning: true,
  doWeatherCycle: true,
  drowningDamage: true,
  fallDamage: true,
  fireDamage: true,
  forgiveDeadPlayers: true,
  freezeDamage: true,
  keepInventory: false,
  logAdminCommands: true,
  maxCommandChainLength: 65536,
  /** Contexts a command may fork into (`execute as @a as @a …`), vanilla 1.20.3+ (wiki "Game rule"). */
  maxCommandForkCount: 65536,
  maxEntityCramming: 24,
  mobGriefing: true,
  naturalRegeneration: true,
  playersSleepingPercentage: 100,
  randomTickSpeed: 3,
  reducedDebugInfo: false,
  sendCommandFeedback: true,
  showDeathMessages: true,
  spawnRadius: 10,
  spectatorsGenerateChunks: true,
  universalAnger: false,
} as const;

/** Name of a vanilla game rule. */
export type GameRuleName = keyof typeof GAME_RULE_DEFAULTS;
/** A game rule's value: boolean or integer, as its default. */
export type GameRuleValue<K extends GameRuleName> = (typeof GAME_RULE_DEFAULTS)[K] extends boolean ? boolean : number;

const rulesByServer = new WeakMap<SquidServer, Record<string, boolean | number>>();
/** Listeners told when a rule changes (the features that apply a rule at once, e.g. the day cycle). */
const ruleListeners = new WeakMap<SquidServer, Array<(name: GameRuleName, value: boolean | number) => void>>();

function rulesOf(serv: SquidServer): Record<string, boolean | number> {
  let rules = rulesByServer.get(serv);
  if (!rules) {
    rules = { ...GAME_RULE_DEFAULTS };
    rulesByServer.set(serv, rules);
  }
  return rules;
}

/** True when `name` is a vanilla game rule we know. */
export function isGameRule(name: string): name is GameRuleName {
  return Object.hasOwn(GAME_RULE_DEFAULTS, name);
}

/** The current value of a game rule on this server. */
export function gameRule<K extends GameRuleName>(serv: SquidServer, name: K): GameRuleValue<K> {
  if (name === 'randomTickSpeed') return mechanicsOptions(serv).randomTickSpeed as GameRuleValue<K>;
  if (name === 'naturalRegeneration') return mechanicsOptions(serv).naturalRegeneration as GameRuleValue<K>;
  return rulesOf(serv)[name] as GameRuleValue<K>;
}

/**
 * Sets a game rule and tells the listeners ({@link onGameRuleChange}).
 *
 * @throws TypeError when the value's type is not the rule's (boolean or integer).
 */
export function setGameRule(serv: SquidServer, name: GameRuleName, value: boolean | number): void {
  if (typeof value !== typeof GAME_RULE_DEFAULTS[name])
    throw new TypeError(`game rule ${name} takes a ${typeof GAME_RULE_DEFAULTS[name]}, got ${String(value)}`);
  if (name === 'randomTickSpeed') configureMechanics(serv, { randomTickSpeed: value as number });
  else if (name === 'naturalRegeneration') configureMechanics(serv, { naturalRegeneration: value as boolean });
  else rulesOf(serv)[name] = value;
  for (const listener of ruleListeners.get(serv) ?? []) listener(name, value);
}

/** Calls `listener` whenever a game rule of this server is set. */
export function onGameRuleChange(serv: SquidServer, listener: (name: GameRuleName, value: boolean | number) => void): void {
  const list = ruleListeners.get(serv) ?? [];
  list.push(listener);
  ruleListeners.set(serv, list);
}

const checkpoints = new WeakMap<SquidServer, MechanicsOptions>();

/** Takes note of the mechanics' settings, for {@link resetMechanics}. */
export function checkpointMechanics(serv: SquidServer): void {
  checkpoints.set(serv, { ...mechanicsOptions(serv) });
}

/** The mechanics' settings back as at the checkpoint (the warm world's reset). */
export function resetMechanics(serv: SquidServer): void {
  const saved = checkpoints.get(serv);
  if (saved) configureMechanics(serv, saved);
}
