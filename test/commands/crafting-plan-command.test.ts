/**
 * `!getCraftingPlan` tells a model the plan the offline policy follows: for the same inventory and
 * the same surroundings, the crafts, smelts and gathering the command lists are the ones the
 * oracle performs when it makes the item (in the in-memory world of test/models/oracle-sim.ts).
 * No server: the command runs over a stand-in bot that holds the inventory and sees the blocks
 * and mobs.
 */
import { describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { AgentControl, CommandContext } from '../../src/commands/context.ts';
import { itemsCommands } from '../../src/commands/items.ts';
import { gameData } from '../../src/game/data.ts';
import type { Counts } from '../../src/game/production.ts';
import { COOKING_SUPPLIES } from '../../src/tasks/cooking.ts';
import { simulate, type SimState, type SimWorld } from '../oracle/oracle-sim.ts';

const data = gameData('1.21.4');

/** A bot that holds `inventory` and sees `world` (what `!getCraftingPlan` reads of a bot). */
function standInBot(inventory: Counts, world: SimWorld): Bot {
  return {
    registry: data,
    inventory: { items: () => Object.entries(inventory).map(([name, count]) => ({ name, count })), slots: [] },
    // One chunk section around the bot, whose palette holds the world's blocks (what blockTypesAround reads).
    game: { minY: -64 },
    world: {
      getColumn: (x: number, z: number) =>
        x === 0 && z === 0 ? { sections: [{ palette: world.blocks.map((name) => data.blocksByName[name]!.defaultState) }] } : undefined,
    },
    entity: { position: new Vec3(0, -60, 0) },
    entities: Object.fromEntries(world.mobs.map((name, i) => [i + 1, { name, type: 'animal', position: new Vec3(i + 2, -60, 0) }])),
  } as unknown as Bot;
}

async function getCraftingPlan(
  inventory: Counts,
  world: SimWorld,
  targetItem: string,
  quantity: number,
  task?: AgentControl['task'],
): Promise<string> {
  const command = itemsCommands.find((c) => c.name === '!getCraftingPlan')!;
  const agent = { task } as unknown as AgentControl;
  const ctx: CommandContext = { bot: standInBot(inventory, world), data, signal: new AbortController().signal, agent };
  return (await command.perform(ctx, { targetItem, quantity })).text;
}

/** `kind item` → items made, from the step lines of a plan text. */
function planned(text: string): Counts {
  const out: Counts = {};
  const add = (key: string, n: number) => {
    out[key] = (out[key] ?? 0) + n;
  };
  for (const line of text.split('\n')) {
    let m = /^- Craft .* -> (\d+) (\w+)/.exec(line);
    if (m) add(`craft ${m[2]}`, Number(m[1]));
    m = /^- Smelt \d+ \w+ -> (\d+) (\w+)/.exec(line);
    if (m) add(`smelt ${m[2]}`, Number(m[1]));
    m = /^- Get (\d+) (\w+) from /.exec(line);
    if (m) add(`gather ${m[2]}`, Number(m[1]));
  }
  return out;
}

/** `kind item` → items made, from the outcomes the in-memory world reported for the oracle's commands. */
function performed(agent: SimState): Counts {
  const out: Counts = {};
  const kind: Record<string, string> = {
    '!craftRecipe': 'craft',
    '!smeltItem': 'smelt',
    '!collectBlocks': 'gather',
    '!attack': 'gather',
    '!useItemOnEntity': 'gather',
  };
  for (const entry of agent.journal.since(0)) {
    if (entry.kind !== 'outcome' || !entry.outcome.ok) continue;
    const what = kind[entry.outcome.command];
    // The first item gained is the one made (a harvest's seeds come after the crop).
    const made = Object.entries(entry.outcome.data?.gained ?? {})[0];
    if (what && made) out[`${what} ${made[0]}`] = (out[`${what} ${made[0]}`] ?? 0) + made[1];
  }
  return out;
}

const FLAT: SimWorld = { blocks: ['grass_block', 'dirt', 'bedrock'], mobs: [] };
const FARM: SimWorld = {
  blocks: [
    'grass_block',
    'dirt',
    'wheat',
    'carrots',
    'potatoes',
    'sugar_cane',
    'red_mushroom',
    'brown_mushroom',
    'crafting_table',
    'furnace',
    'water',
  ],
  mobs: ['cow', 'chicken', 'rabbit'],
  supplies: COOKING_SUPPLIES,
};

const CASES: { item: string; inventory: Counts; world: SimWorld; expected: Counts }[] = [
  { item: 'bread', inventory: {}, world: FARM, expected: { 'gather wheat': 3, 'craft bread': 1 } },
  {
    item: 'cake',
    inventory: { bucket: 3, egg: 1 },
    world: FARM,
    expected: { 'gather wheat': 3, 'gather sugar_cane': 2, 'craft sugar': 2, 'gather milk_bucket': 3, 'craft cake': 1 },
  },
  {
    item: 'golden_carrot',
    inventory: { raw_gold: 1 },
    world: FARM,
    expected: { 'smelt gold_ingot': 1, 'craft gold_nugget': 9, 'gather carrot': 1, 'craft golden_carrot': 1 },
  },
  {
    item: 'wooden_pickaxe',
    inventory: { oak_log: 3 },
    world: FLAT,
    expected: { 'craft oak_planks': 12, 'craft crafting_table': 1, 'craft stick': 4, 'craft wooden_pickaxe': 1 },
  },
  {
    // Several woods in sight: both take the common one.
    item: 'crafting_table',
    inventory: {},
    world: { blocks: ['grass_block', 'pale_oak_log', 'cherry_log', 'oak_log', 'birch_log'], mobs: [] },
    expected: { 'gather oak_log': 1, 'craft oak_planks': 4, 'craft crafting_table': 1 },
  },
  {
    item: 'rabbit_stew',
    inventory: { bowl: 1 },
    world: FARM,
    expected: {
      'gather rabbit': 1,
      'smelt cooked_rabbit': 1,
      'gather potato': 1,
      'smelt baked_potato': 1,
      'gather carrot': 1,
      'gather brown_mushroom': 1,
      'craft rabbit_stew': 1,
    },
  },
];

describe('!getCraftingPlan and the oracle agree', () => {
  for (const { item, inventory, world, expected } of CASES) {
    test(`${item} from ${JSON.stringify(inventory)}: the steps the command lists are the ones the oracle takes`, async () => {
      // The world's supplies as a cooking task gives them to its agents (the oracle plans with them too).
      const text = await getCraftingPlan(inventory, world, item, 1, { supplies: COOKING_SUPPLIES });
      expect(text, text).not.toContain('missing');
      expect(planned(text), text).toEqual(expected);

      const result = simulate(data, [{ name: 'Andy', inventory, blocked: [], targets: { [item]: 1 } }], world);
      const andy = result.agents.get('Andy')!;
      expect(andy.inventory[item] ?? 0, result.log.join('\n')).toBeGreaterThanOrEqual(1);
      expect(performed(andy), result.log.join('\n')).toEqual(expected);
    });
  }

  test('with a table and logs in sight the plan gathers; restrict_to_inventory plans from what is held', async () => {
    const world = { blocks: ['grass_block', 'birch_log', 'crafting_table'], mobs: [] };
    const free = await getCraftingPlan({}, world, 'wooden_pickaxe', 1);
    expect(free).toContain('You can make 1 wooden_pickaxe with what you have and what is around you.');
    expect(free).toContain('- Get 2 birch_log from the birch_log nearby: !collectBlocks("birch_log", 2)');
    expect(free).not.toContain('You need a crafting_table');
    const restricted = await getCraftingPlan({ birch_planks: 1 }, world, 'wooden_pickaxe', 1, { restrictToInventory: true });
    // The sticks come from planks too: what is missing is the recipe tree's leaves (5 planks, 1 held).
    expect(restricted).toContain('you are missing: 4 birch_planks.');
    expect(restricted).toContain('- Craft 2 birch_planks -> 4 stick');
    expect(restricted).toContain('You are restricted to your inventory');
  });
});
