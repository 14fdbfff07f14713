/**
 * Setting up a MineCollab task in the world, through op commands in chat as MINDcraft does:
 * inventories (the agents' and the human players'), the cooking world or the construction site,
 * the agents brought together, and each agent's part of the task ({@link assignTasks}). Every
 * step waits until agent 0's bot sees its effect, and is time-bounded.
 */
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { Agent } from '../agent/agent.ts';
import { ChatOutbox } from '../conversation/outbox.ts';
import { inventoryCounts } from '../skills/items.ts';
import { waitFor } from '../util/abort.ts';
import { agentGoal, blockedActionsFor, cookingCollector, partnerRecipe, type HumanSlot } from '../tasks/goals.ts';
import { goalFor, perAgentTargets, taskTargets } from '../tasks/loader.ts';
import type { Blueprint, LoadedTask } from '../tasks/schema.ts';
import { COOKING_SUPPLIES } from '../tasks/cooking.ts';
import { chestSupplies, farmSupplies } from '../tasks/villager/supplies.ts';
import type { GameData } from '../game/data.ts';
import {
  ANIMALS_EACH,
  blueprintBox,
  COOKING_ANIMALS,
  cookingAnimalCommands,
  cookingBlockCommands,
  cookingFuelCommands,
  cookingLayout,
  fillBoxCommands,
  firstLevel,
  shiftBlueprint,
  type Pos,
} from '../tasks/worlds.ts';
import { botBlockLookup } from './task-play.ts';
import { commander, groundLevel, must, SETUP_RATE_LIMIT, teleportAll, type Commander } from './setup-steps.ts';
import { setUpVillager } from './villager-setup.ts';

/** How long each set-up step may take before the run is abandoned (ms). */
export const SETUP_TIMEOUT_MS = 15_000;

/** Default wait for the human players of a task to join (ms). */
export const HUMANS_TIMEOUT_MS = 120_000;

export { groundLevel, SETUP_RATE_LIMIT };

/** A task's human player did not join in time. */
export class MissingPlayerError extends Error {}

/**
 * Gives every agent its part of the task ({@link Agent.setTask}): its goal (MINDcraft's text, see
 * `agentGoal`), blocked actions (the task's, plus `!endGoal` and `!endConversation`), item
 * targets, the blueprint, `restrict_to_inventory`, and as data its teammates, the collector of a
 * cooking team, a Hell's Kitchen partner's recipe, what the cooking world supplies and an escape run's rooms as placed. Hell's Kitchen agents get only their own
 * target; construction agents get no item targets and the blueprint instead; collection agents
 * get their share of the team's counts ({@link collectionShare}) to gather on their own;
 * VillagerBench cooking agents get the dish, what the farm supplies (`farmSupplies`) and
 * `shareIngredients`.
 *
 * @param goals filled with each agent's goal text.
 * @param nearby what the world gives near the task's survival spot: its mobs (`AgentTask.mobsNearby`)
 *   and its ores (`AgentTask.oresNearby`).
 */
export function assignTasks(
  task: LoadedTask,
  agents: Agent[],
  blueprint: Blueprint | undefined,
  names: { agents: string[]; humans: string[] },
  goals: Record<string, string>,
  nearby: { mobs: readonly string[]; ores: readonly string[] } = { mobs: [], ores: [] },
): void {
  const targets = taskTargets(task);
  const own = perAgentTargets(task);
  // MINDcraft's cooking rule with more than two agents: every dish ends with one bot.
  const collector = task.type === 'cooking' && task.agent_count > 2 ? cookingCollector(names.agents) : undefined;
  agents.forEach((agent, i) => {
    const goal = agentGoal(task, i, names, blueprint);
    goals[agent.name] = goal;
    const recipe = partnerRecipe(goalFor(task, i));
    const common = {
      goal,
      blockedActions: blockedActionsFor(task, i),
      restrictToInventory: task.restrict_to_inventory === true,
      teammates: names.agents.filter((n) => n !== agent.name),
      ...(collector ? { collector } : {}),
      ...(recipe ? { partnerRecipe: recipe } : {}),
      ...(task.type === 'cooking' ? { supplies: COOKING_SUPPLIES } : {}),
      ...(nearby.mobs.length ? { mobsNearby: nearby.mobs } : {}),
      ...(nearby.ores.length ? { oresNearby: nearby.ores } : {}),
      ...(task.villager?.scenario === 'escape' && task.villager.chain ? { escape: task.villager.chain } : {}),
      ...(task.villager?.scenario === 'construction' && task.villager.chests
        ? {
            materialChests: task.villager.chests.map(({ x, y, z }) => ({ x, y, z })),
            supplies: chestSupplies(task.villager.chests),
          }
        : {}),
    };
    if (blueprint) {
      agent.setTask({ ...common, blueprint });
    } else if (own) {
      const item = own[String(i)];
      agent.setTask({ ...common, targets: item ? { [item]: targets[item] ?? 1 } : undefined });
    } else if (task.villager?.scenario === 'cooking') {
      // VillagerBench cooking: the dish, what the farm's chests, crops and animals give, and the
      // ingredients shared out among the team (see AgentTask.shareIngredients).
      const farm = task.villager.farm;
      const count = farm.check_point.find((c) => c.name === farm.target)?.count ?? 1;
      const data = agent.bot.registry as unknown as GameData;
      agent.setTask({ ...common, targets: { [farm.target]: count }, supplies: farmSupplies(data, farm), shareIngredients: true });
    } else if (task.type === 'collection') {
      // The team's total counts: each agent is given its share to gather, and gathers it alone
      // (nothing to hand over: an offline team waiting on its coordinator's go-ahead left the
      // gathering to the coordinator). The goal still names the teammates.
      agent.setTask({ ...common, teammates: [], targets: collectionShare(targets, task.agent_count) });
    } else {
      agent.setTask({ ...common, targets: task.type === 'techtree' || task.type === 'cooking' ? targets : undefined });
    }
  });
}

/**
 * One agent's share of a collection task's counts: each count split evenly among `agents`, rounded
 * up (the shares add up to at least the team's counts).
 *
 * @example collectionShare({ oak_log: 50 }, 3) // { oak_log: 17 }
 */
export function collectionShare(targets: Record<string, number>, agents: number): Record<string, number> {
  return Object.fromEntries(Object.entries(targets).map(([item, n]) => [item, Math.ceil(n / Math.max(1, agents))]));
}

/**
 * Whispers each human player their goal (the goal map's entry after the agents', else the
 * task's goal) and who they play with, from agent 0.
 */
export function whisperGoals(first: Agent, task: LoadedTask, humans: HumanSlot[], names: { agents: string[]; humans: string[] }): void {
  const outbox = new ChatOutbox((line) => first.bot.chat(line), SETUP_RATE_LIMIT);
  humans.forEach((human, i) => {
    const others = [...names.agents, ...names.humans.filter((n) => n !== human.username)];
    outbox.whisper(human.username, `Your goal: ${goalFor(task, task.agent_count + i)} You play with ${others.join(', ')}.`);
  });
  // The lines are queued; close once they have gone (the outbox sends its burst at once).
  setTimeout(() => outbox.close(), 5_000).unref();
}

/** Options of {@link setUp}. */
export interface SetUpOptions {
  log: (line: string) => void;
  humansTimeoutMs: number;
  signal: AbortSignal;
  /** How long each step may take before the set-up times out (ms; default {@link SETUP_TIMEOUT_MS}). */
  stepTimeoutMs?: number;
  /**
   * Where each agent is to stand, in agent-index order (a survival world's task spot, see
   * `./task-spot.ts`): the agents are brought there and the first stand is the origin.
   */
  stands?: readonly Pos[];
}

/**
 * Clears and fills inventories (the agents', and the human players' once they have joined);
 * builds the cooking world or clears the construction site; brings the agents together
 * (construction: onto level 0) and the human players to them; a VillagerBench task's world is
 * built by `./villager-setup.ts`, and the task comes back as placed (`task`). Every step waits
 * until agent 0's bot sees its effect. All through op commands in chat.
 *
 * @throws MissingPlayerError when a human player does not join within `humansTimeoutMs`.
 */
export async function setUp(
  task: LoadedTask,
  agents: Agent[],
  humans: HumanSlot[],
  options: SetUpOptions,
): Promise<{ blueprint?: Blueprint; origin: Pos; task?: LoadedTask }> {
  const first = agents[0]!;
  const feet = first.bot.entity.position.floored();
  const stands = options.stands;
  if (stands && stands.length < agents.length)
    throw new Error(`set-up: ${agents.length} agents but ${stands.length} places to stand given`);
  const origin: Pos = stands ? { ...stands[0]! } : { x: feet.x, y: feet.y, z: feet.z };
  const commanders = agents.map((a) => commander(a.bot));
  const stepMs = options.stepTimeoutMs ?? SETUP_TIMEOUT_MS;
  try {
    if (humans.length) await waitForHumans(first.bot, humans, options);
    await Promise.all(
      agents.map(async (agent, i) => {
        const { bot, name } = agent;
        const wanted = task.initial_inventory[String(i)] ?? {};
        commanders[i]!.send([`/clear ${name}`]);
        await must(`could not clear ${name}'s inventory`, () => bot.inventory.items().length === 0, commanders[i]!, stepMs);
        commanders[i]!.send(Object.entries(wanted).map(([item, count]) => `/give ${name} ${item} ${count}`));
        await must(
          `${name}'s initial inventory did not arrive (wanted ${JSON.stringify(wanted)})`,
          () => Object.entries(wanted).every(([item, n]) => inventoryCounts(bot)[item] === n),
          commanders[i]!,
          stepMs,
        );
      }),
    );
    // Human players: agent 0 clears their inventories and gives them theirs (MINDcraft does the same).
    for (const human of humans) {
      await commanders[0]!.sendInOrder([
        `/clear ${human.username}`,
        ...Object.entries(human.inventory).map(([item, count]) => `/give ${human.username} ${item} ${count}`),
      ]);
    }
    let blueprint: Blueprint | undefined;
    let meeting: Pos;
    let placed: LoadedTask | undefined;
    if (task.villager) {
      // VillagerBench: its scenario's world (./villager-setup.ts), and the task as placed in it.
      ({ task: placed, meeting } = await setUpVillager(task, task.villager, agents, commanders, origin, stepMs));
      blueprint = placed.blueprint;
    } else if (task.type === 'construction' && task.blueprint) {
      // Level 0 sits on the natural ground (vanilla superflat: y = -60, as the blueprints assume),
      // which structures built on it, unlike agent 0's feet, do not change.
      const ground = groundLevel(first.bot, origin) ?? origin.y;
      blueprint = shiftBlueprint(task.blueprint, ground - firstLevel(task.blueprint).coordinates[1]);
      const [x, y, z] = firstLevel(blueprint).coordinates;
      await teleportAll(agents, commanders, (i) => ({ x: x + 2 * i, y, z }), stepMs);
      await clearSite(first.bot, commanders[0]!, blueprint, stepMs);
      // Humans stand beside the site, not in it (MINDcraft: 5 blocks past its far x side).
      meeting = { x: blueprintBox(blueprint).max.x + 5, y, z };
    } else if (stands) {
      await teleportAll(agents, commanders, (i) => stands[i]!, stepMs);
      // An agent that dies (monsters come in the dark) respawns at its stand, not at the world
      // spawn, which may lie a thousand blocks off (vanilla `/spawnpoint`).
      await Promise.all(
        agents.map((agent, i) => commanders[i]!.sendInOrder([`/spawnpoint ${agent.name} ${stands[i]!.x} ${stands[i]!.y} ${stands[i]!.z}`])),
      );
      // The chunks around each agent have come before play begins: a policy looking around at
      // once must see what the spot holds, not the few chunks sent first.
      await Promise.all(
        agents.map((agent, i) =>
          must(
            `the world around ${agent.name} did not load`,
            () => chunksAround(agent.bot, stands[i]!),
            commanders[i]!,
            Math.max(stepMs, WORLD_LOAD_TIMEOUT_MS),
          ),
        ),
      );
      meeting = { x: origin.x, y: origin.y, z: origin.z + 2 };
    } else {
      if (task.type === 'cooking') await buildCookingWorld(first.bot, commanders[0]!, origin, stepMs);
      await teleportAll(agents.slice(1), commanders.slice(1), (i) => ({ x: origin.x + 2 * (i + 1), y: origin.y, z: origin.z }), stepMs);
      meeting = { x: origin.x, y: origin.y, z: origin.z + 2 };
    }
    await bringHumans(first.bot, commanders[0]!, humans, meeting, stepMs);
    options.log(
      `Set up ${agents.length} agents${humans.length ? ` and ${humans.length} player(s)` : ''} for ${task.id}${task.villager ? ` (VillagerBench ${task.villager.scenario})` : task.type === 'cooking' ? ' in the cooking world' : blueprint ? ' at the construction site' : stands ? ` at ${origin.x}, ${origin.y}, ${origin.z}` : ''}.`,
    );
    return { blueprint, origin, ...(placed ? { task: placed } : {}) };
  } finally {
    commanders.forEach((c) => c.close());
  }
}

/**
 * Waits until every human player of the task is on the server (in agent 0's player list).
 *
 * @throws MissingPlayerError naming the players still missing after `humansTimeoutMs`.
 */
async function waitForHumans(bot: Bot, humans: HumanSlot[], options: SetUpOptions): Promise<void> {
  const missing = () => humans.filter((h) => !bot.players[h.username]).map((h) => h.username);
  if (missing().length) options.log(`Waiting up to ${Math.round(options.humansTimeoutMs / 1000)} s for ${missing().join(', ')} to join.`);
  const joined = await waitFor(() => missing().length === 0 || options.signal.aborted, options.humansTimeoutMs);
  if (options.signal.aborted) throw new Error('interrupted');
  if (!joined)
    throw new MissingPlayerError(
      `No other agents found: human player(s) ${missing().join(', ')} did not join within ${Math.round(options.humansTimeoutMs / 1000)} s`,
    );
}

/** Chunks each way around a stand that must have come before play (the server's view distance is 4). */
const LOADED_CHUNKS = 2;
/**
 * How long the chunks around a far stand may take to come (ms): they are generated first (a few
 * ms each on an idle machine; a 15 s step ran out on a machine loaded 10 times over).
 */
const WORLD_LOAD_TIMEOUT_MS = 60_000;

/** Whether `bot` has every chunk column within {@link LOADED_CHUNKS} of `at`. */
function chunksAround(bot: Bot, at: Pos): boolean {
  for (let dx = -LOADED_CHUNKS; dx <= LOADED_CHUNKS; dx++)
    for (let dz = -LOADED_CHUNKS; dz <= LOADED_CHUNKS; dz++) {
      if (!bot.world.getColumnAt(new Vec3(at.x + 16 * dx, 0, at.z + 16 * dz))) return false;
    }
  return true;
}

/** Teleports each human player to `to` (side by side) and waits until agent 0 sees them there. */
async function bringHumans(bot: Bot, commands: Commander, humans: HumanSlot[], to: Pos, stepMs: number): Promise<void> {
  await Promise.all(
    humans.map(async (human, i) => {
      const p = { x: to.x + 2 * i + 0.5, y: to.y, z: to.z + 0.5 };
      commands.send([`/tp ${human.username} ${p.x} ${p.y} ${p.z}`]);
      const target = new Vec3(p.x, p.y, p.z);
      await must(
        `${human.username} was not brought to (${to.x + 2 * i}, ${to.y}, ${to.z})`,
        () => {
          const entity = bot.players[human.username]?.entity;
          return entity !== undefined && entity.position.distanceTo(target) < 1.5;
        },
        commands,
        stepMs,
      );
    }),
  );
}

/** Empties the blueprint's volume with `/fill air` and waits until the bot sees it empty. */
async function clearSite(bot: Bot, commands: Commander, blueprint: Blueprint, stepMs: number): Promise<void> {
  const box = blueprintBox(blueprint);
  commands.send(fillBoxCommands(box, 'air'));
  const lookup = botBlockLookup(bot);
  await must(
    'the construction site was not cleared',
    () => {
      for (let x = box.min.x; x <= box.max.x; x++)
        for (let y = box.min.y; y <= box.max.y; y++)
          for (let z = box.min.z; z <= box.max.z; z++) {
            if (lookup(x, y, z) !== 'air') return false;
          }
      return true;
    },
    commands,
    stepMs,
  );
}

/**
 * Builds the cooking world around `origin` ({@link cookingBlockCommands}), then fuels the furnace
 * and smoker and summons the animals once the blocks are there.
 */
async function buildCookingWorld(bot: Bot, commands: Commander, origin: Pos, stepMs: number): Promise<void> {
  const layout = cookingLayout(origin);
  const nameAt = (p: Pos) => bot.blockAt(new Vec3(p.x, p.y, p.z))?.name;
  const lastCrop = layout.crops.at(-1)!.box.max;
  await commands.sendInOrder(cookingBlockCommands(origin));
  await must(
    'the cooking world was not built',
    () =>
      nameAt(layout.smoker) === 'smoker' &&
      nameAt(layout.bed.head) === 'red_bed' &&
      nameAt(lastCrop) === 'beetroots' &&
      nameAt(layout.sugarCane.at(-1)!) === 'sugar_cane' &&
      nameAt(layout.mushrooms.at(-1)!.pos) === 'brown_mushroom',
    commands,
    stepMs,
  );
  commands.send([...cookingFuelCommands(origin), ...cookingAnimalCommands(origin)]);
  const centre = new Vec3(origin.x, origin.y, origin.z);
  await must(
    'the animals did not appear',
    () =>
      COOKING_ANIMALS.every(
        (type) => Object.values(bot.entities).filter((e) => e.name === type && e.position.distanceTo(centre) < 48).length >= ANIMALS_EACH,
      ),
    commands,
    stepMs,
  );
}
