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
    if (typeof value === 'number' && (!Number.isFinite(value) || value < 0)) throw new RangeError(`${key} must be a number >= 0, got ${value}`);
  }
  return Object.assign(mechanicsOptions(serv), changes);
}
