/**
 * The policy's item work: a worker makes its plan's targets from what it holds and what the
 * world gives — crafting, smelting, gathering, and sowing back the crops it harvests with the
 * seeds it does not need (`!sow`) — and says what it still lacks when the team must help.
 */
import type { GameData } from '../game/data.ts';
import { recipeIngredients } from '../game/data.ts';
import { cropOf } from '../game/crops.ts';
import {
  addCounts,
  type Counts,
  formatCounts,
  planProduction,
  type ProductionPlan,
  type ProductionSources,
  type ProductionStep,
  type SkillCall,
  usableRecipes,
} from '../game/production.ts';
import { commandCall } from '../commands/skill-commands.ts';
import { MELEE_WEAPONS } from '../skills/combat.ts';
import type { Harvest, OracleMemory } from './memory.ts';
import { worldSources } from './sources.ts';
import type { Observation } from './observation.ts';
import { formatGave, formatShort } from './protocol.ts';
import { WAIT } from './retry.ts';
import { makeUp, type TeamContext } from './team.ts';

/** Farther than this from its set-up spot (blocks, horizontally), a worker goes back before saying it lacks something. */
const HOME_RADIUS = 12;
/** How often a worker waits and looks again after saying what it lacks. */
const SHORT_WAITS = 5;

/** The next step of this agent's item work, once its plan gives it targets. */
export function work(m: OracleMemory, obs: Observation, ctx: TeamContext): string {
  const targets = m.jobTargets(obs.name);
  if (Object.keys(targets).length === 0) return '';
  const share = m.share(obs.name);
  // Its share handed over, a helper tells the worker (who counted on it) and is done. A hand-over
  // that failed leaves the share here, for the worker's call for what it lacks (a share is spare).
  if (share && m.shareGiven) {
    if (m.shareSaid || (obs.inventory[share.item] ?? 0) >= share.count) return '';
    m.shareSaid = true;
    return `!startConversation("${share.to}", "${formatGave([share])}")`;
  }
  const done = () => {
    if (share) {
      // The share, made: to the worker, wherever it is (down a mine: !givePlayer walks there).
      // One cut short is made again (OracleMemory.giveAgain).
      m.shareGiven = true;
      m.giveAgain = () => {
        m.shareGiven = false;
      };
      return commandCall({ skill: 'givePlayer', args: { player_name: share.to, item_name: share.item, num: share.count } });
    }
    if (m.finishedSaid) return '';
    m.finishedSaid = true;
    return `I have ${formatCounts(targets)}.`;
  };
  const short = (lacking: Counts, left: Counts) => teamShort(m, obs, ctx, lacking, left);
  return workToward(m, obs, ctx.data, targets, { done, short }, m.sharesDue(obs.name));
}

/** What a worker does at the end of its work: when it holds the targets, and when it lacks items the world does not give. */
export interface WorkEnds {
  done(): string;
  /** `lacking`: the items it cannot make or gather; `left`: the targets still to make. */
  short(lacking: Counts, left: Counts): string;
}

/** Waits (`!stay`) for helpers' shares, once all else is made, before a worker makes them itself. */
const SHARE_WAITS = 30;

/**
 * The next step toward holding `targets`: sow back a harvested crop, craft, smelt or gather;
 * `ends.done()` once they are held, `ends.short()` when something they need is neither held nor
 * to be had from the world.
 *
 * @param due items teammates are making for this agent (helpers' shares): planned as held, and
 *   waited for ({@link SHARE_WAITS} times) when the next step needs them.
 */
export function workToward(m: OracleMemory, obs: Observation, data: GameData, targets: Counts, ends: WorkEnds, due: Counts = {}): string {
  // A crop harvested by the last command is sown back, once, with the seeds the work left
  // does not use.
  const harvest = m.harvest;
  m.harvest = undefined;
  const left: Counts = {};
  for (const [item, n] of Object.entries(targets)) if ((obs.inventory[item] ?? 0) < n) left[item] = n - (obs.inventory[item] ?? 0);
  if (Object.keys(left).length === 0) {
    const sowing = harvest && sowBack(obs, harvest, (obs.inventory[harvest.seed] ?? 0) - (targets[harvest.seed] ?? 0));
    return sowing || ends.done();
  }
  // No room here to place a table or furnace (the bottom of a one-wide shaft): a few blocks off
  // along the level first, which digs a tunnel whose floor takes the block (walking off any way,
  // the bot may climb the shaft and find no more room there).
  if (m.cramped) {
    m.cramped = false;
    const at = obs.position;
    return at
      ? commandCall({
          skill: 'goToCoordinates',
          args: { x: Math.floor(at.x) + ROOM_DISTANCE, y: Math.floor(at.y), z: Math.floor(at.z), closeness: 0 },
        })
      : commandCall({ skill: 'moveAway', args: { distance: ROOM_DISTANCE } });
  }
  // Keep the targets already held out of the ingredients; count the shares to come.
  const stock = addCounts(obs.inventory, due);
  for (const [item, n] of Object.entries(targets)) stock[item] = Math.max(0, (stock[item] ?? 0) - n);
  const sources = worldSources(m, obs, data);
  const next = planProduction(data, stock, left, sources);
  const sowing = harvest && sowBack(obs, harvest, (stock[harvest.seed] ?? 0) - (next.consumed[harvest.seed] ?? 0));
  if (sowing) return sowing;
  let lacking = next.missing;
  if (
    Object.keys(lacking).length > 0 &&
    next.steps.some((s) => s.kind === 'craft' && s.item === 'crafting_table') &&
    !left.crafting_table
  ) {
    // Short, and a table would be made too: it asks for the table itself (a teammate holds one;
    // one that holds planks gives those instead).
    lacking = { ...planProduction(data, stock, left, { ...sources, tableNearby: true }).missing, crafting_table: 1 };
  }
  if (Object.keys(lacking).length > 0) return ends.short(lacking, left);
  const planned = beforeFurnace(data, stock, left, sources, next, obs.inventory) ?? pickStep(data, next.steps, obs.inventory);
  if (!planned) return '';
  // All else made, a step that takes a share still to come waits for it; for a while only.
  if (
    planned.kind === 'craft' &&
    Object.entries(planned.ingredients).some(([i, n]) => (due[i] ?? 0) > 0 && (obs.inventory[i] ?? 0) < Math.ceil(n / planned.times))
  ) {
    if (++m.shareWaits > SHARE_WAITS) m.sharesDropped = true;
    return WAIT;
  }
  const step = armFirst(data, stock, sources, planned, obs.inventory) ?? planned;
  // A hunt or a milking whose mob was out of the command's range: walk to it first (once; then
  // it is given up).
  const seek = m.seek;
  m.seek = undefined;
  const mob = step.kind === 'gather' ? mobOf(step.source.call(1)) : undefined;
  if (seek && mob === seek) {
    const range = data.entitiesByName[seek]?.type === 'hostile' ? MONSTER_SEEK_RANGE : SEEK_RANGE;
    return commandCall({ skill: 'searchForEntity', args: { type: seek, search_range: range } });
  }
  m.harvest = harvestOf(data, step, obs);
  return stepCommand(step);
}

/**
 * Before a hunt of a monster (minecraft-data type `hostile`: it fights back, and monsters come in
 * groups), the next step of a sword's plan when the bot carries no melee weapon: a stone sword when
 * cobblestone is held, else a wooden one (5 and 4 damage a hit; Minecraft wiki "Sword"). Undefined
 * when the hunt's own step stands.
 */
function armFirst(
  data: GameData,
  stock: Counts,
  sources: ProductionSources,
  step: ProductionStep,
  inventory: Counts,
): ProductionStep | undefined {
  const mob = step.kind === 'gather' ? mobOf(step.source.call(1)) : undefined;
  if (typeof mob !== 'string' || data.entitiesByName[mob]?.type !== 'hostile') return undefined;
  if (MELEE_WEAPONS.some((weapon) => (inventory[weapon] ?? 0) > 0)) return undefined;
  const sword = (stock.cobblestone ?? 0) > 0 ? 'stone_sword' : 'wooden_sword';
  const plan = planProduction(data, stock, { [sword]: 1 }, sources);
  return Object.keys(plan.missing).length > 0 ? undefined : pickStep(data, plan.steps, inventory);
}

/** How far the bot walks off to find room to place a block (blocks). */
const ROOM_DISTANCE = 4;

/** How far a mob out of `!attack`'s or `!useItemOnEntity`'s reach is sought (`!searchForEntity`'s range, blocks). */
const SEEK_RANGE = 64;
/**
 * How far a monster is sought: every one there is, as monsters farther than 128 blocks from every
 * player despawn (vanilla `MobCategory.despawnDistance`) and the server shows a bot the mobs within
 * 150.
 */
const MONSTER_SEEK_RANGE = 128;

/**
 * While what a furnace the plan makes would smelt is still to be gathered, the next step of the
 * plan without that furnace (its fuel, and a table of its own, still planned), what else is to be
 * gathered first: the stone for the furnace comes up with the ore when the bot tunnels to it, and
 * the furnace is made where the ore was found. (The clock task gathered 11 stone at the surface
 * in 40 s, then dug 12 cobblestone on its way to the iron.) Undefined when the plan's own next
 * step stands.
 */
function beforeFurnace(
  data: GameData,
  stock: Counts,
  left: Counts,
  sources: ProductionSources,
  plan: ProductionPlan,
  inventory: Counts,
): ProductionStep | undefined {
  const toGather = new Set(plan.steps.flatMap((s) => (s.kind === 'gather' ? [s.item] : [])));
  if (!plan.steps.some((s) => s.kind === 'craft' && s.item === 'furnace')) return undefined;
  const ores = new Set(plan.steps.flatMap((s) => (s.kind === 'smelt' && toGather.has(s.input) ? [s.input] : [])));
  if (ores.size === 0) return undefined;
  // The table in sight is not counted on where the furnace will be made: one is carried there (a
  // table left at the surface is out of reach down a mine, and a bot without the planks for another
  // walked 100 s back up for a log). With none in sight, the plan makes one anyway.
  const carried: Counts = sources.tableNearby && !(stock.crafting_table ?? 0) ? { crafting_table: 1 } : {};
  const later = planProduction(data, stock, { ...left, ...carried }, { ...sources, smelt: true, fuelled: false });
  if (Object.keys(later.missing).length > 0) return undefined;
  // What else is to be gathered (logs for those planks) comes before the ore: it lies at hand
  // here, and far above once the bot has tunnelled down.
  const other = later.steps.find((s) => s.kind === 'gather' && !ores.has(s.item) && gatherReady(s, inventory));
  const step = other ?? pickStep(data, later.steps, inventory);
  return step?.kind === 'smelt' ? undefined : step;
}

/** A team worker short of items: back home first, then says so (or, coordinating, asks the team), then waits a few times. */
function teamShort(m: OracleMemory, obs: Observation, ctx: TeamContext, lacking: Counts, left: Counts): string {
  const missing = formatCounts(lacking);
  // Away from where the task began (a hunt led the bot off): the furnaces, crops and
  // teammates may be out of sight, so go back and look again before asking anyone.
  const home = m.home;
  const p = obs.position;
  if (home && p && Math.hypot(p.x - home.x, p.z - home.z) > HOME_RADIUS) return `!goToCoordinates(${home.x}, ${home.y}, ${home.z}, 2)`;
  const said = `${missing}|${JSON.stringify(obs.inventory)}`;
  // Said already and nothing changed: the worker waits and looks again (crops regrow, mobs
  // wander back, a path not found in time may be found now, a hand-over passed on by a
  // teammate arrives without a word) a few times. A coordinator gets here once the team has
  // answered its call, so no answer waits behind the waits.
  if (m.shortSaid === said) return ++m.shortWaits <= SHORT_WAITS ? WAIT : '';
  m.shortSaid = said;
  m.shortWaits = 0;
  if (m.isCoordinator(obs.name) && (m.team?.length ?? 1) > 1) {
    // The coordinator asks the team itself.
    m.shortfall = { worker: obs.name, items: { ...lacking }, target: left, asked: new Set() };
    return makeUp(m, obs, ctx) ?? '';
  }
  return formatShort(lacking, left);
}

/** The crop a gathering step harvests (3 cells of wheat), if it is a harvest. */
function harvestOf(data: GameData, step: ProductionStep, obs: Observation): Harvest | undefined {
  if (step.kind !== 'gather') return undefined;
  const { skill, args } = step.source.call(step.count);
  const block = skill === 'collectBlocks' ? args.type : undefined;
  const crop = typeof block === 'string' ? cropOf(data, block) : undefined;
  return crop ? { seed: crop.seed, cells: Number(args.num), held: obs.inventory[crop.seed] ?? 0 } : undefined;
}

/**
 * `!sow` for the cells `harvest` emptied: one command, at most one seed per cell, only `spare`
 * seeds (those the rest of the work does not use), and only when the harvest brought seeds (a
 * harvest that failed emptied no cell). Undefined when there is nothing to sow or `!sow` is
 * blocked; a sowing that fails is not tried again.
 */
function sowBack(obs: Observation, harvest: Harvest, spare: number): string | undefined {
  if (!obs.canUse('!sow') || (obs.inventory[harvest.seed] ?? 0) <= harvest.held) return undefined;
  const n = Math.min(harvest.cells, spare);
  return n > 0 ? `!sow("${harvest.seed}", ${n})` : undefined;
}

/**
 * The step to take now: one whose inputs for at least one craft (or one gathering, one smelting)
 * are at hand. `!craftRecipe` lets the game pick among an item's recipes, so a craft whose item
 * could also be made from another ingredient held (sticks from the cherry planks meant for the
 * fence) waits while another step can go first, and a step that would create such a choice for a
 * later one goes last. When every step that can go is such a craft, one whose other recipes would
 * only use up what earlier steps were to turn into its own ingredients goes (yellow wool dyed from
 * the gray wool that was to be bleached white for it).
 */
export function pickStep(data: GameData, steps: readonly ProductionStep[], inventory: Counts): ProductionStep | undefined {
  // A step can go now when what it uses is at hand: a craft's ingredients, a gathering's tool, a
  // smelting's input, furnace and fuel.
  const ready = (s: ProductionStep, inv: Counts) => {
    // One craft's ingredients (a banner takes its six wool at once).
    if (s.kind === 'craft') return Object.entries(s.ingredients).every(([i, n]) => (inv[i] ?? 0) >= Math.ceil(n / s.times));
    if (s.kind === 'gather') return gatherReady(s, inv);
    return (
      (inv[s.input] ?? 0) > 0 &&
      !steps.some((o) => o.kind === 'craft' && o.item === 'furnace') &&
      (s.fuel === undefined || (inv[s.fuel] ?? 0) > 0)
    );
  };
  // The other ingredients of the item's recipes the game could pick instead (all held).
  const others = (s: ProductionStep, inv: Counts): string[][] =>
    s.kind !== 'craft'
      ? []
      : usableRecipes(data, data.itemsByName[s.item]!.id).flatMap((r) => {
          const ings = [...recipeIngredients(r)].map(([id, n]) => [data.items[id]!.name, n] as const);
          const extra = ings.filter(([i]) => !(i in s.ingredients)).map(([i]) => i);
          return extra.length > 0 && ings.every(([i, n]) => (inv[i] ?? 0) >= n) ? [extra] : [];
        });
  const ambiguous = (s: ProductionStep, inv: Counts) => others(s, inv).length > 0;
  // Items only the steps before `s` use: made into what `s` takes, whichever recipe takes them.
  const upstream = (s: ProductionStep, item: string) => {
    const at = steps.indexOf(s);
    const uses = (o: ProductionStep) => (o.kind === 'craft' ? item in o.ingredients : o.kind === 'smelt' && o.input === item);
    return steps.every((o, k) => k < at || !uses(o));
  };
  const after = (s: ProductionStep): Counts => {
    if (s.kind !== 'craft') return inventory;
    const inv = { ...inventory };
    for (const [i, n] of Object.entries(s.ingredients)) inv[i] = (inv[i] ?? 0) - n;
    inv[s.item] = (inv[s.item] ?? 0) + s.count;
    return inv;
  };
  const candidates = steps.filter((s) => ready(s, inventory));
  const safe = candidates.filter((s) => !ambiguous(s, inventory));
  const calm = safe.filter((s) => !steps.some((o) => o !== s && ambiguous(o, after(s))));
  const benign = candidates.filter((s) => others(s, inventory).every((extra) => extra.every((i) => upstream(s, i))));
  return calm[0] ?? safe[0] ?? benign[0] ?? steps[0];
}

/** The mob a gathering call hunts (`attack`'s `type`) or uses an item on (`useItemOnEntity`'s `entity_type`). */
function mobOf(call: SkillCall): unknown {
  return call.skill === 'useItemOnEntity' ? call.args.entity_type : call.skill === 'attack' ? call.args.type : undefined;
}

/** Whether a gathering can go now: one of its tools held (a pickaxe), and what it uses up (a milking's bucket). */
function gatherReady(step: Extract<ProductionStep, { kind: 'gather' }>, inventory: Counts): boolean {
  const { tools, consumes } = step.source;
  return (
    (!tools?.length || tools.some((t) => (inventory[t] ?? 0) > 0)) &&
    Object.entries(consumes ?? {}).every(([item, n]) => (inventory[item] ?? 0) >= n)
  );
}

/** The command of one production step. */
export function stepCommand(step: ProductionStep): string {
  // !craftRecipe's count is crafts, as in the reference (4 crafts of oak_planks make 16).
  if (step.kind === 'craft') return commandCall({ skill: 'craftRecipe', args: { recipe_name: step.item, num: step.times } });
  if (step.kind === 'smelt') return commandCall({ skill: 'smeltItem', args: { item_name: step.input, num: step.count } });
  return commandCall(step.source.call(step.count));
}
