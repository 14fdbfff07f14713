/**
 * The offline policy in VillagerBench's escape rooms (`src/tasks/villager/escape.ts`): the rooms as
 * placed come with the task (`AgentTask.escape`, the data of the goal's description), and every
 * agent works out the same split from the team's names, so no talk is needed:
 * - the room to play is the first whose exit is still closed (an exit is open once its cells are
 *   air or an open door, as the agent sees them); an agent behind it walks to its centre;
 * - the conditions are dealt round the team sorted by name, room after room (each agent doing its
 *   pressure plate last): all of an `and` room's, the first of an `or` room's (the others wait);
 * - a lever is flipped (`!activate` with its position) until it is as wanted; a button is pressed
 *   again whenever it has released while the room is closed, so that presses by several agents
 *   fall within the room's `wait_interval`; a plate is stood on, and its agent stays on it
 *   (`!stay`) until the room opens; a block is put in place with `!placeBlockAt` from the
 *   inventory (the rooms' `in` items);
 * - an agent with nothing left to do waits (`!stay`) for the room to open, then everyone walks on;
 * - a room whose exit closed again after it was seen open (the judge undoes a room's effects once
 *   its `activate_duration` is over) is played by those still in it: each of them takes every
 *   condition (a plate held by a teammate is left to it), since the agents whose share it was may
 *   be through already; an agent past it plays its own room.
 * The run ends (the judge's) when the last room is done.
 */
import type { GameData } from '../game/data.ts';
import { switchKind } from '../game/switches.ts';
import { conditionHolds, type EscapeChain, type Pos, type Room, type RoomBlock } from '../tasks/villager/escape.ts';
import { stateText, type StateLookup } from '../tasks/villager/states.ts';
import type { Observation } from './observation.ts';

/** The wait while a room is closed and this agent has nothing to do in it, or holds its plate (s). */
const WAIT_S = 1;

/** Whether the exit of `room` lets a player through, as `stateAt` shows it: both cells air or an open door. */
export function exitOpen(room: Room, stateAt: StateLookup): boolean {
  return [0, 1].every((dy) => {
    const s = stateAt(room.exit.x, room.exit.y + dy, room.exit.z);
    if (!s) return false;
    if (s.name.endsWith('_door')) return s.properties.open === 'true';
    return s.name === 'air' || s.name === 'cave_air' || s.name === 'void_air';
  });
}

/** How many conditions a room hands out: all of an `and` room's, one of an `or` room's. */
const handedOut = (room: Room) => (room.type === 'or' ? 1 : room.conditions.length);

/**
 * The conditions of room `index` of `chain` that `member` of a team of `team` agents (sorted by
 * name) takes on, plates last. The conditions are dealt round the team in order, going on from
 * where the rooms before left off, so that the work is spread.
 */
export function shareOf(chain: EscapeChain, index: number, member: number, team: number, data: GameData): RoomBlock[] {
  const room = chain.rooms[index]!;
  const start = chain.rooms.slice(0, index).reduce((n, r) => n + handedOut(r), 0);
  const mine = room.conditions.slice(0, handedOut(room)).filter((_, i) => (start + i) % team === member);
  const plate = (c: RoomBlock) => switchKind(data, c.name)?.kind === 'plate';
  return [...mine.filter((c) => !plate(c)), ...mine.filter(plate)];
}

/** Index of the room `z` lies in: the first whose exit is at or past it (the last room past the end). */
function roomAt(chain: EscapeChain, z: number): number {
  const i = chain.rooms.findIndex((r) => z <= r.exit.z);
  return i === -1 ? chain.rooms.length : i;
}

const at = (p: Pos) => `${p.x}, ${p.y}, ${p.z}`;

/**
 * The next reply of an agent in an escape run (see the module comment): a `!command`, or '' once
 * every room ahead of it is open.
 *
 * @param opened the indices of the rooms this agent has seen open; kept by the caller between
 *   calls, added to here.
 */
export function escapeDecision(obs: Observation, chain: EscapeChain, data: GameData, opened: Set<number> = new Set()): string {
  const stateAt = obs.stateAt;
  const me = obs.position;
  if (!stateAt || !me) return `!stay(${WAIT_S})`;
  chain.rooms.forEach((r, i) => {
    if (exitOpen(r, stateAt)) opened.add(i);
  });
  // The first room closed, not counting those behind this agent (one that closed again after it went through).
  const here = roomAt(chain, me.z);
  const current = chain.rooms.findIndex((r, i) => !exitOpen(r, stateAt) && (i >= here || !opened.has(i)));
  if (current === -1) return '';
  const room = chain.rooms[current]!;
  if (here < current) return `!goToCoordinates(${at(room.centre)}, 1)`;
  const closedAgain = opened.has(current);
  const team = [obs.name, ...(obs.task?.teammates ?? [])].sort();
  const conditions = closedAgain
    ? room.conditions.slice(0, handedOut(room))
    : shareOf(chain, current, team.indexOf(obs.name), team.length, data);
  for (const c of conditions) {
    const kind = switchKind(data, c.name)?.kind;
    const now = stateAt(c.at.x, c.at.y, c.at.z);
    if (kind === 'plate') {
      const on = me.x === c.at.x && me.y === c.at.y && me.z === c.at.z;
      if (on) return `!stay(${WAIT_S})`;
      if (closedAgain && conditionHolds(c, now)) continue;
      return `!activate("${c.name}", ${at(c.at)})`;
    }
    if (conditionHolds(c, now)) continue;
    if (kind) return `!activate("${c.name}", ${at(c.at)})`;
    if ((obs.inventory[c.name] ?? 0) > 0) return `!placeBlockAt("${stateText(c.name, c.states)}", ${at(c.at)})`;
  }
  return `!stay(${WAIT_S})`;
}
