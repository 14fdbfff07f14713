/**
 * A small in-memory stand-in for the game, for fast tests of the oracle policy with whole teams:
 * agents with inventories, pairwise conversations, and the few commands the policy uses
 * (hand-overs, crafting, smelting, gathering, sowing, placing and digging blueprint cells). No
 * server.
 *
 * It runs each agent's think loop as the real agent does: prompt, run the command in the reply,
 * add its output as a SYSTEM turn, prompt again until a reply has no command; a reply without a
 * command goes to whoever the agent was answering.
 */
import type { GameData } from '../../src/game/data.ts';
import { recipeIngredients, recipeNeedsTable, recipeResultCount } from '../../src/game/data.ts';
import { cropOf } from '../../src/game/crops.ts';
import { type Counts, smeltingInputs, usableRecipes } from '../../src/game/production.ts';
import { OraclePolicy } from '../../src/oracle/policy.ts';
import type { ChatTurn } from '../../src/models/types.ts';
import { checkLevel, findLevel, formatLevelCheck, normalizeBlockName } from '../../src/tasks/blueprint.ts';
import { COOKING_SUPPLIES } from '../../src/tasks/cooking.ts';
import type { Blueprint } from '../../src/tasks/schema.ts';

export interface SimAgent {
  name: string;
  inventory: Counts;
  blocked: string[];
  targets?: Counts;
  blueprint?: Blueprint;
  goal: string;
  /**
   * Where the agent stands (its feet's block); walks move it there. A placement in the cell an
   * agent stands in is refused, as the server refuses it. Without one the agent stands nowhere
   * that matters and its observations have no position.
   */
  position?: { x: number; y: number; z: number };
}

export interface SimWorld {
  /** Block names in sight of every agent. */
  blocks: string[];
  mobs: string[];
}

/** An agent as the stand-in plays it: its policy, turns and what it did. */
export interface SimState extends SimAgent {
  policy: OraclePolicy;
  turns: ChatTurn[];
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
    team.map((a) => [a.name, { ...a, inventory: { ...a.inventory }, policy: new OraclePolicy(data), turns: [], commands: [], said: [] }]),
  );
  const placed = new Map<string, string>();
  const sown: string[] = [];
  /** Items lying on the ground, by block (`x,y,z`). */
  const ground = new Map<string, Counts>();
  const log: string[] = [];
  const queue: { to: string; turn: ChatTurn; from?: string }[] = [];
  let tableNearby = world.blocks.includes('crafting_table');
  const add = (inv: Counts, item: string, n: number) => {
    inv[item] = (inv[item] ?? 0) + n;
    if (inv[item] === 0) delete inv[item];
  };

  for (const a of agents.values()) {
    const others = [...agents.keys()].filter((n) => n !== a.name);
    queue.push({
      to: a.name,
      turn: { role: 'user', content: `SYSTEM: Your goal: ${a.goal}${others.length ? ` Work together with ${others.join(', ')}.` : ''}` },
    });
  }

  const run = (a: SimState, command: string): string => {
    const m = ARGS.exec(command);
    if (!m) return `Unknown command ${command}`;
    const [name, raw] = [m[1]!, m[2]!];
    if (a.blocked.includes(`!${name}`)) return `!${name} is not available to you.`;
    const args = parseArgs(raw);
    a.commands.push(command);
    log.push(`${a.name}: ${command}`);
    switch (name) {
      case 'startConversation': {
        const [to, text] = args as [string, string];
        a.partner = to;
        queue.push({ to, from: a.name, turn: { role: 'user', content: `${a.name} (a bot): ${text}` } });
        return `Started a conversation with ${to}.`;
      }
      case 'givePlayer': {
        const [to, item, n] = args as [string, string, number];
        const have = a.inventory[item] ?? 0;
        if (!have) return `You have no ${item}.`;
        const astrayAt = astrays.findIndex((x) => x.from === a.name && x.to === to);
        const lost = astrayAt < 0 ? undefined : astrays.splice(astrayAt, 1)[0]!;
        if (lost?.interrupted) return '!givePlayer was interrupted to answer Bob.';
        const k = Math.min(have, n);
        add(a.inventory, item, -k);
        if (lost) {
          const { instead, unseen } = lost;
          if (instead) {
            add(agents.get(instead)!.inventory, item, k);
            return `Tossed ${k} ${item} to ${to}, but they picked up none within 8 s.${unseen ? '' : ` ${instead} picked up ${k}.`}`;
          }
          const at = LYING_AT;
          const key = `${Math.floor(at.x)},${Math.floor(at.y)},${Math.floor(at.z)}`;
          ground.set(key, ground.get(key) ?? {});
          add(ground.get(key)!, item, k);
          return `Tossed ${k} ${item} to ${to}, but they picked up none within 8 s. ${k} ${item} lie${k === 1 ? 's' : ''} on the ground at (${at.x}, ${at.y}, ${at.z}), 1.6 blocks from ${to}.`;
        }
        add(agents.get(to)!.inventory, item, k);
        return `Gave ${k} ${item} to ${to}.`;
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
            if (!a.inventory.crafting_table) return `Crafting ${item} needs a crafting table.`;
            add(a.inventory, 'crafting_table', -1);
            tableNearby = true;
          }
          for (const [i, c] of ings) add(a.inventory, i, -c);
          add(a.inventory, item, times * per);
          return `Crafted ${times * per} ${item}.`;
        }
        return `You cannot craft ${item} yet.`;
      }
      case 'smeltItem': {
        const [input, n] = args as [string, number];
        const result = Object.keys(data.itemsByName).find((r) => smeltingInputs(data, r).includes(input));
        const k = Math.min(n, a.inventory[input] ?? 0);
        if (!result || !k) return `You cannot smelt ${input}.`;
        add(a.inventory, input, -k);
        add(a.inventory, result, k);
        return `Cooked ${k} ${input} into ${result}.`;
      }
      case 'collectBlocks': {
        const [block, n] = args as [string, number];
        const item =
          Object.entries(COOKING_SUPPLIES).find(([, s]) => s.kind === 'block' && s.block === block)?.[0] ??
          (block === 'stone' ? 'cobblestone' : block);
        add(a.inventory, item, n);
        // A full-grown crop also gives at least one of its seed item (vanilla loot: 1–4 more).
        const crop = cropOf(data, block);
        if (crop) add(a.inventory, crop.seed, n);
        return `Collected ${n} ${item}${crop ? ` and ${n} ${crop.seed}` : ''}.`;
      }
      case 'sow': {
        const [seed, n] = args as [string, number];
        if (!world.blocks.includes('farmland'))
          return `!sow failed: ${seed} needs farmland with air above; there is no farmland within 32 blocks.`;
        const k = Math.min(n, a.inventory[seed] ?? 0);
        if (!k) return `!sow failed: You have no ${seed}.`;
        add(a.inventory, seed, -k);
        sown.push(`${a.name}: ${k} ${seed}`);
        return `Sowed ${k} ${seed}.`;
      }
      case 'attack': {
        const [mob] = args as [string];
        const meat = Object.entries(COOKING_SUPPLIES).find(([, s]) => s.kind === 'hunt' && s.mob === mob)?.[0];
        if (meat) add(a.inventory, meat, 1);
        return `Killed the ${mob}.`;
      }
      case 'useItemOnEntity': {
        const [tool] = args as [string];
        if (!a.inventory[tool]) return `You have no ${tool}.`;
        add(a.inventory, tool, -1);
        add(a.inventory, 'milk_bucket', 1);
        return 'Milked the cow.';
      }
      case 'placeBlockAt': {
        const [block, x, y, z] = args as [string, number, number, number];
        if (!a.inventory[block]) return `You have no ${block}.`;
        const occupied = [...agents.values()].some((b) => b.position?.x === x && b.position.y === y && b.position.z === z);
        if (occupied || refuse.delete(`${x},${y},${z}`) || refuse.has(`${a.name}@${x},${y},${z}`))
          return `!placeBlockAt failed: Server refused to place ${block} at (${x}, ${y}, ${z}): the block is still air`;
        add(a.inventory, block, -1);
        placed.set(`${x},${y},${z}`, block);
        if (/_door$/.test(block)) placed.set(`${x},${y + 1},${z}`, block);
        return `Placed ${block}.`;
      }
      case 'digAt': {
        const [x, y, z] = args as [number, number, number];
        placed.delete(`${x},${y},${z}`);
        return 'Dug.';
      }
      case 'checkBlueprintLevel': {
        const [level] = args as [number];
        const l = findLevel(a.blueprint!, level)!;
        return formatLevelCheck(
          level,
          checkLevel(l, (x, y, z) => normalizeBlockName(placed.get(`${x},${y},${z}`) ?? 'air')),
        );
      }
      case 'stay':
        return 'Stayed.';
      case 'moveAway':
        if (a.position) a.position = { ...a.position, x: a.position.x + 3 };
        return 'Moved away.';
      case 'goToCoordinates': {
        const [x, y, z] = args as [number, number, number];
        const lying = ground.get(`${x},${y},${z}`);
        ground.delete(`${x},${y},${z}`);
        for (const [item, n] of Object.entries(lying ?? {})) add(a.inventory, item, n);
        if (a.position) a.position = { x, y, z };
        return `Walked to (${x}, ${y}, ${z}).`;
      }
      default:
        return `Unknown command !${name}`;
    }
  };

  // Agents act in turns, one prompt each, as if at the same time; a message to a busy agent
  // waits until its think loop ends (the oracle never interrupts its actions).
  let steps = 0;
  const busy = new Map<string, { from: string | undefined }>();
  /** Moves the messages queued for `a` into its turns; returns the last sender. */
  const receive = (a: SimState): string | undefined => {
    const mine = queue.filter((q) => q.to === a.name);
    if (mine.length === 0) return undefined;
    queue.splice(0, queue.length, ...queue.filter((q) => q.to !== a.name));
    for (const q of mine) a.turns.push(q.turn);
    return mine.at(-1)!.from;
  };
  const step = (a: SimState): void => {
    const from = busy.get(a.name)!.from;
    steps++;
    const reply = a.policy.decide({
      name: a.name,
      inventory: { ...a.inventory },
      targets: a.targets,
      blueprint: a.blueprint,
      position: a.position,
      canUse: (c) => !a.blocked.includes(c),
      partner: a.partner,
      blocks: tableNearby ? [...world.blocks, 'crafting_table'] : world.blocks,
      mobs: world.mobs,
      turns: a.turns,
    });
    if (!reply.trim()) {
      busy.delete(a.name);
      return;
    }
    const command = /![A-Za-z]+\(.*\)/.exec(reply)?.[0];
    a.turns.push({ role: 'assistant', content: reply });
    if (!command) {
      a.said.push(reply);
      // A reply goes back the way the message came, over the conversation still open: one
      // partner at a time, so after a !startConversation with someone else it is not sent.
      const to = from ?? a.partner;
      if (to && to === a.partner) queue.push({ to, from: a.name, turn: { role: 'user', content: `${a.name} (a bot): ${reply}` } });
      busy.delete(a.name);
      return;
    }
    a.turns.push({ role: 'user', content: `SYSTEM: ${run(a, command)}` });
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
