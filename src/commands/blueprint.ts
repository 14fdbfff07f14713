/** Blueprint commands (construction tasks): what the blueprint says and what is left to build. */
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { defineCommand, type AgentControl, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import type { Blueprint } from '../tasks/schema.ts';
import {
  checkLevel,
  findLevel,
  formatBlueprint,
  formatBlueprintCheck,
  formatLevel,
  formatLevelCheck,
  type BlockLookup,
} from '../tasks/blueprint.ts';

const NO_BLUEPRINT = 'You have no blueprint: this is not a construction task.';

/** The world as the bot sees it; undefined for blocks in chunks it has not loaded. */
function botLookup(bot: Bot): BlockLookup {
  return (x, y, z) => bot.blockAt(new Vec3(x, y, z))?.name;
}

function levelOrError(blueprint: Blueprint, levelNum: number): ReturnType<typeof findLevel> | string {
  const level = findLevel(blueprint, levelNum);
  return level ?? `The blueprint has no level ${levelNum}; its levels are ${blueprint.levels.map((l) => l.level).join(', ')}.`;
}

function blueprintOf(agent: AgentControl): Blueprint | undefined {
  return agent.task?.blueprint;
}

const checkBlueprintLevelCommand = defineCommand({
  name: '!checkBlueprintLevel',
  kind: 'query',
  description: 'What to place, remove or replace on a level.',
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

const checkBlueprintCommand = defineCommand({
  name: '!checkBlueprint',
  kind: 'query',
  description: 'What is left of the blueprint, and the score.',
  params: {},
  async perform({ bot, agent }) {
    const blueprint = blueprintOf(agent);
    return blueprint ? formatBlueprintCheck(blueprint, botLookup(bot)) : NO_BLUEPRINT;
  },
});

const getBlueprintCommand = defineCommand({
  name: '!getBlueprint',
  kind: 'query',
  description: 'Your blueprint: materials and levels.',
  params: {},
  async perform({ agent }) {
    const blueprint = blueprintOf(agent);
    return blueprint ? formatBlueprint(blueprint) : NO_BLUEPRINT;
  },
});

const getBlueprintLevelCommand = defineCommand({
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

/**
 * `!checkBlueprintLevel`, `!checkBlueprint`, `!getBlueprint` and `!getBlueprintLevel`: queries of the
 * agent's construction blueprint ({@link AgentControl.task}). Without a blueprint each answers
 * that this is not a construction task; an unknown level number lists the blueprint's levels.
 */
export const blueprintCommands: CommandDef<CommandContext>[] = [
  checkBlueprintLevelCommand,
  checkBlueprintCommand,
  getBlueprintCommand,
  getBlueprintLevelCommand,
];
