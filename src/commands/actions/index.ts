/** Action commands: each runs as the agent's one cancellable, time-bounded action. */
import { defineCommand } from '../context.ts';
import { goToPlayer, goToPosition, searchForBlock } from '../../skills/movement.ts';
import { givePlayer } from '../../skills/items.ts';
import { craftRecipe } from '../../skills/crafting.ts';
import { collectBlocks } from '../../skills/collect.ts';
import { placeNearby } from '../../skills/place.ts';
import { endGoal, goal } from './goal.ts';
import { newAction } from './new-action.ts';

export const stop = defineCommand({
  name: '!stop',
  kind: 'action',
  alongside: true,
  description: 'Stop the current action and the goal.',
  params: {},
  async perform({ agent }) {
    const what = agent.currentAction();
    await agent.stop('stopped');
    return what ? `Stopped ${what}.` : 'Nothing was running.';
  },
});

export const goToPlayerCommand = defineCommand({
  name: '!goToPlayer',
  kind: 'action',
  description: 'Walk to a player.',
  params: {
    player_name: { type: 'string', description: 'player', example: 'Steve' },
    closeness: { type: 'float', description: 'blocks away', domain: [0, Infinity], example: 2 },
  },
  async perform({ bot, signal }, { player_name, closeness }) {
    return goToPlayer(bot, player_name, closeness, signal);
  },
});

export const goToCoordinates = defineCommand({
  name: '!goToCoordinates',
  kind: 'action',
  description: 'Walk to a position.',
  params: {
    x: { type: 'float', description: '' },
    y: { type: 'float', description: '', domain: [-64, 320] },
    z: { type: 'float', description: '' },
    closeness: { type: 'float', description: 'blocks away', domain: [0, Infinity], example: 1 },
  },
  async perform({ bot, signal }, { x, y, z, closeness }) {
    return goToPosition(bot, x, y, z, closeness, signal);
  },
});

export const searchForBlockCommand = defineCommand({
  name: '!searchForBlock',
  kind: 'action',
  description: 'Walk to the nearest block of a type.',
  params: {
    type: { type: 'BlockName', description: 'block', example: 'crafting_table' },
    search_range: { type: 'float', description: 'blocks', domain: [32, 512], example: 64 },
  },
  async perform({ bot, signal }, { type, search_range }) {
    return searchForBlock(bot, type, search_range, signal);
  },
});

export const collectBlocksCommand = defineCommand({
  name: '!collectBlocks',
  kind: 'action',
  description: 'Dig blocks of a type and pick up the drops.',
  params: {
    type: { type: 'BlockName', description: 'block', example: 'oak_log' },
    num: { type: 'int', description: 'how many', domain: [1, 1000], example: 4 },
  },
  async perform({ bot, signal }, { type, num }) {
    return collectBlocks(bot, type, num, signal);
  },
});

export const givePlayerCommand = defineCommand({
  name: '!givePlayer',
  kind: 'action',
  description: 'Hand items to a player.',
  params: {
    player_name: { type: 'string', description: 'player', example: 'Steve' },
    item_name: { type: 'ItemName', description: 'item', example: 'oak_planks' },
    num: { type: 'int', description: 'how many', domain: [1, 1000], example: 1 },
  },
  async perform({ bot, signal }, { player_name, item_name, num }) {
    return givePlayer(bot, player_name, item_name, num, signal);
  },
});

export const craftRecipeCommand = defineCommand({
  name: '!craftRecipe',
  kind: 'action',
  description: 'Craft items (uses or places a crafting table).',
  params: {
    recipe_name: { type: 'ItemName', description: 'item', example: 'stick' },
    num: { type: 'int', description: 'items wanted', domain: [1, 1000], example: 4 },
  },
  async perform({ bot, signal }, { recipe_name, num }) {
    return craftRecipe(bot, recipe_name, num, signal);
  },
});

export const placeHere = defineCommand({
  name: '!placeHere',
  kind: 'action',
  description: 'Place a block next to you.',
  params: {
    type: { type: 'BlockName', description: 'block', example: 'crafting_table' },
  },
  async perform({ bot, signal }, { type }) {
    const block = await placeNearby(bot, type, signal);
    return `Placed ${type} at (${block.position.x}, ${block.position.y}, ${block.position.z}).`;
  },
});

export const startConversation = defineCommand({
  name: '!startConversation',
  kind: 'action',
  alongside: true,
  description: 'Start talking with a bot.',
  params: {
    player_name: { type: 'string', description: 'bot', example: 'Bob' },
    message: { type: 'string', description: 'first message', example: 'Hi!' },
  },
  async perform({ agent }, { player_name, message }) {
    return agent.startConversation(player_name, message);
  },
});

export const endConversation = defineCommand({
  name: '!endConversation',
  kind: 'action',
  alongside: true,
  description: 'Stop talking with a bot.',
  params: {
    player_name: { type: 'string', description: 'bot', example: 'Bob' },
  },
  async perform({ agent }, { player_name }) {
    return agent.endConversation(player_name);
  },
});

export const actionCommands = [
  stop, goToPlayerCommand, goToCoordinates, searchForBlockCommand, collectBlocksCommand,
  givePlayerCommand, craftRecipeCommand, placeHere, startConversation, endConversation,
  goal, endGoal, newAction,
];
