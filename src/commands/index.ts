/**
 * Every command the agents know, in one registry shared by all bots of the process. The commands
 * are filed by topic, one file each: `movement.ts`, `items.ts`, `world.ts`, `storage.ts`,
 * `combat.ts`, `conversation.ts`, `goals.ts`, `modes.ts`, `blueprint.ts`, `knowledge.ts`,
 * `control.ts` and `coding.ts`. A topic file `<topic>.ts` exports one array, `<topic>Commands`,
 * holding that topic's queries and actions.
 */
import type { CommandContext } from './context.ts';
import { CommandRegistry, type CommandDef } from './registry.ts';
import { movementCommands } from './movement.ts';
import { itemsCommands } from './items.ts';
import { worldCommands } from './world.ts';
import { storageCommands } from './storage.ts';
import { combatCommands } from './combat.ts';
import { conversationCommands } from './conversation.ts';
import { goalsCommands } from './goals.ts';
import { modesCommands } from './modes.ts';
import { blueprintCommands } from './blueprint.ts';
import { knowledgeCommands } from './knowledge.ts';
import { controlCommands } from './control.ts';
import { codingCommands } from './coding.ts';

/** Every topic's commands, topic by topic. */
const byTopic: CommandDef<CommandContext>[] = [
  ...movementCommands,
  ...itemsCommands,
  ...worldCommands,
  ...storageCommands,
  ...combatCommands,
  ...conversationCommands,
  ...goalsCommands,
  ...modesCommands,
  ...blueprintCommands,
  ...knowledgeCommands,
  ...controlCommands,
  ...codingCommands,
];

/**
 * The order the model reads the commands in: the prompt's command docs and `!help` (queries
 * first, each kind in this order), the native tools, and the example call `!help` shows (the
 * first command with parameters). Fixed here rather than by topic so that prompts stay the same
 * when commands move between files; a new command goes at the end of its kind.
 */
const ORDER = [
  // Queries.
  '!stats',
  '!inventory',
  '!nearbyBlocks',
  '!craftable',
  '!entities',
  '!help',
  '!getCraftingPlan',
  '!modes',
  '!savedPlaces',
  '!searchWiki',
  '!readSign',
  '!checkBlueprintLevel',
  '!checkBlueprint',
  '!getBlueprint',
  '!getBlueprintLevel',
  // Actions.
  '!stop',
  '!goToPlayer',
  '!goToCoordinates',
  '!searchForBlock',
  '!collectBlocks',
  '!givePlayer',
  '!craftRecipe',
  '!placeHere',
  '!startConversation',
  '!endConversation',
  '!goal',
  '!endGoal',
  '!newAction',
  '!followPlayer',
  '!searchForEntity',
  '!moveAway',
  '!rememberHere',
  '!goToRememberedPlace',
  '!stay',
  '!lookAtPlayer',
  '!lookAtPosition',
  '!consume',
  '!equip',
  '!discard',
  '!useItemOnEntity',
  '!digDown',
  '!activate',
  '!placeBlockAt',
  '!digAt',
  '!attack',
  '!attackPlayer',
  '!stfu',
  '!restart',
  '!clearChat',
  '!setMode',
  '!putInChest',
  '!takeFromChest',
  '!viewChest',
  '!smeltItem',
  '!clearFurnace',
  '!goToBed',
  '!craftItems',
  '!sow',
  '!useOn',
  '!goToSurface',
];

/**
 * `defs` in the order of `order`.
 *
 * @throws Error listing each command defined twice, missing from `order`, listed twice in
 *   `order`, or listed there but defined nowhere: the topic files and {@link ORDER} disagree.
 */
function inOrder(defs: CommandDef<CommandContext>[], order: readonly string[]): CommandDef<CommandContext>[] {
  const byName = new Map(defs.map((d) => [d.name, d]));
  const twice = (names: string[]) => names.filter((n, i) => names.indexOf(n) !== i);
  const problems = [
    ...twice(defs.map((d) => d.name)).map((n) => `${n} is defined twice`),
    ...defs.filter((d) => !order.includes(d.name)).map((d) => `${d.name} is missing from ORDER`),
    ...twice([...order]).map((n) => `${n} is in ORDER twice`),
    ...order.filter((n) => !byName.has(n)).map((n) => `${n} is in ORDER but defined nowhere`),
  ];
  if (problems.length) throw new Error(`src/commands/index.ts: ${problems.join('; ')}`);
  return order.map((n) => byName.get(n)!);
}

/** The full command registry; an agent narrows it with `.without(blocked)`. */
export const allCommands = new CommandRegistry<CommandContext>(inOrder(byTopic, ORDER));
