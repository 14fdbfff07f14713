/**
 * A small in-memory stand-in for the game, for fast tests of the oracle policy with whole teams:
 * agents with inventories, pairwise conversations, and the few commands the policy uses
 * (hand-overs, crafting, smelting, gathering, sowing, placing and digging blueprint cells). No
 * server.
 *
 * It runs each agent's think loop as the real agent does: prompt, run the command in the reply,
 * add its outcome to the agent's journal (code and data, as the real commands report them),
 * prompt again until a reply has no command; a reply without a command goes to whoever the agent
 * was answering. The policy reads the journal, as it does in the game.
 */
import type { GameData } from '../../src/game/data.ts';
import { recipeIngredients, recipeNeedsTable, recipeResultCount } from '../../src/game/data.ts';
import { cropOf } from '../../src/game/crops.ts';
import { type Counts, smeltingInputs, usableRecipes } from '../../src/game/production.ts';
import { OraclePolicy } from '../../src/oracle/policy.ts';
import { Journal, type JournalRecord } from '../../src/commands/journal.ts';
import type { Assignment } from '../../src/commands/context.ts';
import { checkLevel, findLevel, formatLevelCheck, normalizeBlockName } from '../../src/tasks/blueprint.ts';
import type { BlueprintCheckData, CommandOutcome, Outcome, OutcomeCode, OutcomeData } from '../../src/skills/outcome.ts';
import { COOKING_SUPPLIES } from '../../src/tasks/cooking.ts';
import type { WorldSupplies } from '../../src/game/production.ts';
import type { Blueprint } from '../../src/tasks/schema.ts';

export interface SimAgent {
  name: string;
  inventory: Counts;
  blocked: string[];
  targets?: Counts;
  blueprint?: Blueprint;
  /** Hell's Kitchen: the partner's recipe this agent holds (its task data). */
  partnerRecipe?: string;
  /** A cooking team's collector (its task data). */
  collector?: string;
  /** The subtask a coordination strategy gave it (its task data). */
  assignment?: Assignment;
  /**
   * Where the agent stands (its feet's block); walks move it there. A placement in the cell an
   * agent stands in is refused, as the server refuses it. Without one the agent stands nowhere
   * that matters and its observations have no position.
   */
  position?: { x: number; y: number; z: number };
}

/** The superflat world of crafting and construction tasks, as the stand-in's agents see it. */
export const FLAT_WORLD: SimWorld = { blocks: ['grass_block', 'dirt', 'bedrock'], mobs: [] };

/** The cooking world (src/tasks/worlds.ts) as the stand-in's agents see it: its blocks, its animals, its supplies. */
export const COOKING_WORLD: SimWorld = {
  blocks: [
    'grass_block',
    'wheat',
    'carrots',
    'potatoes',
    'beetroots',
    'sugar_cane',
    'red_mushroom',
    'brown_mushroom',
    'crafting_table',
    'furnace',
    'smoker',
    'oak_planks',
    'farmland',
    'water',
  ],
  mobs: ['cow', 'pig', 'chicken', 'sheep', 'rabbit', 'llama', 'mooshroom'],
  supplies: COOKING_SUPPLIES,
};

export interface SimWorld {
  /** Block names in sight of every agent. */
  blocks: string[];
  mobs: string[];
  /** What the world supplies, as a task gives it to its agents (the cooking world's crops and animals). */
  supplies?: WorldSupplies;
}

/** An agent as the stand-in plays it: its policy, journal and what it did. */
export interface SimState extends SimAgent {
  policy: OraclePolicy;
  journal: Journal;
  /** The last journal entry its policy read. */
  cursor: number;
  partner?: string;
  commands: string[];
  said: string[];
}

export interface SimResult {
  agents: Map<string, SimState>;
  /** Every command run, in order, as `Name: !command`. */
  log: string[];
  /** The blocks placed in the world, `x,y,z` → block. */
  world: Map<string, string>;
  /** The sowings done, in order, as `Name: 3 wheat_seeds`. */
  sown: string[];
}

const ARGS = /^!(\w+)\((.*)\)$/;

function parseArgs(text: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"|(-?\d+)/g)) out.push(m[1] !== undefined ? m[1] : Number(m[2]));
  return out;
}

/**
 * A hand-over that goes astray (one each: `simulate` takes a list): the first one from `from` to `to` is picked up by `instead`, or,
 * without `instead`, by nobody: it lies on the ground at {@link LYING_AT} until someone walks
 * onto that block (`!goToCoordinates`). With `unseen`, the giver's report does not say who took it
 * (the giver did not see the pickup). With `interrupted`, it is cut short before anything is
 * thrown, as a teammate's message interrupts a running action.
 */
export interface Astray {
  from: string;
  to: string;
  instead?: string;
  unseen?: boolean;
  interrupted?: boolean;
}

/** Where a hand-over that nobody picked up lies (as `!givePlayer` reports it). */
export const LYING_AT = { x: 12.4, y: -59.8, z: -3.6 };

/**
 * Plays a team until nobody has anything left to do (or `maxSteps` prompts). `refuse`: placements
 * the server refuses (someone stood in the cell), as the real `!placeBlockAt` reports it, by cell
 * (`x,y,z`: the first try there) or by agent and cell (`Jill@x,y,z`: every try of that agent there).
 */
export function simulate(
  data: GameData,
  team: SimAgent[],
  world: SimWorld,
  maxSteps = 2000,
  astray?: Astray | Astray[],
  refuse = new Set<string>(),
): SimResult {
  /** Hand-overs still to go astray, each once. */
  const astrays = astray === undefined ? [] : Array.isArray(astray) ? [...astray] : [astray];
  const agents = new Map<string, SimState>(
    team.map((a) => [
      a.name,
      { ...a, inventory: { ...a.inventory }, policy: new OraclePolicy(data), journal: new Journal(), cursor: 0, commands: [], said: [] },
    ]),
  );
  const placed = new Map<string, string>();
  const sown: string[] = [];
  /** Items lying on the ground, by block (`x,y,z`). */
  const ground = new Map<string, Counts>();
  const log: string[] = [];
  const queue: { to: string; record: JournalRecord; from?: string }[] = [];
  const bot = (from: string, text: string): JournalRecord => ({ kind: 'message', message: { from, text, channel: 'bot' } });
  let tableNearby = world.blocks.includes('crafting_table');
  const add = (inv: Counts, item: string, n: number) => {
    inv[item] = (inv[item] ?? 0) + n;
    if (inv[item] === 0) delete inv[item];
  };

  // Each agent starts on its goal, as the task runner's first self-prompt starts it.
  for (const a of agents.values())
    queue.push({ to: a.name, record: { kind: 'message', message: { from: 'system', text: 'Work on your goal.', channel: 'system' } } });
  const ok = (text: string, data?: OutcomeData): Outcome => ({ ok: true, code: 'ok', text, ...(data ? { data } : {}) });
  const fail = (code: Exclude<OutcomeCode, 'ok'>, text: string, data?: OutcomeData): Outcome => ({
    ok: false,
    code,
    text,
    ...(data ? { data } : {}),
  });
  /** Runs `command` for `a`, with the outcome a real command reports (its code and data; the text is for people). */
  const run = (a: SimState, command: string): Outcome => {
    const m = ARGS.exec(command);
    if (!m) return fail('invalid', `Unknown command ${command}`);
    const [name, raw] = [m[1]!, m[2]!];
    if (a.blocked.includes(`!${name}`)) return fail('invalid', `!${name} is not available to you.`);
    const args = parseArgs(raw);
    a.commands.push(command);
    log.push(`${a.name}: ${command}`);
    switch (name) {
      case 'startConversation': {
        const [to, text] = args as [string, string];
        if (!agents.has(to)) return fail('not_found', `${to} is not a bot.`, { sought: { kind: 'bot', name: to } });
        a.partner = to;
        queue.push({ to, from: a.name, record: bot(a.name, text) });
        return ok(`Started a conversation with ${to}.`, { partner: to });
      }
      case 'givePlayer': {
        const [to, item, n] = args as [string, string, number];
        const have = a.inventory[item] ?? 0;
        if (!have) return fail('missing_items', `You have no ${item}.`, { missing: { [item]: n } });
        const astrayAt = astrays.findIndex((x) => x.from === a.name && x.to === to);
        const lost = astrayAt < 0 ? undefined : astrays.splice(astrayAt, 1)[0]!;
        if (lost?.interrupted) return fail('interrupted', '!givePlayer was interrupted to answer Bob.');
        const k = Math.min(have, n);
        add(a.inventory, item, -k);
        const left = a.inventory[item] ?? 0;
        if (lost) {
          const { instead, unseen } = lost;
          if (instead) {
            add(agents.get(instead)!.inventory, item, k);
            const takenBy = unseen ? {} : { [instead]: k };
            return fail('failed', `Tossed ${k} ${item} to ${to}, but they picked up none.`, {
              handOver: { to, item, count: k, received: 0, takenBy, takenBack: 0, left },
            });
          }
          const at = LYING_AT;
          const lying = { x: Math.floor(at.x), y: Math.floor(at.y), z: Math.floor(at.z) };
          const key = `${lying.x},${lying.y},${lying.z}`;
          ground.set(key, ground.get(key) ?? {});
          add(ground.get(key)!, item, k);
          return fail('failed', `Tossed ${k} ${item} to ${to}, but they picked up none.`, {
            handOver: { to, item, count: k, received: 0, takenBy: {}, takenBack: 0, lying, left },
          });
        }
        add(agents.get(to)!.inventory, item, k);
        return ok(`Gave ${k} ${item} to ${to}.`, { handOver: { to, item, count: k, received: k, takenBy: {}, takenBack: 0, left } });
      }
      case 'craftRecipe': {
        const [item, n] = args as [string, number];
        const id = data.itemsByName[item]!.id;
        for (const r of usableRecipes(data, id)) {
          const per = recipeResultCount(r);
          const times = n; // crafts, as the command means (not items)
          const ings = [...recipeIngredients(r)].map(([i, c]) => [data.items[i]!.name, c * times] as const);
          if (!ings.every(([i, c]) => (a.inventory[i] ?? 0) >= c)) continue;
          if (recipeNeedsTable(r) && !tableNearby) {
            if (!a.inventory.crafting_table)
              return fail('missing_items', `Crafting ${item} needs a crafting table.`, { missing: { crafting_table: 1 } });
            add(a.inventory, 'crafting_table', -1);
            tableNearby = true;
          }
          for (const [i, c] of ings) add(a.inventory, i, -c);
          add(a.inventory, item, times * per);
          return ok(`Crafted ${times * per} ${item}.`, { gained: { [item]: times * per } });
        }
        return fail('missing_items', `You cannot craft ${item} yet.`);
      }
      case 'smeltItem': {
        const [input, n] = args as [string, number];
        const result = Object.keys(data.itemsByName).find((r) => smeltingInputs(data, r).includes(input));
        const k = Math.min(n, a.inventory[input] ?? 0);
        if (!result || !k) return fail('missing_items', `You cannot smelt ${input}.`);
        add(a.inventory, input, -k);
        add(a.inventory, result, k);
        return ok(`Cooked ${k} ${input} into ${result}.`, { gained: { [result]: k } });
      }
      case 'collectBlocks': {
        const [block, n] = args as [string, number];
        // What the block drops (minecraft-data): cobblestone for stone, raw gold for gold ore.
        const drop = data.blocksByName[block]?.drops[0];
        const item =
          Object.entries(COOKING_SUPPLIES).find(([, s]) => s.kind === 'block' && s.block === block)?.[0] ??
          (typeof drop === 'number' ? data.items[drop]?.name : undefined) ??
          block;
        add(a.inventory, item, n);
        // A full-grown crop also gives at least one of its seed item (vanilla loot: 1–4 more).
        const crop = cropOf(data, block);
        if (crop) add(a.inventory, crop.seed, n);
        return ok(`Collected ${n} ${item}${crop ? ` and ${n} ${crop.seed}` : ''}.`, {
          gained: { [item]: n, ...(crop ? { [crop.seed]: n } : {}) },
        });
      }
      case 'sow': {
        const [seed, n] = args as [string, number];
        if (!world.blocks.includes('farmland'))
          return fail('not_found', `!sow failed: there is no farmland within 32 blocks.`, {
            sought: { kind: 'block', name: 'farmland', range: 32 },
          });
        const k = Math.min(n, a.inventory[seed] ?? 0);
        if (!k) return fail('missing_items', `!sow failed: You have no ${seed}.`, { missing: { [seed]: n } });
        add(a.inventory, seed, -k);
        sown.push(`${a.name}: ${k} ${seed}`);
        return ok(`Sowed ${k} ${seed}.`, { spent: { [seed]: k } });
      }
      case 'attack': {
        const [mob] = args as [string];
        const meat = Object.entries(COOKING_SUPPLIES).find(([, s]) => s.kind === 'hunt' && s.mob === mob)?.[0];
        if (meat) add(a.inventory, meat, 1);
        return ok(`Killed the ${mob}.`, meat ? { gained: { [meat]: 1 } } : undefined);
      }
      case 'useItemOnEntity': {
        const [tool] = args as [string];
        if (!a.inventory[tool]) return fail('missing_items', `You have no ${tool}.`, { missing: { [tool]: 1 } });
        add(a.inventory, tool, -1);
        add(a.inventory, 'milk_bucket', 1);
        return ok('Milked the cow.', { gained: { milk_bucket: 1 } });
      }
      case 'placeBlockAt': {
        const [block, x, y, z] = args as [string, number, number, number];
        const position = { x, y, z };
        if (!a.inventory[block]) return fail('missing_items', `You have no ${block}.`, { missing: { [block]: 1 }, position });
        const occupied = [...agents.values()].some((b) => b.position?.x === x && b.position.y === y && b.position.z === z);
        if (occupied || refuse.delete(`${x},${y},${z}`) || refuse.has(`${a.name}@${x},${y},${z}`))
          return fail('refused_by_server', `Server refused to place ${block} at (${x}, ${y}, ${z}).`, { position });
        add(a.inventory, block, -1);
        placed.set(`${x},${y},${z}`, block);
        if (/_door$/.test(block)) placed.set(`${x},${y + 1},${z}`, block);
        return ok(`Placed ${block}.`, { position, spent: { [block]: 1 } });
      }
      case 'digAt': {
        const [x, y, z] = args as [number, number, number];
        placed.delete(`${x},${y},${z}`);
        return ok('Dug.', { position: { x, y, z } });
      }
      case 'checkBlueprintLevel': {
        const [level] = args as [number];
        const check = checkLevel(findLevel(a.blueprint!, level)!, (x, y, z) => normalizeBlockName(placed.get(`${x},${y},${z}`) ?? 'air'));
        return ok(formatLevelCheck(level, check), { blueprint: levelData(level, check) });
      }
      case 'stay':
        return ok('Stayed.');
      case 'moveAway':
        if (a.position) a.position = { ...a.position, x: a.position.x + 3 };
        return ok('Moved away.');
      case 'goToCoordinates': {
        const [x, y, z] = args as [number, number, number];
        const lying = ground.get(`${x},${y},${z}`);
        ground.delete(`${x},${y},${z}`);
        for (const [item, n] of Object.entries(lying ?? {})) add(a.inventory, item, n);
        if (a.position) a.position = { x, y, z };
        return ok(`Walked to (${x}, ${y}, ${z}).`, { position: { x, y, z } });
      }
      default:
        return fail('invalid', `Unknown command !${name}`);
    }
  };

  // Agents act in turns, one prompt each, as if at the same time; a message to a busy agent
  // waits until its think loop ends (the oracle never interrupts its actions).
  let steps = 0;
  const busy = new Map<string, { from: string | undefined }>();
  /** Moves the messages queued for `a` into its journal; returns the last sender. */
  const receive = (a: SimState): string | undefined => {
    const mine = queue.filter((q) => q.to === a.name);
    if (mine.length === 0) return undefined;
    queue.splice(0, queue.length, ...queue.filter((q) => q.to !== a.name));
    for (const q of mine) a.journal.add(q.record);
    return mine.at(-1)!.from;
  };
  const step = (a: SimState): void => {
    const from = busy.get(a.name)!.from;
    steps++;
    const records = a.journal.since(a.cursor);
    a.cursor = a.journal.last;
    const reply = a.policy.decide({
      name: a.name,
      inventory: { ...a.inventory },
      targets: a.targets,
      blueprint: a.blueprint,
      task: {
        teammates: [...agents.keys()].filter((n) => n !== a.name),
        collector: a.collector,
        partnerRecipe: a.partnerRecipe,
        assignment: a.assignment,
        supplies: world.supplies,
      },
      position: a.position,
      canUse: (c) => !a.blocked.includes(c),
      partner: a.partner,
      blocks: tableNearby ? [...world.blocks, 'crafting_table'] : world.blocks,
      mobs: world.mobs,
      records,
    });
    if (!reply.trim()) {
      busy.delete(a.name);
      return;
    }
    const command = /![A-Za-z]+\(.*\)/.exec(reply)?.[0];
    if (!command) {
      a.said.push(reply);
      // A reply goes back the way the message came, over the conversation still open: one
      // partner at a time, so after a !startConversation with someone else it is not sent.
      const to = from ?? a.partner;
      if (to && to === a.partner) queue.push({ to, from: a.name, record: bot(a.name, reply) });
      busy.delete(a.name);
      return;
    }
    const outcome: CommandOutcome = { command: `!${ARGS.exec(command)?.[1] ?? ''}`, args: {}, ...run(a, command) };
    a.journal.add({ kind: 'outcome', outcome, by: 'model' });
  };
  while (steps < maxSteps) {
    let acted = false;
    for (const a of agents.values()) {
      if (busy.has(a.name)) {
        step(a);
        acted = true;
        continue;
      }
      // Everything that reached an idle agent is read in one prompt, as the agent's inbox does.
      if (!queue.some((q) => q.to === a.name)) continue;
      const from = receive(a);
      if (from) a.partner = from;
      busy.set(a.name, { from });
      acted = true;
    }
    if (!acted) break;
  }
  return { agents, log, world: placed, sown };
}

/** A level check as the real `!checkBlueprintLevel` reports it in data: the cells to change, in the text's order. */
function levelData(level: number, check: ReturnType<typeof checkLevel>): BlueprintCheckData {
  const changes = check.mismatches.map((d) => {
    const position = { x: d.x, y: d.y, z: d.z };
    if (d.actual === 'air') return { action: 'place' as const, position, block: d.expected };
    if (d.expected === 'air') return { action: 'remove' as const, position, current: d.actual };
    return { action: 'replace' as const, position, block: d.expected, current: d.actual };
  });
  return { level, complete: check.mismatches.length + check.unknown.length === 0, changes };
}
