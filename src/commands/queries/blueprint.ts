/** Blueprint queries of construction tasks: what the blueprint says and what is left to build. */
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { defineCommand, type AgentControl } from '../context.ts';
import type { Blueprint } from '../../tasks/schema.ts';
import {
  checkLevel, findLevel, formatBlueprint, formatBlueprintCheck, formatLevel, formatLevelCheck, type BlockLookup,
} from '../../tasks/blueprint.ts';

const NO_BLUEPRINT = 'You have no blueprint: this is not a construction task.';

/** The world as the bot sees it; undefined for blocks in chunks it has not loaded. */
export function botLookup(bot: Bot): BlockLookup {
  return (x, y, z) => bot.blockAt(new Vec3(x, y, z))?.name;
}

function levelOrError(blueprint: Blueprint, levelNum: number): ReturnType<typeof findLevel> | string {
  const level = findLevel(blueprint, levelNum);
  return level ?? `The blueprint has no level ${levelNum}; its levels are ${blueprint.levels.map((l) => l.level).join(', ')}.`;
}

function blueprintOf(agent: AgentControl): Blueprint | undefined {
  return agent.blueprint;
}

export const checkBlueprintLevelCommand = defineCommand({
  name: '!checkBlueprintLevel',
  kind: 'query',
  description: 'What to place, remove or replace on a blueprint level.',
  params: {
    levelNum: { type: 'int', description: 'level number', domain: [0, Infinity], example: 0 },
  },
  async perform({ bot, agent }, { levelNum }) {
    const blueprint = blueprintOf(agent);
    if (!blueprint) return NO_BLUEPRINT;
    const level = levelOrError(blueprint, levelNum);
    if (typeof level === 'string') return level;
    return formatLevelCheck(levelNum, checkLevel(level!, botLookup(bot)));
  },
});

export const checkBlueprintCommand = defineCommand({
  name: '!checkBlueprint',
  kind: 'query',
  description: 'What is left of the whole blueprint, and the score.',
  params: {},
  async perform({ bot, agent }) {
    const blueprint = blueprintOf(agent);
    return blueprint ? formatBlueprintCheck(blueprint, botLookup(bot)) : NO_BLUEPRINT;
  },
});

export const getBlueprintCommand = defineCommand({
  name: '!getBlueprint',
  kind: 'query',
  description: 'Your blueprint: materials and levels.',
  params: {},
  async perform({ agent }) {
    const blueprint = blueprintOf(agent);
    return blueprint ? formatBlueprint(blueprint) : NO_BLUEPRINT;
  },
});

export const getBlueprintLevelCommand = defineCommand({
  name: '!getBlueprintLevel',
  kind: 'query',
  description: 'One level of your blueprint.',
  params: {
    levelNum: { type: 'int', description: 'level number', domain: [0, Infinity], example: 0 },
  },
  async perform({ agent }, { levelNum }) {
    const blueprint = blueprintOf(agent);
    if (!blueprint) return NO_BLUEPRINT;
    const level = levelOrError(blueprint, levelNum);
    return typeof level === 'string' ? level : formatLevel(level!);
  },
});

export const blueprintCommands = [checkBlueprintLevelCommand, checkBlueprintCommand, getBlueprintCommand, getBlueprintLevelCommand];
