/**
 * The coding command, `!newAction(prompt)`: the model writes JavaScript against the skill library,
 * run in the SES sandbox in a worker thread (see `src/sandbox/`). Offered only with
 * `allow_insecure_coding`.
 *
 * The code never sees the bot: it gets {@link codingSkills}, functions that close over the bot
 * and the action's AbortSignal and take and return plain data only.
 */
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { writeAndRunCode, type SkillTable } from '../sandbox/index.ts';
import { formatBlueprintCheck } from '../tasks/blueprint.ts';
import { sourcesAround } from '../skills/surroundings.ts';
import { activateNearest, digAt, digDown, placeBlockAt } from '../skills/blocks.ts';
import { collectBlocks } from '../skills/collect.ts';
import { attackNearest, attackPlayer } from '../skills/combat.ts';
import { putInChest, takeFromChest, viewChest } from '../skills/containers.ts';
import { craftItems, craftRecipe } from '../skills/crafting.ts';
import { formatPlan, planCrafting } from '../skills/crafting-plan.ts';
import { sow } from '../skills/farming.ts';
import { givePlayer, inventoryCounts } from '../skills/items.ts';
import { goToPlayer, goToPosition, searchForBlock } from '../skills/movement.ts';
import { moveAway, searchForEntity } from '../skills/navigation.ts';
import { placeNearby } from '../skills/place.ts';
import { goToBed } from '../skills/sleep.ts';
import { clearFurnace, smeltItem } from '../skills/smelting.ts';
import { consume, discard, equip } from '../skills/use-items.ts';
import { defineCommand, type AgentControl, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';

/** A skill function and its one-line doc for the coding prompt. */
interface CodingSkill {
  doc: string;
  fn: (...args: any[]) => Promise<unknown>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const num = (v: unknown, what: string): number => {
  const n = Number(v);
  if (!Number.isFinite(n)) throw new TypeError(`${what} must be a number, got ${JSON.stringify(v)}`);
  return n;
};
const int = (v: unknown, what: string): number => Math.floor(num(v, what));
const str = (v: unknown, what: string): string => {
  if (typeof v !== 'string' || !v.trim()) throw new TypeError(`${what} must be a non-empty string, got ${JSON.stringify(v)}`);
  return v.trim();
};

/**
 * The skills `!newAction` code may call, bound to `bot`, `signal` and the agent: every skill the
 * commands use (moving, collecting, placing at and digging coordinates, crafting, smelting, chests,
 * giving, eating and equipping, fighting) plus reads of the world and of the task's blueprint.
 * Each takes and returns plain data; a failing skill throws, and the error reaches the code.
 * `craftRecipe(item, times)` means what `!craftRecipe` means: crafts, not items.
 *
 * @param say sends a chat line (through the agent's rate-limited outbox).
 * @returns the functions (for {@link writeAndRunCode}) and their docs (for `$CODE_DOCS`).
 */
function codingSkills(
  bot: Bot,
  signal: AbortSignal,
  say: (text: string) => void,
  agent?: Pick<AgentControl, 'task'>,
): { skills: SkillTable; docs: string } {
  const table: Record<string, CodingSkill> = {
    // Reading the world.
    position: {
      doc: 'position(): {x, y, z} of your feet',
      fn: async () => {
        const p = bot.entity.position;
        return { x: p.x, y: p.y, z: p.z };
      },
    },
    inventory: {
      doc: 'inventory(): {itemName: count}',
      fn: async () => inventoryCounts(bot),
    },
    blockAt: {
      doc: 'blockAt(x, y, z): the block name there ("air" for none), or null where the world is not loaded',
      fn: async (x, y, z) => bot.blockAt(new Vec3(int(x, 'x'), int(y, 'y'), int(z, 'z')))?.name ?? null,
    },
    blueprint: {
      doc: 'blueprint(): your construction blueprint {materials, levels: [{level, coordinates: [x, y, z], placement: rows[z][x] of block names}]}, or null',
      fn: async () => agent?.task?.blueprint ?? null,
    },
    checkBlueprint: {
      doc: 'checkBlueprint(): text: what is left to place, remove or replace, and the score',
      fn: async () => {
        const blueprint = agent?.task?.blueprint;
        if (!blueprint) return 'You have no blueprint.';
        return formatBlueprintCheck(blueprint, (x, y, z) => bot.blockAt(new Vec3(x, y, z))?.name);
      },
    },
    // Moving.
    goToPosition: {
      doc: 'goToPosition(x, y, z, closeness = 1): walk there',
      fn: async (x, y, z, closeness = 1) => goToPosition(bot, num(x, 'x'), num(y, 'y'), num(z, 'z'), num(closeness, 'closeness'), signal),
    },
    goToPlayer: {
      doc: 'goToPlayer(name, closeness = 2): walk to a player',
      fn: async (name, closeness = 2) => goToPlayer(bot, str(name, 'name'), num(closeness, 'closeness'), signal),
    },
    searchForBlock: {
      doc: 'searchForBlock(type, range = 64): walk to the nearest block of a type',
      fn: async (type, range = 64) => searchForBlock(bot, str(type, 'type'), num(range, 'range'), signal),
    },
    searchForEntity: {
      doc: 'searchForEntity(type, range = 64): walk to the nearest mob of a type',
      fn: async (type, range = 64) => searchForEntity(bot, str(type, 'type'), num(range, 'range'), signal),
    },
    moveAway: {
      doc: 'moveAway(distance): walk at least this far from here',
      fn: async (distance) => moveAway(bot, num(distance, 'distance'), signal),
    },
    // Blocks.
    collectBlocks: {
      doc: 'collectBlocks(type, n): dig n blocks of a type nearby and pick up the drops',
      fn: async (type, n) => collectBlocks(bot, str(type, 'type'), int(n, 'n'), signal),
    },
    placeBlockAt: {
      doc: 'placeBlockAt(type, x, y, z): place a block from your inventory at those coordinates (walks there)',
      fn: async (type, x, y, z) => placeBlockAt(bot, str(type, 'type'), int(x, 'x'), int(y, 'y'), int(z, 'z'), signal),
    },
    placeBlock: {
      doc: 'placeBlock(type): place a block from your inventory next to you; returns {x, y, z}',
      fn: async (type) => {
        const b = await placeNearby(bot, str(type, 'type'), signal);
        return { x: b.position.x, y: b.position.y, z: b.position.z };
      },
    },
    sow: {
      doc: 'sow(item, n): plant n seed items (wheat_seeds, carrot, potato, beetroot_seeds) on the nearest empty farmland',
      fn: async (item, n) => sow(bot, str(item, 'item'), int(n, 'n'), signal),
    },
    digAt: {
      doc: 'digAt(x, y, z): dig the block at those coordinates (walks there) and pick up the drop',
      fn: async (x, y, z) => digAt(bot, int(x, 'x'), int(y, 'y'), int(z, 'z'), signal),
    },
    digDown: {
      doc: 'digDown(distance): dig straight down, stopping before lava, water or a drop',
      fn: async (distance) => digDown(bot, int(distance, 'distance'), signal),
    },
    activate: {
      doc: 'activate(type): use the nearest block of a type (lever, door, button)',
      fn: async (type) => activateNearest(bot, str(type, 'type'), signal),
    },
    goToBed: {
      doc: 'goToBed(): sleep in the nearest bed until morning',
      fn: async () => goToBed(bot, signal),
    },
    // Items.
    craftRecipe: {
      doc: 'craftRecipe(item, times = 1): craft the recipe this many times (oak_planks once = 4 planks); uses or places a crafting table',
      fn: async (item, times = 1) => craftRecipe(bot, str(item, 'item'), int(times, 'times'), signal),
    },
    craftItems: {
      doc: 'craftItems(item, n): craft at least n items, in whole crafts',
      fn: async (item, n) => craftItems(bot, str(item, 'item'), int(n, 'n'), signal),
    },
    craftingPlan: {
      doc: 'craftingPlan(item, n = 1): the text plan of !getCraftingPlan: missing items, then crafts, smelts and gathering in order',
      fn: async (item, n = 1) =>
        formatPlan(
          planCrafting(bot.registry, inventoryCounts(bot), str(item, 'item'), int(n, 'n'), {
            sources: sourcesAround(bot, bot.registry),
            expand: 'raw',
          }),
        ),
    },
    givePlayer: {
      doc: 'givePlayer(name, item, n): hand items to a player',
      fn: async (name, item, n) => givePlayer(bot, str(name, 'name'), str(item, 'item'), int(n, 'n'), signal),
    },
    equip: {
      doc: 'equip(item): hold an item or wear armour',
      fn: async (item) => equip(bot, str(item, 'item'), signal),
    },
    consume: {
      doc: 'consume(item): eat or drink',
      fn: async (item) => consume(bot, str(item, 'item'), signal),
    },
    discard: {
      doc: 'discard(item, n): drop items on the ground',
      fn: async (item, n) => discard(bot, str(item, 'item'), int(n, 'n'), signal),
    },
    // Chests and furnaces.
    putInChest: {
      doc: 'putInChest(item, n): put items in the nearest chest',
      fn: async (item, n) => putInChest(bot, str(item, 'item'), int(n, 'n'), signal),
    },
    takeFromChest: {
      doc: 'takeFromChest(item, n): take items from the nearest chest',
      fn: async (item, n) => takeFromChest(bot, str(item, 'item'), int(n, 'n'), signal),
    },
    viewChest: {
      doc: 'viewChest(): text: what the nearest chest holds',
      fn: async () => viewChest(bot, signal),
    },
    smeltItem: {
      doc: 'smeltItem(item, n): smelt or cook n items in a furnace (uses or places one, adds fuel, waits)',
      fn: async (item, n) => smeltItem(bot, str(item, 'item'), int(n, 'n'), signal),
    },
    clearFurnace: {
      doc: 'clearFurnace(): take everything out of the nearest furnace',
      fn: async () => clearFurnace(bot, signal),
    },
    // Fighting.
    attack: {
      doc: 'attack(type): kill the nearest mob of a type',
      fn: async (type) => attackNearest(bot, str(type, 'type'), signal),
    },
    attackPlayer: {
      doc: 'attackPlayer(name): attack a player',
      fn: async (name) => attackPlayer(bot, str(name, 'name'), signal),
    },
    say: {
      doc: 'say(text): chat a line',
      fn: async (text) => {
        say(String(text));
      },
    },
  };
  const skills: SkillTable = {};
  for (const [name, skill] of Object.entries(table)) skills[name] = skill.fn;
  return {
    skills,
    docs: Object.values(table)
      .map((s) => s.doc)
      .join('\n'),
  };
}

const newActionCommand = defineCommand({
  name: '!newAction',
  kind: 'action',
  description: 'Write and run JavaScript for a task no other command does; describe the task.',
  params: {
    prompt: { type: 'string', description: 'what the code should do', example: 'build a 3x3 dirt platform' },
  },
  async perform({ bot, agent, signal }, { prompt }) {
    const coding = await agent.coding?.(prompt);
    if (!coding) return 'Writing code is not available to this agent.';
    const { skills, docs } = codingSkills(bot, signal, coding.say, agent);
    const result = await writeAndRunCode({
      model: coding.model,
      task: prompt,
      skillsDoc: docs,
      skills,
      systemPrompt: coding.systemPrompt,
      context: coding.context,
      timeoutMs: coding.timeoutMs,
      signal,
    });
    return result.message;
  },
});

/**
 * `!newAction`. For an agent without `coding()` (no `allow_insecure_coding`) it answers that
 * writing code is not available; otherwise with the run's message: what the code returned, or why
 * it stopped or failed after its attempts.
 */
export const codingCommands: CommandDef<CommandContext>[] = [newActionCommand];
