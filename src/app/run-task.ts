/**
 * Runs one MineCollab task end to end: server, bots, set-up (inventories, and the cooking world or
 * the construction site), the goal and conversation, a check every game tick, and one result.
 */
import { appendFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { Agent } from '../agent/agent.ts';
import { startAgents } from './start-bots.ts';
import { ChatOutbox, type RateLimit } from '../conversation/outbox.ts';
import { gameData } from '../game/data.ts';
import { loadProfile, type Profile, type Settings } from '../settings/index.ts';
import { inventoryCounts } from '../skills/items.ts';
import { waitFor } from '../util/abort.ts';
import type { BlockLookup } from '../tasks/blueprint.ts';
import { checkTaskForVersion, goalFor, perAgentTargets, TaskError, taskTargets } from '../tasks/loader.ts';
import type { Blueprint, LoadedTask } from '../tasks/schema.ts';
import { validatorFor, type Validation } from '../tasks/validators.ts';
import {
  ANIMALS_EACH, blueprintBox, COOKING_ANIMALS, cookingAnimalCommands, cookingBlockCommands, cookingFuelCommands,
  cookingLayout, fillBoxCommands, firstLevel, shiftBlueprint, type Pos,
} from '../tasks/worlds.ts';

/** The final line of a run (one JSON object). */
export interface TaskResult {
  task_id: string;
  /**
   * A fraction in [0, 1]. Crafting and cooking: 1 when done, else 0. Construction: the blueprint
   * score / 100 when the run ended (0.6 = 60 % of the counted cells match). Types without a
   * validator: 0.
   */
  score: number;
  success: boolean;
  duration_s: number;
  agents: string[];
  /** Commands each agent ran, in order. */
  commands: Record<string, string[]>;
  /** What went wrong, when the run could not be played to its end. */
  error?: string;
}

export interface TaskRunOptions {
  task: LoadedTask;
  settings: Settings;
  /** One profile per agent, in agent-index order (at least `agent_count`). */
  profiles: Profile[];
  /** Replaces every profile's model. */
  model?: Profile['model'];
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /**
   * Called once set-up is done, before the goals are given (tests build or inspect the world here).
   * A rejection ends the run with `error`.
   */
  onReady?: (ready: TaskReady) => void | Promise<void>;
}

/** What {@link TaskRunOptions.onReady} gets. */
export interface TaskReady {
  agents: Agent[];
  /** Construction: the blueprint as placed in this world (see {@link shiftBlueprint}). */
  blueprint?: Blueprint;
  /** The block agent 0 stood in when set-up began (the cooking world's centre). */
  origin: Pos;
}

/** How long each set-up step may take before the run is abandoned (ms). */
const SETUP_TIMEOUT_MS = 15_000;

/**
 * Rate of set-up commands from an operator: a burst of 20, then one every 50 ms (20 a second).
 * Operators are exempt from vanilla's chat-spam kick (ServerGamePacketListenerImpl.detectRateSpam
 * skips ops; Spigot and Paper do the same), and set-up needs op anyway. Agents' own chat keeps
 * the default limit of their outbox ({@link ChatOutbox}).
 */
export const SETUP_RATE_LIMIT: RateLimit = { burst: 20, intervalMs: 50 };

/**
 * Loads the profiles of `dir` (the task profiles, `profiles/tasks/`), sorted by file name.
 *
 * @throws TaskError when there are fewer than `count`.
 */
export async function loadTaskProfiles(dir: string, count: number): Promise<Profile[]> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
  if (files.length < count) throw new TaskError(`${dir}: the task needs ${count} agents but only ${files.length} profiles are there; add profiles (one JSON file per bot).`);
  return Promise.all(files.slice(0, count).map((f) => loadProfile(path.join(dir, f))));
}

/**
 * The world's blocks as `bot` sees them: the block name, or undefined in chunks it has not
 * loaded. Reads state ids directly (no Block objects), cheap enough for a check every tick.
 */
export function botBlockLookup(bot: Bot): BlockLookup {
  const world = bot.world as unknown as { getColumnAt(p: Vec3): unknown; getBlockStateId(p: Vec3): number | null };
  return (x, y, z) => {
    const p = new Vec3(x, y, z);
    if (!world.getColumnAt(p)) return undefined;
    const id = world.getBlockStateId(p);
    return id === null || id === undefined ? undefined : bot.registry.blocksByStateId[id]?.name;
  };
}

/**
 * Runs `options.task` and resolves with its result. Bad input (unknown items or blocks, too few
 * profiles) rejects with a TaskError before anything starts; any later failure ends in a result
 * with `success: false` and `error`, never a rejection.
 *
 * The task's validator ({@link validatorFor}, by `type`) runs every game tick of agent 0's bot;
 * the first success ends the run at once. At the timeout the run ends with the last check's score.
 */
export async function runTask(options: TaskRunOptions): Promise<TaskResult> {
  const { task, settings } = options;
  const log = options.log ?? ((line: string) => console.error(line));
  for (const warning of checkTaskForVersion(task, gameData(settings.minecraft_version))) log(`Task ${task.id}: ${warning}`);
  if (options.profiles.length < task.agent_count) throw new TaskError(`task "${task.id}" needs ${task.agent_count} agents; ${options.profiles.length} profiles given`);
  const started = Date.now();
  const profiles = options.profiles.slice(0, task.agent_count);
  const result = (outcome: Validation, agents: Agent[], error?: string): TaskResult => ({
    task_id: task.id,
    score: outcome.score,
    success: outcome.success,
    duration_s: Math.round((Date.now() - started) / 100) / 10,
    agents: profiles.map((p) => p.name),
    commands: Object.fromEntries(agents.map((a) => [a.name, [...a.commandLog]])),
    ...(error ? { error } : {}),
  });
  const failed: Validation = { success: false, score: 0 };

  let running;
  try {
    running = await startAgents({ settings, profiles, model: options.model, port: settings.server === 'embedded' ? 0 : undefined, env: options.env, log });
  } catch (err) {
    return result(failed, [], (err as Error).message);
  }
  const { agents } = running;
  let last = failed;
  try {
    const { blueprint, origin } = await setUp(task, agents, log);
    // The validator checks the world as placed (a construction blueprint may have been moved).
    const validate = validatorFor(blueprint ? { ...task, blueprint } : task);
    // The blueprint queries (!checkBlueprint...) read it from the agent.
    for (const agent of agents) agent.blueprint = blueprint;
    await options.onReady?.({ agents, blueprint, origin });
    giveGoals(task, agents, blueprint);
    if (task.agent_count > 1 && task.conversation) {
      await agents[0]!.startConversation(agents[1]!.name, task.conversation);
    }
    const bot = agents[0]!.bot;
    const state = { inventories: () => agents.map((a) => inventoryCounts(a.bot)), lookup: botBlockLookup(bot) };
    last = await new Promise<Validation>((resolve) => {
      let latest = failed;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        bot.off('physicsTick', check);
        resolve(latest);
      };
      const check = () => {
        if (done || !validate) return;
        latest = validate(state);
        if (latest.success) finish();
      };
      const timer = setTimeout(() => { check(); finish(); }, task.timeout * 1000);
      bot.on('physicsTick', check);
      check();
    });
    log(last.success ? `Task ${task.id} succeeded.` : `Task ${task.id} timed out after ${task.timeout} s with score ${last.score}.`);
    return result(last, agents);
  } catch (err) {
    return result(last, agents, (err as Error).message);
  } finally {
    await running.close();
  }
}

/**
 * Gives every agent its blocked actions, targets, blueprint and goal. Hell's Kitchen agents get
 * only their own target; construction agents get no item targets and the blueprint instead.
 */
function giveGoals(task: LoadedTask, agents: Agent[], blueprint: Blueprint | undefined): void {
  const targets = taskTargets(task);
  const own = perAgentTargets(task);
  agents.forEach((agent, i) => {
    agent.block(task.blocked_actions[String(i)] ?? []);
    agent.goal = goalFor(task, i);
    if (blueprint) {
      agent.taskTargets = undefined;
      const [x, y, z] = firstLevel(blueprint).coordinates;
      agent.goal += ` The blueprint has ${blueprint.levels.length} levels; level 0 starts at (${x}, ${y}, ${z}). !getBlueprint shows it, !checkBlueprint says what is left to build.`;
    } else if (own) {
      const item = own[String(i)];
      agent.taskTargets = item ? { [item]: targets[item] ?? 1 } : undefined;
    } else if (task.type === 'techtree' || task.type === 'cooking') {
      agent.taskTargets = targets;
    }
    const others = agents.filter((_, j) => j !== i).map((a) => a.name);
    const team = others.length ? ` Work together with ${others.join(', ')}.` : '';
    agent.receive({ from: 'system', text: `Your goal: ${agent.goal}${/[.!?]$/.test(agent.goal.trim()) ? '' : '.'}${team}`, channel: 'system' });
  });
}

/** How long an ordered set-up command may go without feedback before the next is sent (ms). */
const FEEDBACK_WAIT_MS = 500;

/** Sends set-up op commands for one bot. */
interface Commander {
  /** Sends `lines` through a fast outbox ({@link SETUP_RATE_LIMIT}), without waiting. */
  send(lines: string[]): void;
  /**
   * Sends `lines` one at a time, each after the previous one's feedback line (or after
   * {@link FEEDBACK_WAIT_MS} without one, e.g. on a server with `sendCommandFeedback` off). Use it
   * when commands overlap: some servers (flying-squid) run commands concurrently, so a `/fill` of
   * grass could otherwise land after the farmland that should replace it.
   */
  sendInOrder(lines: string[]): Promise<void>;
  close(): void;
}

function commander(bot: Bot): Commander {
  const outbox = new ChatOutbox((line) => bot.chat(line), SETUP_RATE_LIMIT);
  const feedback = () => new Promise<void>((resolve) => {
    const done = () => { clearTimeout(timer); bot.off('messagestr', onMessage); resolve(); };
    const onMessage = (_text: string, position: string) => { if (position === 'system' || position === 'game_info') done(); };
    const timer = setTimeout(done, FEEDBACK_WAIT_MS);
    bot.on('messagestr', onMessage);
  });
  return {
    send: (lines) => lines.forEach((l) => outbox.raw(l)),
    async sendInOrder(lines) {
      for (const line of lines) {
        const answered = feedback();
        outbox.raw(line);
        await answered;
      }
    },
    close: () => outbox.close(),
  };
}

async function must(what: string, check: () => boolean): Promise<void> {
  if (!(await waitFor(check, SETUP_TIMEOUT_MS))) throw new Error(`set-up failed: ${what} (is the bot an operator on this server?)`);
}

/**
 * The natural ground height in the column of `at`: going up from the bottom of the world, the
 * first block that is not a full block once solid ground has begun (the air above a flat world's
 * surface), so buildings standing on the ground do not count. Meant for flat worlds, as
 * construction tasks are.
 *
 * @returns undefined when the column is not loaded.
 */
export function groundLevel(bot: Bot, at: Pos): number | undefined {
  const game = bot.game as { minY?: number; height?: number };
  const minY = game.minY ?? 0;
  const maxY = minY + (game.height ?? 384);
  let solidBelow = false;
  for (let y = minY; y < maxY; y++) {
    const block = bot.blockAt(new Vec3(at.x, y, at.z));
    if (!block) return undefined;
    const solid = block.boundingBox === 'block';
    if (solidBelow && !solid) return y;
    solidBelow ||= solid;
  }
  return undefined;
}

/**
 * Clears and fills inventories; builds the cooking world or clears the construction site; brings
 * the agents together (construction: onto level 0). Every step waits until agent 0's bot sees its
 * effect. All through op commands in chat.
 */
async function setUp(task: LoadedTask, agents: Agent[], log: (line: string) => void): Promise<{ blueprint?: Blueprint; origin: Pos }> {
  const first = agents[0]!;
  const feet = first.bot.entity.position.floored();
  const origin: Pos = { x: feet.x, y: feet.y, z: feet.z };
  const commanders = agents.map((a) => commander(a.bot));
  try {
    await Promise.all(agents.map(async (agent, i) => {
      const { bot, name } = agent;
      const wanted = task.initial_inventory[String(i)] ?? {};
      commanders[i]!.send([`/clear ${name}`]);
      await must(`could not clear ${name}'s inventory`, () => bot.inventory.items().length === 0);
      commanders[i]!.send(Object.entries(wanted).map(([item, count]) => `/give ${name} ${item} ${count}`));
      await must(`${name}'s initial inventory did not arrive (wanted ${JSON.stringify(wanted)})`, () => Object.entries(wanted).every(([item, n]) => inventoryCounts(bot)[item] === n));
    }));
    let blueprint: Blueprint | undefined;
    if (task.type === 'construction' && task.blueprint) {
      // Level 0 sits on the natural ground (vanilla superflat: y = -60, as the blueprints assume),
      // which structures built on it, unlike agent 0's feet, do not change.
      const ground = groundLevel(first.bot, origin) ?? origin.y;
      blueprint = shiftBlueprint(task.blueprint, ground - firstLevel(task.blueprint).coordinates[1]);
      const [x, y, z] = firstLevel(blueprint).coordinates;
      await teleportAll(agents, commanders, (i) => ({ x: x + 2 * i, y, z }));
      await clearSite(first.bot, commanders[0]!, blueprint);
    } else {
      if (task.type === 'cooking') await buildCookingWorld(first.bot, commanders[0]!, origin);
      await teleportAll(agents.slice(1), commanders.slice(1), (i) => ({ x: origin.x + 2 * (i + 1), y: origin.y, z: origin.z }));
    }
    log(`Set up ${agents.length} agents for ${task.id}${task.type === 'cooking' ? ' in the cooking world' : blueprint ? ' at the construction site' : ''}.`);
    return { blueprint, origin };
  } finally {
    commanders.forEach((c) => c.close());
  }
}

async function teleportAll(agents: Agent[], commanders: Commander[], to: (i: number) => Pos): Promise<void> {
  await Promise.all(agents.map(async (agent, i) => {
    const p = to(i);
    commanders[i]!.send([`/tp ${agent.name} ${p.x + 0.5} ${p.y} ${p.z + 0.5}`]);
    await must(`${agent.name} was not teleported to (${p.x}, ${p.y}, ${p.z})`, () => agent.bot.entity.position.distanceTo(new Vec3(p.x + 0.5, p.y, p.z + 0.5)) < 1.5);
  }));
}

/** Empties the blueprint's volume with `/fill air` and waits until the bot sees it empty. */
async function clearSite(bot: Bot, commands: Commander, blueprint: Blueprint): Promise<void> {
  const box = blueprintBox(blueprint);
  commands.send(fillBoxCommands(box, 'air'));
  const lookup = botBlockLookup(bot);
  await must('the construction site was not cleared', () => {
    for (let x = box.min.x; x <= box.max.x; x++) for (let y = box.min.y; y <= box.max.y; y++) for (let z = box.min.z; z <= box.max.z; z++) {
      if (lookup(x, y, z) !== 'air') return false;
    }
    return true;
  });
}

/**
 * Builds the cooking world around `origin` ({@link cookingBlockCommands}), then fuels the furnace
 * and smoker and summons the animals once the blocks are there.
 */
async function buildCookingWorld(bot: Bot, commands: Commander, origin: Pos): Promise<void> {
  const layout = cookingLayout(origin);
  const nameAt = (p: Pos) => bot.blockAt(new Vec3(p.x, p.y, p.z))?.name;
  const lastCrop = layout.crops.at(-1)!.box.max;
  await commands.sendInOrder(cookingBlockCommands(origin));
  await must('the cooking world was not built', () => nameAt(layout.smoker) === 'smoker' && nameAt(layout.bed.head) === 'red_bed'
    && nameAt(lastCrop) === 'beetroots' && nameAt(layout.sugarCane.at(-1)!) === 'sugar_cane' && nameAt(layout.mushrooms.at(-1)!.pos) === 'brown_mushroom');
  commands.send([...cookingFuelCommands(origin), ...cookingAnimalCommands(origin)]);
  const centre = new Vec3(origin.x, origin.y, origin.z);
  await must('the animals did not appear', () => COOKING_ANIMALS.every((type) => Object.values(bot.entities)
    .filter((e) => e.name === type && e.position.distanceTo(centre) < 48).length >= ANIMALS_EACH));
}

/** Appends `result` as one JSON line to `file`. */
export async function appendResult(file: string, result: TaskResult): Promise<void> {
  await appendFile(file, `${JSON.stringify(result)}\n`);
}
