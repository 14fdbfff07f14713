/** Movement actions beyond walking to a target: following, searching, staying, places, looking. */
import { defineCommand } from '../context.ts';
import { placesOf } from '../queries/more.ts';
import {
  followPlayer, goToRememberedPlace, lookAtPlayer, lookAtPosition, moveAway, rememberHere, searchForEntity, stay,
} from '../../skills/navigation.ts';

export const followPlayerCommand = defineCommand({
  name: '!followPlayer',
  kind: 'action',
  description: 'Follow a player until stopped.',
  params: {
    player_name: { type: 'string', description: 'player', example: 'Steve' },
    follow_dist: { type: 'float', description: 'blocks away', domain: [0, 100], example: 3 },
  },
  async perform({ bot, signal }, { player_name, follow_dist }) {
    return followPlayer(bot, player_name, follow_dist, signal);
  },
});

export const searchForEntityCommand = defineCommand({
  name: '!searchForEntity',
  kind: 'action',
  description: 'Walk to the nearest mob of a type.',
  params: {
    type: { type: 'string', description: 'mob type', example: 'cow' },
    search_range: { type: 'float', description: 'blocks', domain: [32, 512], example: 64 },
  },
  async perform({ bot, signal }, { type, search_range }) {
    return searchForEntity(bot, type, search_range, signal);
  },
});

export const moveAwayCommand = defineCommand({
  name: '!moveAway',
  kind: 'action',
  description: 'Walk this far away.',
  params: {
    distance: { type: 'float', description: 'blocks', domain: [1, Infinity], example: 8 },
  },
  async perform({ bot, signal }, { distance }) {
    return moveAway(bot, distance, signal);
  },
});

export const rememberHereCommand = defineCommand({
  name: '!rememberHere',
  kind: 'action',
  alongside: true,
  description: 'Name your position.',
  params: {
    name: { type: 'string', description: 'place name', example: 'home' },
  },
  async perform({ bot, agent }, { name }) {
    return rememberHere(bot, placesOf(agent), name);
  },
});

export const goToRememberedPlaceCommand = defineCommand({
  name: '!goToRememberedPlace',
  kind: 'action',
  description: 'Walk to a saved place.',
  params: {
    name: { type: 'string', description: 'place name', example: 'home' },
  },
  async perform({ bot, agent, signal }, { name }) {
    return goToRememberedPlace(bot, placesOf(agent), name, signal);
  },
});

export const stayCommand = defineCommand({
  name: '!stay',
  kind: 'action',
  description: 'Stand still, modes paused (-1: until stopped).',
  params: {
    seconds: { type: 'int', description: '-1 = until stopped', domain: [-1, Infinity], example: 30 },
  },
  async perform({ bot, agent, signal }, { seconds }) {
    const modes = agent.modes;
    return stay(bot, seconds, signal, modes?.pause ? () => modes.pause!() : undefined);
  },
});

export const lookAtPlayerCommand = defineCommand({
  name: '!lookAtPlayer',
  kind: 'action',
  description: 'Look "at" a player or "with" them.',
  params: {
    player_name: { type: 'string', description: 'player', example: 'Steve' },
    direction: { type: 'string', description: '"at" or "with"', example: 'at' },
  },
  async perform({ bot }, { player_name, direction }) {
    return lookAtPlayer(bot, player_name, direction);
  },
});

export const lookAtPositionCommand = defineCommand({
  name: '!lookAtPosition',
  kind: 'action',
  description: 'Look at a position.',
  params: {
    x: { type: 'float', description: '' },
    y: { type: 'float', description: '', domain: [-64, 320] },
    z: { type: 'float', description: '' },
  },
  async perform({ bot }, { x, y, z }) {
    return lookAtPosition(bot, x, y, z);
  },
});

export const movementCommands = [
  followPlayerCommand, searchForEntityCommand, moveAwayCommand, rememberHereCommand, goToRememberedPlaceCommand,
  stayCommand, lookAtPlayerCommand, lookAtPositionCommand,
];
