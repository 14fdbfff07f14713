/**
 * The policy's VillagerBench farm-to-table cooking (`AgentTask.shareIngredients`): the dish's
 * ingredients are shared out among the team, each agent gets and makes its part from the world
 * the task supplies (chests, farms, pastures, the furnace: `./work.ts`'s item work) and hands it to
 * the cook, who makes the dish. Every agent computes the same split from its task data (the dish,
 * the team, the supplies), so no message is needed.
 *
 * The split is for the agent contribution rate (VillagerAgent eq. 8–9: each checkpoint item counts
 * for the agent that held it first): the cook is the first teammate by name and counts the dish;
 * the ingredients go, the costliest first, to the member with the fewest items to hold so far
 * (those smelted together, to one member: one furnace). Each part is handed over once held.
 */
import type { GameData } from '../game/data.ts';
import { type Counts, planProduction, type ProductionSources, supplySource, type WorldSupplies } from '../game/production.ts';
import type { OracleMemory } from './memory.ts';
import type { Observation } from './observation.ts';
import { CHEST_BLOCKS } from '../skills/containers.ts';
import { workToward } from './work.ts';

/**
 * How many times an agent waits for what it cannot do yet (a cook for its teammates'
 * ingredients, a worker for a hunt's animal to come in reach) before it stops: 120 waits of
 * 2–3 s, about 5 minutes, less than any cooking budget (200 s per unit of complexity).
 */
const MAX_WAITS = 120;

/** Blocks an agent uses besides its supplies: where it crafts, cooks and takes from. */
const STATIONS: ReadonlySet<string> = new Set(['crafting_table', 'furnace', 'smoker', 'blast_furnace', ...CHEST_BLOCKS]);

/** Who makes what: the cook, and each member's ingredients to get and hand over (the cook keeps its own). */
export interface CookingSplit {
  cook: string;
  /** Member → its ingredients (item → count); every member has an entry, maybe empty. */
  shares: Record<string, Counts>;
  /** The dish's ingredients (item → count), the union of the shares. */
  ingredients: Counts;
}

/**
 * Shares out `targets`' ingredients among `team` (see the module comment). The ingredients are
 * those of the crafting (or smelting) steps that make the targets, as minecraft-data's recipes
 * give them, planned with `supplies` alone (a crafting table and a furnace at hand), so that every
 * member computes the same split whatever it sees.
 *
 * @param team the members' names (any order; sorted here).
 * @returns the split; with no ingredient found (a target the supplies give directly), the cook
 *   gets the targets themselves.
 * @throws RangeError for an empty team.
 */
export function splitIngredients(data: GameData, team: readonly string[], targets: Counts, supplies: WorldSupplies): CookingSplit {
  if (team.length === 0) throw new RangeError('splitIngredients: the team is empty; give at least one member');
  const members = [...team].sort((a, b) => a.localeCompare(b));
  const cook = members[0]!;
  const sources = suppliedSources(supplies);
  const ingredients: Counts = {};
  for (const step of planProduction(data, {}, targets, sources).steps) {
    if (!(step.item in targets)) continue;
    const inputs = step.kind === 'craft' ? step.ingredients : step.kind === 'smelt' ? { [step.input]: step.count } : {};
    for (const [item, n] of Object.entries(inputs)) ingredients[item] = (ingredients[item] ?? 0) + n;
  }
  const shares: Record<string, Counts> = Object.fromEntries(members.map((m) => [m, {}]));
  if (Object.keys(ingredients).length === 0) {
    shares[cook] = { ...targets };
    return { cook, shares, ingredients: { ...targets } };
  }
  // Items a member holds first while getting an ingredient: what its plan gathers, crafts and
  // smelts. The ingredients smelted go to one member: the yard has one furnace, and two members
  // smelting in it at once take each other's results.
  const units: { items: Counts; made: Set<string> }[] = [];
  const smelted: { items: Counts; made: Set<string> } = { items: {}, made: new Set() };
  for (const [item, n] of Object.entries(ingredients)) {
    const steps = planProduction(data, {}, { [item]: n }, sources).steps;
    const unit = steps.some((s) => s.kind === 'smelt') ? smelted : { items: {}, made: new Set<string>() };
    unit.items[item] = n;
    for (const s of steps) unit.made.add(s.item);
    if (unit !== smelted) units.push(unit);
  }
  if (Object.keys(smelted.items).length > 0) units.push(smelted);
  const weight = (u: { made: Set<string> }) => Math.max(1, u.made.size);
  const first = (u: { items: Counts }) => Object.keys(u.items).sort()[0]!;
  units.sort((a, b) => weight(b) - weight(a) || first(a).localeCompare(first(b)));
  const load = new Map(members.map((m) => [m, m === cook ? Object.keys(targets).length : 0]));
  // Ties go to the cook last: its hands are full with the dish.
  const byTurn = [...members.slice(1), cook];
  for (const unit of units) {
    const who = byTurn.reduce((best, m) => (load.get(m)! < load.get(best)! ? m : best));
    Object.assign(shares[who]!, unit.items);
    load.set(who, load.get(who)! + weight(unit));
  }
  return { cook, shares, ingredients };
}

/** Sources from `supplies` alone, with a crafting table and an empty furnace at hand (as the farm yard has). */
function suppliedSources(supplies: WorldSupplies): ProductionSources {
  return {
    gather: (item) => (Object.hasOwn(supplies, item) ? supplySource(item, supplies[item]!) : undefined),
    smelt: true,
    fuelled: false,
    tableNearby: true,
  };
}

/** One agent's progress in a shared cooking task. */
export class SharedCooking {
  #split: CookingSplit | undefined;
  /** The cook has held its share: it waits for the rest and does not get it again. */
  #handing = false;
  /** Items of its share handed to the cook (tossed and not taken back), from the hand-overs' outcomes. */
  readonly #delivered: Counts = {};
  #waits = 0;
  #said = false;

  /**
   * The next reply of agent `obs.name` (see the module comment): its share's work, then its
   * hand-overs to the cook; the cook, once every ingredient is held, makes the dish.
   */
  decide(m: OracleMemory, obs: Observation, data: GameData): string {
    const targets = obs.targets ?? {};
    // The furnaces of a farm yard stand empty: smelting brings its own fuel (the chest's coal).
    m.unfuelled = true;
    const split = (this.#split ??= splitIngredients(data, m.team ?? [obs.name], targets, obs.task?.supplies ?? {}));
    for (const r of obs.records) {
      const handOver = r.kind === 'outcome' && r.outcome.command === '!givePlayer' ? r.outcome.data?.handOver : undefined;
      // What left its hands counts as handed over, also when the cook did not pick it up at once:
      // the hand-over is put right (`./observe.ts`: the cook is told where it lies), not got again.
      if (handOver?.to === split.cook)
        this.#delivered[handOver.item] = (this.#delivered[handOver.item] ?? 0) + handOver.count - handOver.takenBack;
    }
    const share = split.shares[obs.name] ?? {};
    // A wait of 2 s, then 3, in turn: the agent's model loop ends on the third identical command
    // with the same outcome in a row (its `max_repeats`).
    const wait = () => (++this.#waits <= MAX_WAITS ? `!stay(${2 + (this.#waits % 2)})` : '');
    // The task's world only: its supplies and stations, not the pasture's fence posts for planks
    // (the chest holds the planks and the coal).
    const supplies = obs.task?.supplies ?? {};
    const blocks = new Set<string>(STATIONS);
    const mobs = new Set<string>();
    for (const supply of Object.values(supplies)) {
      if (supply.kind === 'block') blocks.add(supply.block);
      else if (supply.kind === 'hunt' || supply.kind === 'use') mobs.add(supply.mob);
    }
    obs = { ...obs, blocks: obs.blocks.filter((b) => blocks.has(b)), reachable: [], mobs: obs.mobs.filter((b) => mobs.has(b)) };
    if (obs.name !== split.cook) {
      if (Object.keys(share).length === 0) return '';
      // Each part is handed over once held (a teammate waiting on a hunt still gives its bowl);
      // what is handed over is not got again.
      const rest: Counts = {};
      for (const [item, n] of Object.entries(share)) {
        const left = n - (this.#delivered[item] ?? 0);
        if (left <= 0) continue;
        if ((obs.inventory[item] ?? 0) >= left) return `!givePlayer("${split.cook}", "${item}", ${left})`;
        rest[item] = left;
      }
      if (Object.keys(rest).length === 0) return this.#say(`I gave ${split.cook} my part of the ${Object.keys(targets).join(', ')}.`);
      return workToward(m, obs, data, rest, { done: () => '', short: wait });
    }
    // The cook: the dish once every ingredient has come (or it holds the dish); else its own part
    // (once held, it is not got again), then a wait for the rest.
    const all = Object.entries(split.ingredients).every(([item, n]) => (obs.inventory[item] ?? 0) >= n);
    const held = Object.entries(targets).every(([item, n]) => (obs.inventory[item] ?? 0) >= n);
    if (all || held)
      return workToward(m, obs, data, targets, { done: () => this.#say(`I made the ${Object.keys(targets).join(', ')}.`), short: wait });
    if (!this.#handing) {
      const next = workToward(m, obs, data, share, { done: () => '', short: wait });
      if (next) return next;
      this.#handing = Object.entries(share).every(([item, n]) => (obs.inventory[item] ?? 0) >= n);
      if (!this.#handing) return '';
    }
    return wait();
  }

  /** `text` once, then nothing. */
  #say(text: string): string {
    if (this.#said) return '';
    this.#said = true;
    return text;
  }
}
