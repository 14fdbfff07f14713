/** Queries about the agent's own state (modes, places) and offline game knowledge. */
import { defineCommand, type AgentControl } from '../context.ts';
import type { PlaceStore } from '../../game/places.ts';
import { searchWiki } from '../../skills/wiki.ts';
import { readNearestSign } from '../../skills/blocks.ts';

/**
 * The agent's saved places.
 *
 * @throws Error when the agent keeps no places.
 */
export function placesOf(agent: AgentControl): PlaceStore {
  if (!agent.places) throw new Error('This agent cannot remember places.');
  return agent.places;
}

export const modes = defineCommand({
  name: '!modes',
  kind: 'query',
  description: 'Your modes and whether each is on.',
  params: {},
  async perform({ agent }) {
    const list = agent.modes?.list();
    if (!list) return 'This agent has no behaviour modes.';
    return list.map((m) => `${m.name}: ${m.on ? 'ON' : 'OFF'}${m.paused ? ' (paused)' : ''}${m.acting ? ' (acting now)' : ''} - ${m.description}`).join('\n') || 'No modes.';
  },
});

export const savedPlaces = defineCommand({
  name: '!savedPlaces',
  kind: 'query',
  description: 'Places you remembered.',
  params: {},
  async perform({ agent }) {
    const places = placesOf(agent).list();
    if (places.length === 0) return 'No saved places. Use !rememberHere("name").';
    return 'Saved places:\n' + places.map(([n, p]) => `${n}: (${p.x}, ${p.y}, ${p.z})${p.dimension !== 'overworld' ? ` in ${p.dimension}` : ''}`).join('\n');
  },
});

export const searchWikiCommand = defineCommand({
  name: '!searchWiki',
  kind: 'query',
  description: 'Facts on an item, block or mob.',
  params: {
    query: { type: 'string', description: 'name to look up', example: 'iron_ore' },
  },
  async perform({ data }, { query }) {
    return searchWiki(data, query);
  },
});

export const readSign = defineCommand({
  name: '!readSign',
  kind: 'query',
  description: 'Text of the nearest sign.',
  params: {},
  async perform({ bot }) {
    return readNearestSign(bot);
  },
});

export const moreQueryCommands = [modes, savedPlaces, searchWikiCommand, readSign];
