/**
 * The coding command, `!newAction(prompt)`: the model writes JavaScript against the skill library,
 * run in the SES sandbox in a worker thread (see `src/sandbox/`). Offered only with
 * `allow_insecure_coding`.
 *
 * The code never sees the bot: it gets {@link codingSkills}, functions that close over the bot
 * and the action's AbortSignal and take and return plain data only.
 */
import type { Bot } from 'mineflayer';
import { writeAndRunCode, type SkillTable } from '../sandbox/index.ts';
import { collectBlocks } from '../skills/collect.ts';
import { craftRecipe } from '../skills/crafting.ts';
import { formatPlan, planCrafting } from '../skills/crafting-plan.ts';
import { givePlayer, inventoryCounts } from '../skills/items.ts';
import { goToPlayer, goToPosition, searchForBlock } from '../skills/movement.ts';
import { placeNearby } from '../skills/place.ts';
import { defineCommand, type CommandContext } from './context.ts';
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
const str = (v: unknown, what: string): string => {
  if (typeof v !== 'string' || !v.trim()) throw new TypeError(`${what} must be a non-empty string, got ${JSON.stringify(v)}`);
  return v.trim();
};

/**
 * The skills `!newAction` code may call, bound to `bot` and `signal`.
 *
 * @param say sends a chat line (through the agent's rate-limited outbox).
 * @returns the functions (for {@link writeAndRunCode}) and their docs (for `$CODE_DOCS`).
 */
function codingSkills(bot: Bot, signal: AbortSignal, say: (text: string) => void): { skills: SkillTable; docs: string } {
  const table: Record<string, CodingSkill> = {
    position: {
      doc: 'position(): {x, y, z} of your feet',
      fn: async () => { const p = bot.entity.position; return { x: p.x, y: p.y, z: p.z }; },
    },
    inventory: {
      doc: 'inventory(): {itemName: count}',
      fn: async () => inventoryCounts(bot),
    },
    collectBlocks: {
      doc: 'collectBlocks(type, n): dig n blocks of a type nearby and pick up the drops',
      fn: async (type, n) => collectBlocks(bot, str(type, 'type'), num(n, 'n'), signal),
    },
    craftRecipe: {
      doc: 'craftRecipe(item, n): craft n items (uses or places a crafting table)',
      fn: async (item, n) => craftRecipe(bot, str(item, 'item'), num(n, 'n'), signal),
    },
    craftingPlan: {
      doc: 'craftingPlan(item, n): text plan: missing items and crafts in order',
      fn: async (item, n) => formatPlan(planCrafting(bot.registry, inventoryCounts(bot), str(item, 'item'), num(n, 'n'))),
    },
    goToPosition: {
      doc: 'goToPosition(x, y, z, closeness): walk there',
      fn: async (x, y, z, closeness = 1) => goToPosition(bot, num(x, 'x'), num(y, 'y'), num(z, 'z'), num(closeness, 'closeness'), signal),
    },
    goToPlayer: {
      doc: 'goToPlayer(name, closeness): walk to a player',
      fn: async (name, closeness = 2) => goToPlayer(bot, str(name, 'name'), num(closeness, 'closeness'), signal),
    },
    searchForBlock: {
      doc: 'searchForBlock(type, range): walk to the nearest block of a type',
      fn: async (type, range = 64) => searchForBlock(bot, str(type, 'type'), num(range, 'range'), signal),
    },
    givePlayer: {
      doc: 'givePlayer(name, item, n): hand items to a player',
      fn: async (name, item, n) => givePlayer(bot, str(name, 'name'), str(item, 'item'), num(n, 'n'), signal),
    },
    placeBlock: {
      doc: 'placeBlock(type): place a block from your inventory next to you; returns {x, y, z}',
      fn: async (type) => { const b = await placeNearby(bot, str(type, 'type'), signal); return { x: b.position.x, y: b.position.y, z: b.position.z }; },
    },
    say: {
      doc: 'say(text): chat a line',
      fn: async (text) => { say(String(text)); },
    },
  };
  const skills: SkillTable = {};
  for (const [name, skill] of Object.entries(table)) skills[name] = skill.fn;
  return { skills, docs: Object.values(table).map((s) => s.doc).join('\n') };
}

const newActionCommand = defineCommand({
  name: '!newAction',
  kind: 'action',
  description: 'Write and run JavaScript for a task no other command does; describe the task.',
  params: {
    prompt: { type: 'string', description: 'what the code should do', example: 'build a 3x3 dirt platform' },
  },
  async perform({ bot, agent, signal }, { prompt }) {
    const coding = agent.coding?.();
    if (!coding) return 'Writing code is not available to this agent.';
    const { skills, docs } = codingSkills(bot, signal, coding.say);
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
