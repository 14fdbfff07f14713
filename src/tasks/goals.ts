/**
 * What each agent is told and may do in a MineCollab task, as MINDcraft's task module does it
 * (`src/agent/tasks/tasks.js`, mid-2025), so that scores stay comparable with the paper's:
 *
 * - each agent's goal starts its goal loop (`!goal`); the text is the task's `goal` (or the agent's
 *   entry of a per-agent map), plus instructions for crafting and cooking with more than two
 *   agents, plus, when agents and humans are more than one, the collaborators by name;
 * - construction goals get the blueprint's explanation and "make sure to place the lower levels of
 *   the blueprint first"; so does the opening conversation line;
 * - `!endGoal` is blocked while the task has a goal and `!endConversation` while it has an opening
 *   conversation, on top of the task's own `blocked_actions`;
 * - human players (`human_count`, `usernames`) get the `initial_inventory` entries after the agents'.
 *
 * Differences, on purpose (MINDcraft's defects, see ../shared/notes/mindcraft-behaviour.md §9): the
 * collaboration sentence is separated from the goal by a space; collaborators are names, never
 * `[object Object]`, and include the human players; the cooking "give everything to Andy" rule names
 * the collecting bot (the agent named Andy, else agent 0) instead of "a bot whose name starts with andy";
 * the blueprint explanation separates its levels.
 */
import type { Blueprint } from './schema.ts';
import { TaskError, goalFor } from './loader.ts';
import type { Task } from './schema.ts';

/** MINDcraft's sentence for coordinating several agents (crafting and cooking, > 2 agents). */
const TALK_TO_ALL =
  'Make sure to talk to all the agents using startConversation command to coordinate the task instead of talking to just one agent. ' +
  'You can even end current conversation with any agent using endConversation command and then talk to a new agent using startConversation command.';

/**
 * MINDcraft's `Blueprint.explain()`: where each level starts, e.g.
 * `Level 0: Start at coordinates X: 10, Y: -60, Z: 5; Level 1: Start at coordinates X: 10, Y: -59, Z: 5`.
 */
export function explainBlueprint(blueprint: Blueprint): string {
  return blueprint.levels
    .map((l) => `Level ${l.level}: Start at coordinates X: ${l.coordinates[0]}, Y: ${l.coordinates[1]}, Z: ${l.coordinates[2]}`)
    .join('; ');
}

/** Who plays a task: the agents' names in agent-index order, and the human players' names. */
export interface TaskPlayers {
  agents: readonly string[];
  humans: readonly string[];
}

/**
 * The bot that collects all food in a cooking task with more than two agents: the agent named
 * Andy (MINDcraft's rule: a name starting with "andy"), else agent 0.
 */
export function cookingCollector(agents: readonly string[]): string {
  return agents.find((n) => n.toLowerCase().startsWith('andy')) ?? agents[0] ?? '';
}

/**
 * The goal agent `index` starts its goal loop with.
 *
 * @param blueprint construction: the blueprint as placed in this world (its coordinates are the
 *   ones explained).
 */
export function agentGoal(task: Task & { id?: string }, index: number, players: TaskPlayers, blueprint?: Blueprint): string {
  const name = players.agents[index] ?? '';
  let extra = '';
  if (task.type === 'cooking') {
    if (task.agent_count > 2) {
      const collector = cookingCollector(players.agents);
      extra =
        name === collector
          ? `\nIn the end, all the food items should be given to you by other bots. ${TALK_TO_ALL}`
          : `\nIn the end, all the food items should be given to one single bot, ${collector}. ${TALK_TO_ALL}`;
    } else if (!task.id?.endsWith('hells_kitchen')) {
      extra = '\nIn the end, all the food items should be given to one single bot.';
    }
  } else if (task.type === 'techtree' && task.agent_count > 2) {
    extra = `\nMake sure to share resources among all agents and to talk to all the agents using startConversation command to coordinate the task instead of talking to just one agent. ${TALK_TO_ALL.slice(TALK_TO_ALL.indexOf('You can'))}`;
  }
  let goal = goalFor(task, index);
  if (task.type === 'construction' && blueprint)
    goal += ` \n${explainBlueprint(blueprint)} \nmake sure to place the lower levels of the blueprint first`;
  goal += extra;
  const others = [...players.agents.filter((_, j) => j !== index), ...players.humans];
  if (task.agent_count + (task.human_count ?? 0) > 1 && others.length > 0) {
    goal += ` You have to collaborate with other agents/bots, namely ${others.join(', ')} to complete the task as soon as possible by dividing the work among yourselves.`;
  }
  return goal;
}

/** The line agent 0 opens the conversation with (construction: with the blueprint's explanation), if any. */
export function openingLine(task: Task, blueprint?: Blueprint): string | undefined {
  if (!task.conversation) return undefined;
  return task.type === 'construction' && blueprint ? `${task.conversation} \n${explainBlueprint(blueprint)}` : task.conversation;
}

/**
 * The commands agent `index` may not use during the task: the task's `blocked_actions` for it,
 * plus `!endGoal` when the task has a goal and `!endConversation` when it has an opening
 * conversation (MINDcraft adds both, so an agent cannot quit its goal loop or the task's talk).
 */
export function blockedActionsFor(task: Task, index: number): string[] {
  const blocked = [...(task.blocked_actions[String(index)] ?? [])];
  const hasGoal = typeof task.goal === 'string' ? task.goal.trim() !== '' : Object.keys(task.goal).length > 0;
  if (hasGoal) blocked.push('!endGoal');
  if (task.conversation) blocked.push('!endConversation');
  return [...new Set(blocked)];
}

/** One human player of a task and what they start with. */
export interface HumanSlot {
  username: string;
  /** `initial_inventory[agent_count + i]` (item → count); empty when the task gives none. */
  inventory: Record<string, number>;
}

/**
 * The task's human players (`usernames`, in order) with their inventories.
 *
 * @throws TaskError when `human_count` and the number of `usernames` differ.
 */
export function humanSlots(task: Task & { id?: string; file?: string }): HumanSlot[] {
  const count = task.human_count ?? 0;
  const names = task.usernames ?? [];
  if (count !== names.length) {
    throw new TaskError(
      `${task.file ?? 'task'}${task.id ? `, task "${task.id}"` : ''}: human_count is ${count} but usernames lists ${names.length} player(s) (${names.join(', ') || 'none'}); they must match`,
    );
  }
  return names.map((username, i) => ({ username, inventory: task.initial_inventory[String(task.agent_count + i)] ?? {} }));
}

/**
 * Hell's Kitchen: the partner's recipe an agent's goal holds (the task's `You have their recipe:
 * ...` paragraph), on one line, with quotes, `!` and brackets dropped (so passing it on in chat
 * never reads as a command); undefined when the goal holds none.
 */
export function partnerRecipe(goal: string): string | undefined {
  const m = /You have their recipe:\s*([\s\S]*?)(?:\n\s*\n|$)/.exec(goal);
  const text = m?.[1]
    ?.replace(/["'!\[\]]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text || undefined;
}
