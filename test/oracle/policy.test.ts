/**
 * The offline policy without a server: its planners over many generated tasks (property-style,
 * fixed seeds), its chat protocol, and whole teams playing generated tasks in the in-memory
 * stand-in of `./oracle-sim.ts`.
 */
import { describe, expect, test } from 'vitest';
import { cropOf } from '../../src/game/crops.ts';
import { gameData } from '../../src/game/data.ts';
import { addCounts, type Counts, planProduction } from '../../src/game/production.ts';
import { blueprintCells, blueprintClashes, cellKey, planConstruction } from '../../src/oracle/construction-plan.ts';
import { OraclePolicy } from '../../src/oracle/policy.ts';
import { pickStep } from '../../src/oracle/work.ts';
import { WAIT } from '../../src/oracle/retry.ts';
import type { JournalEntry, JournalRecord } from '../../src/commands/journal.ts';
import { partnerRecipe } from '../../src/tasks/goals.ts';
import {
  formatLying,
  formatNeed,
  formatShort,
  formatStatus,
  formatTeam,
  parseLying,
  parseNeed,
  parseShort,
  parseStatus,
  parseSummary,
  parseTeam,
} from '../../src/oracle/protocol.ts';
import { sourcesFrom } from '../../src/skills/surroundings.ts';
import { type Member, planTeam, withHelpers } from '../../src/oracle/team-plan.ts';
import { COOKING_WORLD_SOURCES, generateConstructionTasks, generateCookingTasks, generateCraftingTasks } from '../../src/tasks/generate.ts';
import { seededRandom } from '../../src/tasks/random.ts';
import { goalFor, perAgentTargets, taskTargets } from '../../src/tasks/loader.ts';
import { checkBlueprint, normalizeBlockName } from '../../src/tasks/blueprint.ts';
import type { Blueprint, Task } from '../../src/tasks/schema.ts';
import {
  COOKING_WORLD as COOKING,
  FLAT_WORLD as FLAT,
  LYING_AT,
  simulate,
  type SimAgent,
  type SimState,
  type SimWorld,
} from './oracle-sim.ts';

const data = gameData('1.21.4');
const NAMES = ['Andy', 'Jill', 'Bob', 'Sally', 'Mike'];
function membersOf(task: Task): Member[] {
  return Array.from({ length: task.agent_count }, (_, i) => {
    const blocked = task.blocked_actions?.[String(i)] ?? [];
    return {
      name: NAMES[i]!,
      inventory: task.initial_inventory[String(i)] ?? {},
      canCraft: !blocked.includes('!craftRecipe'),
      canGive: !blocked.includes('!givePlayer'),
      canGather: !blocked.includes('!collectBlocks'),
    };
  });
}

function team(task: Task, id: string): SimAgent[] {
  const own = perAgentTargets({ ...task, id });
  const all = taskTargets({ ...task, id });
  return Array.from({ length: task.agent_count }, (_, i) => ({
    name: NAMES[i]!,
    inventory: task.initial_inventory[String(i)] ?? {},
    blocked: task.blocked_actions?.[String(i)] ?? [],
    targets: task.type === 'construction' ? undefined : own ? { [own[String(i)]!]: 1 } : all,
    blueprint: task.blueprint,
    ...withRecipe(goalFor(task, i)),
  }));
}

/** A Hell's Kitchen goal's partner recipe, as the task runner gives it (task data). */
function withRecipe(goal: string): { partnerRecipe?: string } {
  const recipe = partnerRecipe(goal);
  return recipe ? { partnerRecipe: recipe } : {};
}

/** Journal entries, numbered as a journal would (for decisions outside the stand-in). */
function entries(...records: JournalRecord[]): JournalEntry[] {
  return records.map((r, i) => ({ ...r, seq: i + 1, t: 0 }));
}

/** The journal after one command of the agent's own (as the model ran it) ended with `outcome`. */
function ran(outcome: Extract<JournalRecord, { kind: 'outcome' }>['outcome']): JournalEntry[] {
  return entries({ kind: 'outcome', by: 'model', outcome });
}

/** A teammate's chat line as the agent receives it. */
function line(from: string, text: string): JournalRecord {
  return { kind: 'message', message: { from, text, channel: 'bot' } };
}

/** The teammates' lines an agent of the stand-in received, oldest first. */
function heardBy(a: SimState): string[] {
  return a.journal.since(0).flatMap((e) => (e.kind === 'message' ? [e.message.text] : []));
}

/** Every crafting task of the generator over many seeds: agent counts 1–5, depths 0–2, blocked crafting. */
function craftingTasks(): [string, Task][] {
  const out: [string, Task][] = [];
  for (const agents of [1, 2, 3, 4, 5])
    for (const depth of [0, 1, 2])
      for (const blocked of [[], ['!craftRecipe'], ['!getCraftingPlan', '!craftRecipe']]) {
        out.push(
          ...Object.entries(
            generateCraftingTasks(data, { agents, count: 4, seed: 1000 + agents * 100 + depth * 10 + blocked.length, depth, blocked }),
          ),
        );
      }
  return out;
}

/** One decision of `policy` for an agent working alone toward `targets` at (0, 64, 0), with `blocks` and `mobs` in sight. */
function alone(
  policy: OraclePolicy,
  targets: Counts,
  inventory: Counts,
  blocks: string[],
  mobs: string[] = [],
  records: JournalEntry[] = [],
): string {
  return policy.decide({
    name: 'Andy',
    inventory,
    targets,
    blueprint: undefined,
    task: { teammates: [] },
    canUse: () => true,
    partner: undefined,
    position: { x: 0.5, y: 64, z: 0.5 },
    blocks,
    mobs,
    records,
  });
}

describe('the crafting split (planTeam), over generated tasks', () => {
  const tasks = craftingTasks();

  test('the generator makes enough varied tasks', () => {
    expect(tasks.length).toBeGreaterThan(150);
    expect(new Set(tasks.map(([, t]) => t.target)).size).toBeGreaterThan(60);
  });

  test.each(tasks.map(([id, t]) => [id, t] as const))(
    '%s: one worker who may craft; hand-overs cover the plan; order-free',
    (_id, task) => {
      const members = membersOf(task);
      const target = task.target as string;
      const plan = planTeam(data, members, [{ target, count: 1 }], {});
      expect(plan.unsolvable).toBeUndefined();
      expect(plan.jobs).toHaveLength(1);
      const worker = members.find((m) => m.name === plan.jobs[0]!.worker)!;
      expect(worker.canCraft).toBe(true);
      // Nobody gives more than it has; nobody gives to itself.
      const given: Record<string, Record<string, number>> = {};
      for (const t of plan.transfers) {
        expect(t.from).not.toBe(t.to);
        given[t.from] = addCounts(given[t.from] ?? {}, { [t.item]: t.count });
      }
      for (const [from, items] of Object.entries(given)) {
        const inv = members.find((m) => m.name === from)!.inventory;
        for (const [item, n] of Object.entries(items)) expect(n).toBeLessThanOrEqual(inv[item] ?? 0);
      }
      // After the hand-overs the worker can make the target alone.
      const after = addCounts(worker.inventory, ...plan.transfers.filter((t) => t.to === worker.name).map((t) => ({ [t.item]: t.count })));
      expect(planProduction(data, after, { [target]: 1 }).missing).toEqual({});
      // Every agent computes the same plan, whatever order it learnt the statuses in.
      const shuffled = [...members].sort(() => seededRandom(members.length).next() - 0.5).reverse();
      expect(planTeam(data, shuffled, [{ target, count: 1 }], {})).toEqual(plan);
      // The worker needs the fewest items moved of all who could craft it.
      const moved = plan.transfers.reduce((s, t) => s + t.count, 0);
      for (const m of members.filter((c) => c.canCraft)) {
        const alone = planTeam(
          data,
          members.map((x) => ({ ...x, canCraft: x.name === m.name })),
          [{ target, count: 1 }],
          {},
        );
        if (!alone.unsolvable) expect(moved).toBeLessThanOrEqual(alone.transfers.reduce((s, t) => s + t.count, 0));
      }
    },
  );

  test("a teammate's pickaxe goes to the worker whose gathering needs it (the worker held the table and furnace, and waited for a pickaxe forever)", () => {
    const iron = sourcesFrom(data, { blocks: ['iron_ore', 'stone', 'oak_log'], mobs: [], inventory: {} });
    const plan = planTeam(
      data,
      [
        { name: 'Andy', inventory: { stone_pickaxe: 1 }, canCraft: true, canGive: true, canGather: true },
        { name: 'Jill', inventory: { furnace: 1, crafting_table: 1 }, canCraft: true, canGive: true, canGather: true },
      ],
      [{ target: 'bucket', count: 1 }],
      iron,
    );
    const worker = plan.jobs[0]!.worker;
    const other = worker === 'Andy' ? 'Jill' : 'Andy';
    const held: Record<string, number> = worker === 'Andy' ? { stone_pickaxe: 1 } : { furnace: 1, crafting_table: 1 };
    const after = addCounts(held, ...plan.transfers.filter((t) => t.to === worker).map((t) => ({ [t.item]: t.count })));
    expect(after.stone_pickaxe ?? 0, JSON.stringify(plan)).toBe(1);
    expect(planProduction(data, after, { bucket: 1 }, iron).missing).toEqual({});
    expect(plan.transfers.every((t) => t.from === other)).toBe(true);
  });

  test("the issue's stalled cases: the bread table holder and the torch stick holder", () => {
    const bread = planTeam(
      data,
      [
        { name: 'Andy', inventory: { wheat: 2, crafting_table: 1 }, canCraft: true, canGive: true, canGather: true },
        { name: 'Jill', inventory: { wheat: 1 }, canCraft: true, canGive: true, canGather: true },
      ],
      [{ target: 'bread', count: 1 }],
      {},
    );
    expect(bread).toEqual({
      jobs: [{ target: 'bread', count: 1, worker: 'Andy' }],
      transfers: [{ from: 'Jill', to: 'Andy', item: 'wheat', count: 1 }],
    });
    const torch = planTeam(
      data,
      [
        { name: 'Andy', inventory: { coal: 1 }, canCraft: true, canGive: true, canGather: true },
        { name: 'Jill', inventory: { stick: 1 }, canCraft: true, canGive: true, canGather: true },
      ],
      [{ target: 'torch', count: 1 }],
      {},
    );
    expect(torch.jobs[0]!.worker).toBe('Andy');
    expect(torch.transfers).toEqual([{ from: 'Jill', to: 'Andy', item: 'stick', count: 1 }]);
  });

  test('an agent that may not craft hands over; nobody may craft: unsolvable, with the reason', () => {
    const members: Member[] = [
      { name: 'Andy', inventory: { wheat: 3, crafting_table: 1 }, canCraft: false, canGive: true, canGather: true },
      { name: 'Jill', inventory: {}, canCraft: true, canGive: true, canGather: true },
    ];
    expect(planTeam(data, members, [{ target: 'bread', count: 1 }], {}).jobs[0]!.worker).toBe('Jill');
    const none = planTeam(
      data,
      members.map((m) => ({ ...m, canCraft: false })),
      [{ target: 'bread', count: 1 }],
      {},
    );
    expect(none.unsolvable).toMatch(/must be crafted.*may not craft/);
    const missing = planTeam(data, members, [{ target: 'compass', count: 1 }], {});
    expect(missing.unsolvable).toBe('1 compass needs 4 iron_ingot, 1 redstone, which nobody has and the world here does not give');
  });

  test('a free teammate makes a share of what the worker must smelt from dug ore, for the worker; a gathering without ore is not shared', () => {
    // MineCollab's 2-agent golden apple: eight gold ingots from the world, which one agent alone
    // made in 290 s of its 300 (2026-11-28).
    const world = sourcesFrom(data, { blocks: ['oak_log', 'stone', 'iron_ore', 'gold_ore'], mobs: [], inventory: {} });
    const members: Member[] = [
      { name: 'Andy', inventory: { gold_nugget: 5, apple: 1 }, canCraft: true, canGive: true, canGather: true },
      { name: 'Jill', inventory: { gold_nugget: 3, crafting_table: 1 }, canCraft: true, canGive: true, canGather: true },
    ];
    const jobs = [{ target: 'golden_apple', count: 1 }];
    const plan = withHelpers(data, members, planTeam(data, members, jobs, world), world);
    const worker = plan.jobs[0]!.worker;
    const helper = worker === 'Andy' ? 'Jill' : 'Andy';
    expect(plan.jobs).toEqual([
      { target: 'golden_apple', count: 1, worker },
      { target: 'gold_ingot', count: 4, worker: helper, for: worker },
    ]);
    // The same plan whatever order the members come in.
    expect(withHelpers(data, [...members].reverse(), planTeam(data, [...members].reverse(), jobs, world), world)).toEqual(plan);
    // A helper that may not gather, or a team of one, shares nothing.
    const tied = members.map((m) => (m.name === helper ? { ...m, canGather: false } : m));
    expect(withHelpers(data, tied, planTeam(data, tied, jobs, world), world).jobs).toHaveLength(1);
    // A bucket's three iron: a share of one does not repay a helper's chain of tools.
    expect(withHelpers(data, members, planTeam(data, members, [{ target: 'bucket', count: 1 }], world), world).jobs).toHaveLength(1);
    // Wool from sheep and dye from flowers: no ore, nothing shared.
    const meadow = sourcesFrom(data, { blocks: ['oak_log', 'dandelion'], mobs: ['sheep'], inventory: {} });
    const banner = [{ target: 'yellow_banner', count: 1 }];
    expect(withHelpers(data, members, planTeam(data, members, banner, meadow), meadow).jobs).toHaveLength(1);
    // The plan in words carries the share to the teammates who read it.
    expect(parseSummary(`Team: x. So ${worker} makes 1 golden_apple, ${helper} makes 4 gold_ingot for ${worker}.`)?.jobs).toEqual(
      plan.jobs,
    );
  });
});

describe('production plans', () => {
  test('cooking-world dishes: gather, smelt, craft; held items first', () => {
    const plan = planProduction(data, { bowl: 1 }, { rabbit_stew: 1 }, COOKING_WORLD_SOURCES);
    expect(plan.missing).toEqual({});
    expect(plan.steps.map((s) => `${s.kind} ${s.item}`)).toEqual(
      expect.arrayContaining(['smelt baked_potato', 'smelt cooked_rabbit', 'gather carrot', 'gather brown_mushroom', 'craft rabbit_stew']),
    );
    expect(plan.consumed).toEqual({ bowl: 1 });
  });

  test('a table is planned only when none is at hand', () => {
    expect(planProduction(data, { oak_planks: 7 }, { chest: 1 }).missing).toEqual({ oak_planks: 5 });
    expect(planProduction(data, { oak_planks: 8 }, { chest: 1 }, { tableNearby: true }).missing).toEqual({});
    expect(planProduction(data, { oak_planks: 12 }, { chest: 1 }).steps.map((s) => s.item)).toEqual(['crafting_table', 'chest']);
  });

  test('gathering what the world around gives (logs in sight)', () => {
    const sources = sourcesFrom(data, { blocks: ['oak_log', 'grass_block'], mobs: [], inventory: {} });
    const plan = planProduction(data, {}, { wooden_pickaxe: 1 }, sources);
    expect(plan.missing).toEqual({});
    expect(plan.steps[0]).toMatchObject({ kind: 'gather', item: 'oak_log' });
  });

  test('a craft that the game could make from the wrong planks waits (sticks before the cherry planks)', () => {
    const plan = planProduction(data, { cherry_log: 1, oak_planks: 2, crafting_table: 1 }, { cherry_fence: 1 });
    expect(pickStep(data, plan.steps, { cherry_log: 1, oak_planks: 2, crafting_table: 1 })).toMatchObject({ item: 'stick' });
  });

  test('a craft goes once one craft of it is at hand; when every craft could take another recipe, the one that only uses up what was meant for it goes', () => {
    // A 3-agent yellow banner's worker (a run of 2026-11-28): two yellow wool of its own, four dyes,
    // and the sheep gave three white wool and a gray one (to be bleached with the white dye). The
    // banner takes its six wool at once: it was tried with two for 180 s. Bleaching could take a
    // yellow wool instead of the gray one; dyeing could take the gray one instead of a white one,
    // which is what the gray one was for.
    const inventory = { yellow_wool: 2, yellow_dye: 4, white_wool: 3, gray_wool: 1, white_dye: 1, stick: 1, crafting_table: 1 };
    const plan = planProduction(data, inventory, { yellow_banner: 1 });
    expect(plan.missing).toEqual({});
    expect(plan.steps.map((s) => s.item)).toEqual(['white_wool', 'yellow_wool', 'yellow_banner']);
    expect(pickStep(data, plan.steps, inventory)).toMatchObject({ item: 'yellow_wool' });
    // Six wool at hand: the banner goes.
    const ready = { yellow_wool: 6, stick: 1, crafting_table: 1 };
    expect(pickStep(data, planProduction(data, ready, { yellow_banner: 1 }).steps, ready)).toMatchObject({ item: 'yellow_banner' });
  });
});

describe('the chat protocol', () => {
  test('status and team messages round-trip and hold no command', () => {
    const status = { inventory: { wheat: 2, crafting_table: 1 }, wants: { bread: 1 }, cannot: ['craft' as const] };
    const text = formatStatus(status);
    expect(text).not.toContain('!');
    expect(parseStatus(text)).toEqual(status);
    expect(parseStatus(formatStatus({ inventory: {}, wants: {}, cannot: [] }))).toEqual({ inventory: {}, wants: {}, cannot: [] });
    const teamText = formatTeam(
      true,
      { Jill: { inventory: {}, wants: { bread: 1 }, cannot: ['craft', 'give'] }, Andy: status },
      'Andy makes 1 bread',
    );
    expect(teamText).not.toContain('!');
    expect(parseTeam(teamText)).toEqual({
      go: true,
      team: { Andy: status, Jill: { inventory: {}, wants: { bread: 1 }, cannot: ['craft', 'give'] } },
    });
    expect(parseSummary(formatTeam(false, { Andy: status }, 'Jill makes 1 bread, Andy gives Jill 2 wheat'))).toEqual({
      jobs: [{ worker: 'Jill', count: 1, target: 'bread' }],
      transfers: [{ from: 'Andy', to: 'Jill', count: 2, item: 'wheat' }],
    });
    const hk =
      "You need to make bread, but you don't have the recipe for it, your partner has it!\n\nYour partner needs to make golden_apple. You have their recipe:\nRecipe for golden_apple:\nStep 1: Get 1 apple and 8 gold ingots.\nStep 2: Craft it.\n\nYou must communicate effectively.";
    expect(partnerRecipe(hk)).toBe('Recipe for golden_apple: Step 1: Get 1 apple and 8 gold ingots. Step 2: Craft it.');
    expect(parseStatus(`${formatStatus(status)} Your recipe: ${partnerRecipe(hk)}`)).toEqual(status);
    const lying = { x: 26, y: -60, z: -25 };
    expect(parseLying(formatLying('wheat', lying))).toEqual(lying);
    expect(formatLying('wheat', lying)).not.toContain('!');
    expect(parseShort(formatShort({ wheat: 2, crafting_table: 1 }, { bread: 1 }))).toEqual({
      items: { wheat: 2, crafting_table: 1 },
      target: { bread: 1 },
    });
    expect(parseNeed(formatNeed('Jill', { cyan_dye: 3, black_wool: 1 }, { cyan_banner: 1 }))).toEqual({
      worker: 'Jill',
      items: { cyan_dye: 3, black_wool: 1 },
      target: { cyan_banner: 1 },
    });
    expect(parseNeed(formatNeed('Jill', { wheat: 2 }))).toEqual({ worker: 'Jill', items: { wheat: 2 } });
    expect(formatNeed('Jill', { wheat: 2 }, { bread: 1 })).not.toContain('!');
  });
});

function success(task: Task, id: string, result: ReturnType<typeof simulate>): boolean {
  if (task.type === 'construction') {
    return (
      checkBlueprint(task.blueprint!, (x, y, z) => normalizeBlockName(result.world.get(`${x},${y},${z}`) ?? 'air')).mismatches.length === 0
    );
  }
  const own = perAgentTargets({ ...task, id });
  const agents = [...result.agents.values()];
  if (own) return agents.every((a, i) => (a.inventory[own[String(i)]!] ?? 0) >= 1);
  return agents.some((a) => Object.entries(taskTargets({ ...task, id })).every(([item, n]) => (a.inventory[item] ?? 0) >= n));
}

const ACTIONS = /^!(givePlayer|craftRecipe|smeltItem|collectBlocks|attack|useItemOnEntity|placeBlockAt|digAt)\(/;

describe('teams of oracles play generated tasks (in-memory world)', () => {
  test("crafting, 1–5 agents, depths 0–2, blocked crafting: every task done, within twice the shortest plan's actions", () => {
    for (const [id, task] of craftingTasks()) {
      const result = simulate(data, team(task, id), FLAT);
      expect(success(task, id, result), id).toBe(true);
      const members = membersOf(task);
      const plan = planTeam(data, members, [{ target: task.target as string, count: 1 }], {});
      const worker = members.find((m) => m.name === plan.jobs[0]!.worker)!;
      const after = addCounts(worker.inventory, ...plan.transfers.filter((t) => t.to === worker.name).map((t) => ({ [t.item]: t.count })));
      const shortest = plan.transfers.length + planProduction(data, after, { [task.target as string]: 1 }).steps.length;
      const actions = result.log.filter((l) => ACTIONS.test(l.split(': ')[1]!)).length;
      expect(actions, id).toBeLessThanOrEqual(2 * shortest);
      // The chat never holds a command by accident.
      for (const a of result.agents.values()) for (const line of a.said) expect(line).not.toMatch(/!\w/);
    }
  });

  test("cooking, 1–5 agents and Hell's Kitchen: every dish reaches the agent that must hold it", () => {
    const tasks = [1, 2, 3, 4, 5].flatMap((agents) => Object.entries(generateCookingTasks(data, { agents, count: 6, seed: 50 + agents })));
    tasks.push(...Object.entries(generateCookingTasks(data, { agents: 2, count: 8, seed: 77, hellsKitchen: true })));
    for (const [id, task] of tasks) expect(success(task, id, simulate(data, team(task, id), COOKING, 5000)), id).toBe(true);
  });

  test('cooking: each !sow follows a harvest of its crop, by the same agent, one seed per cell at most', () => {
    const tasks = [1, 2, 3].flatMap((agents) => Object.entries(generateCookingTasks(data, { agents, count: 6, seed: 50 + agents })));
    let sowings = 0;
    for (const [id, task] of tasks) {
      const result = simulate(data, team(task, id), COOKING, 5000);
      for (const a of result.agents.values()) {
        a.commands.forEach((c, i) => {
          const sow = /^!sow\("(\w+)", (\d+)\)$/.exec(c);
          if (!sow) return;
          sowings++;
          const harvest = /^!collectBlocks\("(\w+)", (\d+)\)$/.exec(a.commands[i - 1] ?? '');
          expect(harvest, `${id}: ${a.name} sows after ${a.commands[i - 1]}`).not.toBeNull();
          expect(cropOf(data, harvest![1]!)?.seed, id).toBe(sow[1]);
          expect(Number(sow[2]), id).toBeLessThanOrEqual(Number(harvest![2]));
        });
      }
    }
    expect(sowings).toBeGreaterThan(0);
  });

  test('construction, 1–3 agents: the blueprint is built bottom up, cells split among the builders', () => {
    for (const agents of [1, 2, 3]) {
      for (const [id, task] of Object.entries(
        generateConstructionTasks(data, { agents, count: 3, seed: 90 + agents, size: 5, levels: 3 }),
      )) {
        const result = simulate(data, team(task, id), { blocks: ['grass_block'], mobs: [] }, 5000);
        expect(success(task, id, result), id).toBe(true);
        const placers = new Set(result.log.filter((l) => l.includes('!placeBlockAt')).map((l) => l.split(':')[0]));
        if (agents > 1) expect(placers.size).toBeGreaterThan(1);
      }
    }
  });

  test("a helper makes its share of the worker's gold ingots and hands it over; the worker makes the golden apple", () => {
    const task: Task = {
      type: 'techtree',
      goal: 'Collaborate with other agents to craft a golden_apple',
      conversation: "Let's work together to craft a golden_apple.",
      agent_count: 2,
      initial_inventory: { '0': { gold_nugget: 5, apple: 1 }, '1': { gold_nugget: 3, crafting_table: 1 } },
      target: 'golden_apple',
      number_of_target: 1,
      timeout: 300,
      blocked_actions: { '0': [], '1': [] },
    };
    const ore: SimWorld = { blocks: ['grass_block', 'oak_log', 'stone', 'iron_ore', 'gold_ore'], mobs: [] };
    const result = simulate(data, team(task, 'golden_apple'), ore, 5000);
    expect(success(task, 'golden_apple', result), result.log.join('\n')).toBe(true);
    const [andy, jill] = [result.agents.get('Andy')!, result.agents.get('Jill')!];
    const [worker, helper] = (andy.inventory.golden_apple ?? 0) > 0 ? [andy, jill] : [jill, andy];
    expect(helper.commands).toContain(`!givePlayer("${worker.name}", "gold_ingot", 4)`);
    // The worker counted on the share: it dug and smelted only its own four.
    expect(worker.commands.filter((c) => c.startsWith('!collectBlocks("gold_ore"'))).toEqual(['!collectBlocks("gold_ore", 4)']);
    expect(worker.commands.filter((c) => c.startsWith('!smeltItem("raw_gold"'))).toEqual(['!smeltItem("raw_gold", 4)']);
    // Its share given and said, the helper stops.
    expect(helper.commands.at(-1)).toBe(`!startConversation("${worker.name}", "Done. I gave 4 gold_ingot to ${worker.name}.")`);
    expect(helper.inventory.gold_ingot ?? 0).toBe(0);

    // A helper that cannot smelt never brings its share: the worker waits a while, then makes it.
    const stuck = simulate(data, team({ ...task, blocked_actions: { '0': [], '1': ['!smeltItem'] } }, 'golden_apple'), ore, 5000);
    expect(success(task, 'golden_apple', stuck), stuck.log.join('\n')).toBe(true);
    const andyAlone = stuck.agents.get('Andy')!;
    expect(andyAlone.commands.filter((c) => c === '!stay(2)').length).toBeGreaterThan(10);
    expect(andyAlone.commands.filter((c) => c.startsWith('!smeltItem("raw_gold"'))).toEqual([
      '!smeltItem("raw_gold", 4)',
      '!smeltItem("raw_gold", 4)',
    ]);
  });

  test('a hand-over picked up by the wrong agent: the giver asks them to pass it on; unseen, the worker says what it lacks and the team gives it', () => {
    const task = {
      type: 'techtree',
      goal: 'craft a wall',
      agent_count: 3,
      target: 'deepslate_brick_wall',
      initial_inventory: { 0: { polished_deepslate: 3 }, 1: { polished_deepslate: 2 }, 2: { polished_deepslate: 3, crafting_table: 1 } },
      blocked_actions: { 0: ['!craftRecipe'] },
      timeout: 60,
    } as unknown as Task;
    for (const astray of [
      { from: 'Andy', to: 'Bob', instead: 'Jill' },
      { from: 'Jill', to: 'Bob', instead: 'Andy' },
    ]) {
      const result = simulate(data, team(task, 'wall'), FLAT, 2000, astray);
      expect(success(task, 'wall', result), JSON.stringify(astray)).toBe(true);
      const given = Number(
        /^!givePlayer\("Bob", "polished_deepslate", (\d+)\)$/.exec(
          result.agents.get(astray.from)!.commands.find((c) => c.startsWith('!givePlayer'))!,
        )![1],
      );
      expect(result.agents.get(astray.from)!.commands).toContain(
        `!startConversation("${astray.instead}", "Bob needs ${given} polished_deepslate. Please give what you have of it.")`,
      );
      expect(result.agents.get(astray.instead)!.commands).toContain(`!givePlayer("Bob", "polished_deepslate", ${given})`);
      expect(result.agents.get('Bob')!.said.some((l) => l.startsWith('I still need'))).toBe(false);
      const unseen = simulate(data, team(task, 'wall'), FLAT, 2000, { ...astray, unseen: true });
      expect(success(task, 'wall', unseen), JSON.stringify(astray)).toBe(true);
      expect(unseen.agents.get('Bob')!.said.some((l) => l.startsWith('I still need'))).toBe(true);
    }
    // The coordinator itself short: it asks the team.
    const own = { ...task, blocked_actions: { 1: ['!craftRecipe'], 2: ['!craftRecipe'] } } as unknown as Task;
    expect(
      success(own, 'own', simulate(data, team(own, 'own'), FLAT, 2000, { from: 'Bob', to: 'Andy', instead: 'Jill', unseen: true })),
    ).toBe(true);
    expect(success(own, 'own', simulate(data, team(own, 'own'), FLAT, 2000, { from: 'Bob', to: 'Andy', instead: 'Jill' }))).toBe(true);
  });

  test('every hand-over to the worker picked up by another teammate, seen or not, and answers to calls too: it is asked for, and those holding it, or what it is made from, give it', () => {
    // MineCollab's 4-agent cyan banner (depth 2): the dyes, wool and log spread over the team.
    const banner = {
      type: 'techtree',
      goal: 'craft a banner',
      agent_count: 4,
      target: 'cyan_banner',
      initial_inventory: {
        0: { blue_dye: 3, black_wool: 1, crafting_table: 1 },
        1: { green_dye: 3, black_wool: 3 },
        2: { black_wool: 1, oak_log: 1 },
        3: { black_wool: 1 },
      },
      blocked_actions: {},
      timeout: 300,
    } as unknown as Task;
    const tasks: [string, Task][] = [
      ['banner', banner],
      ...craftingTasks().filter(([, t]) => t.agent_count >= 3 && !(t.blocked_actions?.['0'] ?? []).length),
    ];
    let checked = 0;
    let madeFrom = 0;
    for (const [id, task] of tasks) {
      const plain = simulate(data, team(task, id), FLAT);
      const gives = plain.log.map((l) => /^(\w+): !givePlayer\("(\w+)"/.exec(l)).filter((m) => m !== null);
      const worker = gives[0]?.[2];
      if (!worker || gives.some((m) => m[2] !== worker)) continue; // one worker that every hand-over goes to
      // Each hand-over goes to a third teammate instead: the first one, unseen by the giver, or the
      // last one, seen; or, a third time, unseen and then the next hand-over of each teammate seen
      // too (an answer to a call: its giver passes the call on and still owes the caller its Done).
      const names = [...plain.agents.keys()];
      const others = (from: string) => names.filter((n) => n !== from && n !== worker);
      for (const round of ['unseen', 'seen', 'twice'] as const) {
        const unseen = round !== 'seen';
        const astray = gives.map((m) => ({
          from: m[1]!,
          to: worker,
          instead: (unseen ? others(m[1]!)[0] : others(m[1]!).at(-1))!,
          unseen,
        }));
        if (round === 'twice')
          for (const from of names.filter((n) => n !== worker))
            astray.push({ from, to: worker, instead: others(from).at(-1)!, unseen: false });
        const result = simulate(data, team(task, id), FLAT, 4000, astray);
        expect(success(task, id, result), `${id}, ${round}`).toBe(true);
        // What the worker said it lacks, and what the coordinator asked the team for.
        const asked = [...result.agents.values()]
          .flatMap((a) => heardBy(a))
          .map((text) => parseShort(text)?.items ?? parseNeed(text)?.items)
          .filter((items) => items !== undefined);
        expect(asked.length, `${id}: someone asked for what went astray`).toBeGreaterThan(0);
        // Hand-overs after the first call of items never named in one: what the named items are made from.
        const named = new Set(asked.flatMap((items) => Object.keys(items)));
        const firstCall = result.log.findIndex((l) => / needs .*Please give/.test(l));
        if (
          result.log.slice(firstCall).some((l) => {
            const m = /!givePlayer\("\w+", "(\w+)"/.exec(l);
            return m && !named.has(m[1]!);
          })
        )
          madeFrom++;
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    expect(madeFrom, 'teammates gave ingredients of what was named').toBeGreaterThan(0);
  });

  test('a teammate asked to make up a shortfall after its plan Done is not sent the plan again: its Done still counts', () => {
    // A generated 5-agent fence (depth 2): Jill's stem goes to another teammate, unseen; the
    // worker says what it lacks and the coordinator asks the team, Jill too.
    const task = {
      type: 'techtree',
      goal: 'craft a fence',
      agent_count: 5,
      target: 'crimson_fence',
      initial_inventory: { 0: {}, 1: { crimson_stem: 1 }, 2: {}, 3: { oak_log: 1, crafting_table: 1 }, 4: {} },
      blocked_actions: {},
      timeout: 90,
    } as unknown as Task;
    const plain = simulate(data, team(task, 'fence'), FLAT);
    const worker = /!givePlayer\("(\w+)"/.exec(plain.agents.get('Jill')!.commands.find((c) => c.startsWith('!givePlayer'))!)![1]!;
    const astray = { from: 'Jill', to: worker, instead: ['Bob', 'Mike', 'Sally'].find((n) => n !== worker)!, unseen: true };
    expect(success(task, 'fence', simulate(data, team(task, 'fence'), FLAT, 3000, astray))).toBe(true);
    // The coordinator just asked Jill; before her answer, another teammate's message reaches it.
    let andy: SimState;
    for (let steps = 1; ; steps++) {
      andy = simulate(data, team(task, 'fence'), FLAT, steps, astray).agents.get('Andy')!;
      if (/^!startConversation\("Jill", ".* needs /.test(andy.commands.at(-1) ?? '')) break;
      expect(steps, 'the coordinator asks Jill').toBeLessThan(3000);
    }
    const other = ['Bob', 'Mike', 'Sally'].find((n) => n !== worker)!;
    const reply = andy.policy.decide({
      name: 'Andy',
      inventory: { ...andy.inventory },
      targets: andy.targets,
      blueprint: undefined,
      canUse: () => true,
      partner: other,
      blocks: FLAT.blocks,
      mobs: FLAT.mobs,
      records: entries(line(other, 'Done.')),
    });
    expect(reply, 'Jill said Done for the plan already').not.toMatch(/^!startConversation\("Jill", "Plan\./);
  });

  test("a hand-over cut short by a teammate's message is made again, by the coordinator or a teammate", () => {
    const task = {
      type: 'techtree',
      goal: 'craft a wall',
      agent_count: 3,
      target: 'deepslate_brick_wall',
      initial_inventory: { 0: { polished_deepslate: 3 }, 1: { polished_deepslate: 2 }, 2: { polished_deepslate: 3, crafting_table: 1 } },
      blocked_actions: { 0: ['!craftRecipe'] },
      timeout: 60,
    } as unknown as Task;
    for (const from of ['Andy', 'Jill']) {
      const result = simulate(data, team(task, 'wall'), FLAT, 2000, { from, to: 'Bob', interrupted: true });
      expect(success(task, 'wall', result), from).toBe(true);
      const gives = result.agents.get(from)!.commands.filter((c) => c.startsWith('!givePlayer("Bob"'));
      expect(gives.length, from).toBe(2); // cut short, then made again
      expect(gives[1]).toBe(gives[0]);
    }
  });

  test('construction: the coordinator picks up planks meant for a builder, passes them on when asked, then starts the build', () => {
    const [id, task] = Object.entries(generateConstructionTasks(data, { agents: 3, count: 1, seed: 7008, size: 6, levels: 3 }))[0]!;
    const plain = simulate(data, team(task, id), FLAT);
    const giver = [...plain.agents.values()].find((a) => a.name !== 'Andy' && a.commands.some((c) => c.startsWith('!givePlayer')));
    expect(giver, 'the plan has a hand-over from a teammate').toBeDefined();
    const to = /^!givePlayer\("([A-Za-z]+)"/.exec(giver!.commands.find((c) => c.startsWith('!givePlayer'))!)![1]!;
    const result = simulate(data, team(task, id), FLAT, 3000, { from: giver!.name, to, instead: 'Andy' });
    expect(success(task, id, result)).toBe(true);
    expect(result.agents.get('Andy')!.commands.filter((c) => c.startsWith('!startConversation') && c.includes('"Go.'))).not.toHaveLength(0);
  });

  test('construction: a last placement the server refused is tried again from elsewhere, after one wait, and the blueprint is built', () => {
    for (const agents of [1, 2]) {
      const [id, task] = Object.entries(generateConstructionTasks(data, { agents, count: 1, seed: 7014, size: 5, levels: 3 }))[0]!;
      const plain = simulate(data, team(task, id), FLAT);
      // The last placement of the run: after it nothing else changes the builder's inventory.
      const first = plain.log.findLast((l) => l.includes('!placeBlockAt'))!;
      const [, who, x, y, z] = /^([A-Za-z]+): !placeBlockAt\("[a-z_]+", (-?\d+), (-?\d+), (-?\d+)\)$/.exec(first)!;
      const result = simulate(data, team(task, id), FLAT, 3000, undefined, new Set([`${x},${y},${z}`]));
      expect(success(task, id, result), `${agents} agents`).toBe(true);
      const mine = result.agents.get(who!)!.commands;
      const tries = mine.flatMap((c, i) => (c === first.slice(who!.length + 2) ? [i] : []));
      expect(tries).toHaveLength(2);
      expect(mine.slice(tries[0]! + 1, tries[1])).toContain('!moveAway(2)');
    }
  });

  test("construction: a builder done with its cells takes over a stuck teammate's with the blocks it has to spare", () => {
    const task = {
      type: 'construction',
      goal: 'build',
      agent_count: 2,
      timeout: 60,
      blocked_actions: {},
      initial_inventory: { 0: { stone: 3 }, 1: { stone: 1 } },
      blueprint: { materials: { stone: 2 }, levels: [{ level: 0, coordinates: [0, -60, 0], placement: [['stone', 'stone']] }] },
    } as unknown as Task;
    const plain = simulate(data, team(task, 'wall'), FLAT);
    const jills = plain.agents.get('Jill')!.commands.find((c) => c.startsWith('!placeBlockAt'));
    expect(jills, 'Jill has a cell of her own').toBeDefined();
    const [, x, y, z] = /(-?\d+), (-?\d+), (-?\d+)\)$/.exec(jills!)!;
    const result = simulate(data, team(task, 'wall'), FLAT, 3000, undefined, new Set([`Jill@${x},${y},${z}`]));
    expect(success(task, 'wall', result)).toBe(true);
    expect(result.agents.get('Andy')!.commands).toContain(jills);
  });

  test('construction: a teammate with no cells standing in one hears the go-ahead and steps off the site, once', () => {
    // Bob holds every block and may not hand any over: Jill gets none, so no cell, but stands in one.
    const task = {
      type: 'construction',
      goal: 'build',
      agent_count: 3,
      timeout: 60,
      blocked_actions: { 2: ['!givePlayer'] },
      initial_inventory: { 0: {}, 1: {}, 2: { stone: 6 } },
      blueprint: {
        materials: { stone: 6 },
        levels: [
          {
            level: 0,
            coordinates: [0, -60, 0],
            placement: [
              ['stone', 'stone', 'stone'],
              ['stone', 'stone', 'stone'],
            ],
          },
        ],
      },
    } as unknown as Task;
    const cells = blueprintCells(task.blueprint!);
    // The coordinator may not build (so has no cell) and stands in one.
    const coordinatorIdle = { ...task, blocked_actions: { 0: ['!placeBlockAt'], 2: ['!givePlayer'] } } as unknown as Task;
    for (const [who, cell, played] of [
      ['Jill', cells.at(-1)!, task],
      ['Jill', cells[0]!, task],
      ['Andy', cells[2]!, coordinatorIdle],
    ] as const) {
      const members = team(played, 'stand').map((a) => (a.name === who ? { ...a, position: { x: cell.x, y: cell.y, z: cell.z } } : a));
      const result = simulate(data, members, FLAT, 3000);
      expect(success(played, 'stand', result), `${who} in ${cellKey(cell)}`).toBe(true);
      const moves = result.agents.get(who)!.commands.filter((c) => !c.startsWith('!startConversation'));
      expect(moves).toEqual([expect.stringMatching(/^!goToCoordinates\(-3, -60, \d+, 1\)$/)]);
    }
  });

  test("construction, 3 agents: a hand-over left lying is fetched, and the giver's Done still reaches the coordinator", () => {
    const [id, task] = Object.entries(generateConstructionTasks(data, { agents: 3, count: 1, seed: 7098, size: 6, levels: 3 }))[0]!;
    const plain = simulate(data, team(task, id), FLAT);
    const giver = [...plain.agents.values()].find((a) => a.name !== 'Andy' && a.commands.some((c) => c.startsWith('!givePlayer')))!;
    const to = /^!givePlayer\("([A-Za-z]+)"/.exec(giver.commands.find((c) => c.startsWith('!givePlayer'))!)![1]!;
    expect(to).not.toBe('Andy');
    const result = simulate(data, team(task, id), FLAT, 3000, { from: giver.name, to });
    expect(success(task, id, result)).toBe(true);
    expect(result.agents.get(to)!.commands.some((c) => c.startsWith('!goToCoordinates'))).toBe(true);
  });

  test('construction: a builder whose blocks went astray unseen places none it lacks; the teammate holding them builds its cells', () => {
    const [id, task] = Object.entries(generateConstructionTasks(data, { agents: 3, count: 1, seed: 7008, size: 6, levels: 3 }))[0]!;
    const plain = simulate(data, team(task, id), FLAT);
    const giver = [...plain.agents.values()].find((a) => a.name !== 'Andy' && a.commands.some((c) => c.startsWith('!givePlayer')))!;
    const to = /^!givePlayer\("([A-Za-z]+)"/.exec(giver.commands.find((c) => c.startsWith('!givePlayer'))!)![1]!;
    const result = simulate(data, team(task, id), FLAT, 4000, { from: giver.name, to, instead: 'Andy', unseen: true });
    expect(success(task, id, result)).toBe(true);
    const lacked = result.agents
      .get(to)!
      .journal.since(0)
      .filter((e) => e.kind === 'outcome' && e.outcome.command === '!placeBlockAt' && e.outcome.code === 'missing_items');
    expect(lacked).toEqual([]);
  });

  test('a teammate asked for items it lacks, with hand-overs of the plan still to make, makes them instead of only saying Done', () => {
    const task = {
      type: 'techtree',
      goal: 'craft a wall',
      agent_count: 3,
      target: 'deepslate_brick_wall',
      initial_inventory: { 0: { polished_deepslate: 3 }, 1: { polished_deepslate: 2 }, 2: { polished_deepslate: 3, crafting_table: 1 } },
      blocked_actions: { 0: ['!craftRecipe'] },
      timeout: 60,
    } as unknown as Task;
    const played = simulate(data, team(task, 'wall'), FLAT);
    const jill = played.agents.get('Jill')!;
    const received = jill.journal.since(0);
    const plan = received.find((e) => e.kind === 'message' && e.message.text.startsWith('Plan.'))!;
    const give = jill.commands.find((c) => c.startsWith('!givePlayer('));
    expect(give, 'the plan has Jill hand something over').toBeDefined();
    // The plan and a call for an item Jill does not hold, read in one go (the plan came as a note
    // while she was busy).
    const planText = plan.kind === 'message' ? plan.message.text : '';
    const reply = new OraclePolicy(data).decide({
      name: 'Jill',
      inventory: task.initial_inventory['1'] ?? {},
      targets: taskTargets({ ...task, id: 'wall' }),
      blueprint: undefined,
      task: { teammates: ['Andy', 'Bob'] },
      canUse: (c) => !(task.blocked_actions?.['1'] ?? []).includes(c),
      partner: 'Andy',
      blocks: FLAT.blocks,
      mobs: FLAT.mobs,
      records: [
        ...received.slice(0, received.indexOf(plan)),
        ...entries(
          { kind: 'notice', notice: { kind: 'unread', partner: 'Andy', lines: [planText] } },
          line('Andy', formatNeed('Bob', { diamond: 1 })),
        ),
      ],
    });
    expect(reply).toBe(give);
  });

  test('a plan the agent had not read when the coordinator moved on ("said before ending the conversation") is followed as if heard', () => {
    const [id, task] = Object.entries(generateConstructionTasks(data, { agents: 3, count: 1, seed: 7017, size: 4, levels: 2 }))[0]!;
    const played = simulate(data, team(task, id), FLAT);
    expect(success(task, id, played)).toBe(true);
    const i = NAMES.indexOf('Bob');
    const bob = played.agents.get('Bob')!;
    const received = bob.journal.since(0);
    const go = received.findIndex((e) => e.kind === 'message' && e.message.text.startsWith('Go.'));
    expect(go, 'Andy tells Bob to go').toBeGreaterThan(0);
    const goText = (received[go] as Extract<JournalEntry, { kind: 'message' }>).message.text;
    const heard = received.slice(0, go + 1);
    const unread: JournalEntry[] = [
      ...received.slice(0, go),
      ...entries(
        { kind: 'notice', notice: { kind: 'unread', partner: 'Andy', lines: [goText] } },
        { kind: 'notice', notice: { kind: 'ended', partner: 'Andy', text: '' } },
      ),
    ];
    const decide = (records: JournalEntry[]) =>
      new OraclePolicy(data).decide({
        name: 'Bob',
        inventory: task.initial_inventory[String(i)] ?? {},
        targets: undefined,
        blueprint: task.blueprint,
        task: { teammates: NAMES.slice(0, task.agent_count).filter((n) => n !== 'Bob') },
        canUse: () => true,
        partner: undefined,
        blocks: FLAT.blocks,
        mobs: FLAT.mobs,
        records,
      });
    const asHeard = decide(heard);
    expect(asHeard).toMatch(/^!/);
    expect(decide(unread)).toBe(asHeard);
  });

  test("a chest or furnace out of its command's range (a hunt led the agent away): it goes back to where the task began", () => {
    const policy = new OraclePolicy(data);
    const at = (x: number, z: number, records: JournalEntry[] = []) =>
      policy.decide({
        name: 'Bob',
        inventory: {},
        targets: { cooked_rabbit: 1 },
        blueprint: undefined,
        task: {
          teammates: [],
          supplies: { rabbit: { kind: 'hunt', mob: 'rabbit', where: 'a rabbit in the pen' }, coal: { kind: 'chest', where: 'the chest' } },
        },
        canUse: () => true,
        partner: undefined,
        position: { x, y: -60, z },
        blocks: FLAT.blocks,
        mobs: ['rabbit'],
        records,
      });
    const failed = (command: string, sought: { kind: 'container' | 'block' | 'item'; name: string }) =>
      ran({ command, args: {}, ok: false, code: 'not_found', text: 'Not within range.', data: { sought } });
    expect(at(4.5, 7.5)).not.toMatch(/^!goToCoordinates/);
    const home = '!goToCoordinates(4, -60, 7, 2)';
    expect(at(60.5, 7.5, failed('!takeFromChest', { kind: 'container', name: 'chest' }))).toBe(home);
    expect(at(60.5, 7.5, failed('!smeltItem', { kind: 'block', name: 'furnace' }))).toBe(home);
    // A chest that lacks the item is no reason to go back.
    expect(at(5.5, 7.5, failed('!takeFromChest', { kind: 'item', name: 'coal' }))).not.toBe(home);
  });

  test('back where the task began after a furnace was out of range, the smoker there is used, even when the hunt ended near home', () => {
    // A Hell's Kitchen run (2026-11-28): the pig was killed 20 blocks from the start, the smoker
    // 33 blocks from there; back home, the worker still counted the smoker gone and asked for
    // its dish until the time ran out.
    const policy = new OraclePolicy(data);
    const at = (x: number, z: number, records: JournalEntry[] = []) =>
      policy.decide({
        name: 'Andy',
        inventory: { porkchop: 1 },
        targets: { cooked_porkchop: 1 },
        blueprint: undefined,
        task: { teammates: [] },
        canUse: () => true,
        partner: undefined,
        position: { x, y: -60, z },
        blocks: [...FLAT.blocks, 'smoker'],
        mobs: [],
        records,
      });
    expect(at(27.5, 19.5)).toBe('!smeltItem("porkchop", 1)');
    const missed = ran({
      command: '!smeltItem',
      args: { item_name: 'porkchop', num: 1 },
      ok: false,
      code: 'not_found',
      text: 'No smoker or furnace within 32 blocks and you have none to place: craft a furnace from 8 cobblestone.',
      data: { sought: { kind: 'block', name: 'furnace' } },
    });
    expect(at(27.5, 39.5, missed)).toBe('!goToCoordinates(27, -60, 19, 2)');
    const back = ran({
      command: '!goToCoordinates',
      args: { x: 27, y: -60, z: 19, closeness: 2 },
      ok: true,
      code: 'ok',
      text: 'Reached (27.5, -60.0, 21.6).',
    });
    // The same command as the one that failed: tried again after the policy's usual wait.
    expect(at(27.5, 21.5, back)).toBe(WAIT);
    expect(at(27.5, 21.5)).toBe('!smeltItem("porkchop", 1)');
  });

  test('a furnace left far behind (up a mine): one is made from the cobblestone held rather than a walk back; with nothing to make one, the walk', () => {
    const policy = new OraclePolicy(data);
    const decide = (inventory: Record<string, number>, records: JournalEntry[] = []) =>
      policy.decide({
        name: 'Andy',
        inventory,
        targets: { gold_ingot: 2 },
        blueprint: undefined,
        task: { teammates: [] },
        canUse: () => true,
        partner: undefined,
        position: { x: 0.5, y: -20, z: 0.5 },
        blocks: ['stone', 'deepslate', 'furnace'],
        mobs: [],
        records,
      });
    const noFurnace = ran({
      command: '!smeltItem',
      args: { item_name: 'raw_gold', num: 2 },
      ok: false,
      code: 'not_found',
      text: 'No blast_furnace or furnace within 32 blocks.',
      data: { sought: { kind: 'block', name: 'furnace' } },
    });
    expect(decide({ raw_gold: 2, coal: 1 })).toBe('!smeltItem("raw_gold", 2)'); // the first decision: home is here
    expect(decide({ raw_gold: 2, coal: 1, cobblestone: 8, crafting_table: 1 }, noFurnace)).toBe('!craftRecipe("furnace", 1)');
    expect(decide({ raw_gold: 2, coal: 1 }, noFurnace)).toMatch(/^!goToCoordinates\(/);
  });

  test('a furnace is made once what it smelts is held: the ore first (the stone for the furnace comes up on the way), then the furnace', () => {
    const policy = new OraclePolicy(data);
    const decide = (inventory: Counts) => alone(policy, { iron_ingot: 3 }, inventory, ['stone', 'iron_ore', 'oak_log', 'coal_ore']);
    const held = { stone_pickaxe: 1, crafting_table: 1, oak_planks: 4 };
    expect(decide(held)).toBe('!collectBlocks("iron_ore", 3)');
    expect(decide({ ...held, cobblestone: 3 })).toBe('!collectBlocks("iron_ore", 3)');
    expect(decide({ crafting_table: 1, wooden_pickaxe: 1, stick: 2, oak_planks: 4, cobblestone: 3 })).toBe(
      '!craftRecipe("stone_pickaxe", 1)',
    );
    expect(decide({ ...held, raw_iron: 3, cobblestone: 12 })).toBe('!craftRecipe("furnace", 1)');
    expect(decide({ ...held, raw_iron: 3 })).toBe('!collectBlocks("stone", 8)');
    expect(decide({ ...held, raw_iron: 2 })).toBe('!collectBlocks("iron_ore", 1)');
    // A table at the surface is not counted on for the furnace: the planks for one are kept.
    const seenTable = (inventory: Counts) =>
      alone(policy, { iron_ingot: 3 }, inventory, ['stone', 'iron_ore', 'oak_log', 'crafting_table']);
    expect(seenTable({ stone_pickaxe: 1, oak_planks: 8 })).toBe('!collectBlocks("iron_ore", 3)');
    // Planks for the fuel but not for a table too: a log at the surface first.
    expect(seenTable({ stone_pickaxe: 1, oak_planks: 2 })).toBe('!collectBlocks("oak_log", 1)');
  });

  test('with no table in sight, the one the plan makes comes before the crafts that need it (the compass crafted its wooden pickaxe without one, over and over)', () => {
    const policy = new OraclePolicy(data);
    const decide = (inventory: Counts) => alone(policy, { compass: 1 }, inventory, ['stone', 'iron_ore', 'redstone_ore', 'oak_log']);
    expect(decide({ iron_ingot: 2, oak_planks: 20, stick: 8 })).toBe('!craftRecipe("crafting_table", 1)');
  });

  test('a milking waits for its bucket: the iron for it first (the cake asked for a cow with no bucket held until the end)', () => {
    const policy = new OraclePolicy(data);
    const decision = alone(
      policy,
      { milk_bucket: 1 },
      { stone_pickaxe: 1, crafting_table: 1, oak_planks: 8 },
      ['stone', 'iron_ore', 'oak_log'],
      ['cow'],
    );
    expect(decision).toBe('!collectBlocks("iron_ore", 3)');
  });

  test.each([
    ['a milking', { milk_bucket: 1 }, { bucket: 1 }, '!useItemOnEntity', 'cow'],
    ['a hunt', { leather: 1 }, {}, '!attack', 'cow'],
  ])(
    '%s whose mob wandered out of range: the bot looks for it farther off, once; then it is given up',
    (_, targets, inventory, command, mob) => {
      const policy = new OraclePolicy(data);
      const decide = (records: JournalEntry[]) => alone(policy, targets, inventory, ['grass_block', 'oak_log'], [mob], records);
      const notFound = (command: string) =>
        ran({
          command,
          args: {},
          ok: false,
          code: 'not_found',
          text: `No ${mob} within 24 blocks.`,
          data: { sought: { kind: 'mob', name: mob, range: 24 } },
        });
      expect(decide([])).toMatch(new RegExp(`^${command}\\(`));
      expect(decide(notFound(command))).toBe(`!searchForEntity("${mob}", 64)`);
      expect(decide(notFound('!searchForEntity'))).not.toMatch(/^!(searchForEntity|useItemOnEntity|attack)\(/);
    },
  );

  test('no room to place the furnace at the bottom of a shaft: the bot digs a few blocks along the level, then smelts', () => {
    const policy = new OraclePolicy(data);
    const held = { raw_iron: 1, furnace: 1, oak_planks: 4 };
    const decide = (records: JournalEntry[]) => alone(policy, { iron_ingot: 1 }, held, ['stone', 'iron_ore'], [], records);
    expect(decide([])).toMatch(/^!smeltItem\("raw_iron", 1\)/);
    const cramped = ran({
      command: '!smeltItem',
      args: { item_name: 'raw_iron', num: 1 },
      ok: false,
      code: 'not_found',
      text: 'No free spot with solid ground within 2 blocks to place furnace. Move to open ground and try again.',
      data: { sought: { kind: 'place', name: 'a free spot for furnace', range: 2 } },
    });
    // Along the level: a tunnel whose floor takes the furnace (`alone` stands at 0, 64, 0).
    expect(decide(cramped)).toBe('!goToCoordinates(4, 64, 0, 0)');
    const moved = ran({
      command: '!goToCoordinates',
      args: { x: 4, y: 64, z: 0, closeness: 0 },
      ok: true,
      code: 'ok',
      text: 'Reached (4.5, 64, 0.5).',
    });
    // The retry of a command that changed nothing comes after its wait (./retry.ts).
    expect(decide(moved)).toBe('!stay(2)');
    expect(decide([])).toMatch(/^!smeltItem\("raw_iron", 1\)/);
  });

  test('a monster is hunted with a sword in hand: a wooden one first, a stone one when cobblestone is held', () => {
    const policy = new OraclePolicy(data);
    const decide = (inventory: Counts) => alone(policy, { fishing_rod: 1 }, inventory, ['grass_block', 'oak_log'], ['spider']);
    const rod = { string: 1, stick: 3, crafting_table: 1 };
    expect(decide({ ...rod, oak_planks: 2, stick: 4 })).toBe('!craftRecipe("wooden_sword", 1)');
    expect(decide({ ...rod, oak_planks: 2, stick: 4, cobblestone: 2 })).toBe('!craftRecipe("stone_sword", 1)');
    expect(decide({ ...rod, wooden_sword: 1 })).toBe('!attack("spider")');
    // An animal is hunted bare-handed, as before.
    expect(alone(new OraclePolicy(data), { leather: 1 }, {}, ['grass_block'], ['cow'])).toBe('!attack("cow")');
  });

  test('a monster out of range is sought as far as monsters live (128 blocks: farther they despawn)', () => {
    const policy = new OraclePolicy(data);
    const notFound = ran({
      command: '!attack',
      args: {},
      ok: false,
      code: 'not_found',
      text: 'No creeper within 24 blocks.',
      data: { sought: { kind: 'mob', name: 'creeper', range: 24 } },
    });
    const decide = (records: JournalEntry[]) => alone(policy, { gunpowder: 1 }, { stone_sword: 1 }, ['stone'], ['creeper'], records);
    expect(decide([])).toBe('!attack("creeper")');
    expect(decide(notFound)).toBe('!searchForEntity("creeper", 128)');
    // No way to it (deep in a cave): it is given up here, not sought again and again.
    const unreachable = ran({
      command: '!searchForEntity',
      args: {},
      ok: false,
      code: 'unreachable',
      text: 'Took to long to decide path to goal!',
      data: { sought: { kind: 'mob', name: 'creeper', range: 128 } },
    });
    expect(decide(unreachable)).toMatch(/^I still need 1 gunpowder/);
  });

  test("a crafting table seen but out of the command's range (left behind by a dig): the plan makes one, until a craft places it", () => {
    const policy = new OraclePolicy(data);
    const decide = (inventory: Record<string, number>, records: JournalEntry[] = []) =>
      policy.decide({
        name: 'Andy',
        inventory,
        targets: { stone_pickaxe: 1 },
        blueprint: undefined,
        task: { teammates: [] },
        canUse: () => true,
        partner: undefined,
        position: { x: 0.5, y: 40, z: 0.5 },
        blocks: ['stone', 'crafting_table', 'oak_log'],
        mobs: [],
        records,
      });
    const craft = (item: string, ok: boolean, data: Record<string, unknown>) =>
      ran({ command: '!craftRecipe', args: { recipe_name: item, num: 1 }, ok, code: ok ? 'ok' : 'missing_items', text: '', data });
    const held = { cobblestone: 3, stick: 2, oak_planks: 4 };
    expect(decide(held)).toBe('!craftRecipe("stone_pickaxe", 1)');
    // None within 32 blocks after all: a table from the planks first.
    expect(decide(held, craft('stone_pickaxe', false, { missing: { crafting_table: 1 } }))).toBe('!craftRecipe("crafting_table", 1)');
    expect(decide({ ...held, oak_planks: 0, crafting_table: 1 })).toBe('!craftRecipe("stone_pickaxe", 1)');
    // The craft placed the held table: it stands here now, and no other is made.
    expect(
      decide(held, craft('stone_pickaxe', true, { gained: { stone_pickaxe: 1 }, spent: { crafting_table: 1, cobblestone: 3, stick: 2 } })),
    ).toBe('!craftRecipe("stone_pickaxe", 1)');
  });

  test('a hand-over nobody picked up: the giver says where it lies, the recipient walks onto it, the task is done', () => {
    const bread = {
      type: 'techtree',
      goal: 'craft bread',
      agent_count: 2,
      target: 'bread',
      initial_inventory: { 0: { wheat: 2, crafting_table: 1 }, 1: { wheat: 1 } },
      blocked_actions: {},
      timeout: 60,
    } as unknown as Task;
    const result = simulate(data, team(bread, 'bread'), FLAT, 2000, { from: 'Jill', to: 'Andy' });
    expect(success(bread, 'bread', result)).toBe(true);
    const at = `${Math.floor(LYING_AT.x)}, ${Math.floor(LYING_AT.y)}, ${Math.floor(LYING_AT.z)}`;
    expect(result.agents.get('Jill')!.commands).toContain(
      `!startConversation("Andy", "The wheat I gave you lies at (${at}): please pick it up.")`,
    );
    expect(result.agents.get('Andy')!.commands).toContain(`!goToCoordinates(${at}, 0)`);
    expect(result.agents.get('Andy')!.commands.at(-1)).toBe('!craftRecipe("bread", 1)');
  });

  test('an unsolvable task is said once, with the reason, and the policy records it', () => {
    const task = {
      type: 'techtree',
      goal: 'craft a compass',
      agent_count: 2,
      target: 'compass',
      initial_inventory: { 0: { iron_ingot: 2 }, 1: { iron_ingot: 2, crafting_table: 1 } },
      blocked_actions: {},
      timeout: 60,
    } as unknown as Task;
    const result = simulate(data, team(task, 'compass'), FLAT);
    const said = [...result.agents.values()].flatMap((a) => a.said).filter((l) => l.startsWith('We cannot finish the task'));
    expect(said).toEqual(['We cannot finish the task: 1 compass needs 1 redstone, which nobody has and the world here does not give.']);
    expect(result.agents.get('Andy')!.policy.unsolvable).toMatch(/redstone/);
  });

  test('a blueprint whose levels clash is reported with the cells at fault', () => {
    const row = (b: string) => [[b, b]];
    const blueprint: Blueprint = {
      levels: [
        { level: 0, coordinates: [0, 4, 0], placement: row('stone') },
        { level: 1, coordinates: [0, 4, 0], placement: row('oak_planks') },
      ],
    };
    expect(blueprintClashes(blueprint).map((c) => [c.x, c.y, c.z])).toEqual([
      [0, 4, 0],
      [1, 4, 0],
    ]);
    const plan = planConstruction(blueprint, [{ name: 'Andy', inventory: { stone: 2, oak_planks: 2 }, canBuild: true, canGive: true }]);
    expect(plan.unsolvable).toMatch(/inconsistent.*\(0, 4, 0\) is stone or oak_planks in levels 0, 1/);
  });

  test('construction split: one member holding every block shares them until each builder has about its share', () => {
    const blueprint: Blueprint = {
      levels: [
        {
          level: 0,
          coordinates: [0, -60, 0],
          placement: [
            ['stone', 'stone', 'stone', 'oak_planks'],
            ['stone', 'stone', 'oak_planks', 'oak_planks'],
            ['stone', 'stone', 'stone', 'stone'],
          ],
        },
      ],
    };
    for (const agents of [2, 3, 4, 5])
      for (let holder = 0; holder < agents; holder++) {
        const members = NAMES.slice(0, agents).map((name, i) => {
          const inventory: Record<string, number> = i === holder ? { stone: 9, oak_planks: 3 } : {};
          return { name, inventory, canBuild: true, canGive: true };
        });
        const plan = planConstruction(blueprint, members);
        expect(plan.unsolvable).toBeUndefined();
        const cells = new Map<string, number>();
        for (const who of plan.owner.values()) cells.set(who, (cells.get(who) ?? 0) + 1);
        const share = Math.ceil(12 / agents);
        expect(
          [...cells.values()].every((n) => n <= share),
          `${agents} agents, holder ${holder}: ${JSON.stringify([...cells])}`,
        ).toBe(true);
        expect(cells.size, `${agents} agents, holder ${holder}: as many builders as shares`).toBe(Math.ceil(12 / share));
      }
  });
});

describe('sowing back after a harvest (in-memory world)', () => {
  const cook = (targets: Record<string, number>, blocked: string[] = [], world = COOKING) =>
    simulate(data, [{ name: 'Andy', inventory: {}, blocked, targets }], world).agents.get('Andy')!;

  test('the harvested crop is sown back with the seeds the dish does not use, then the work goes on', () => {
    const bread = cook({ bread: 1 });
    expect(bread.commands).toEqual(['!collectBlocks("wheat", 3)', '!sow("wheat_seeds", 3)', '!craftRecipe("bread", 1)']);
    expect(bread.inventory).toEqual({ bread: 1 });
    // A potato is both the seed and the food: one of the two harvested is spare.
    const potato = cook({ baked_potato: 1 });
    expect(potato.commands).toEqual(['!collectBlocks("potatoes", 1)', '!sow("potato", 1)', '!smeltItem("potato", 1)']);
    expect(potato.inventory).toEqual({ baked_potato: 1 });
  });

  test('a sowing that fails is not tried again, and a blocked !sow is never used: the dish is still made', () => {
    const noFarmland = { ...COOKING, blocks: COOKING.blocks.filter((b) => b !== 'farmland') };
    const failed = cook({ bread: 1 }, [], noFarmland);
    expect(failed.commands).toEqual(['!collectBlocks("wheat", 3)', '!sow("wheat_seeds", 3)', '!craftRecipe("bread", 1)']);
    expect(
      failed.journal.since(0).some((e) => e.kind === 'outcome' && e.outcome.command === '!sow' && e.outcome.code === 'not_found'),
    ).toBe(true);
    expect(failed.inventory.bread).toBe(1);
    const blocked = cook({ bread: 1 }, ['!sow']);
    expect(blocked.commands).toEqual(['!collectBlocks("wheat", 3)', '!craftRecipe("bread", 1)']);
    expect(blocked.inventory).toEqual({ bread: 1, wheat_seeds: 3 });
  });
});
