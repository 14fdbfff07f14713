/** Blueprint commands (construction tasks): what the blueprint says and what is left to build. */
import { defineCommand, type CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';
import { skillCommand } from './skill-commands.ts';
import { findLevel, formatBlueprint, formatLevel } from '../tasks/blueprint.ts';
import { noBlueprint, noSuchLevel } from '../skills/blueprint.ts';
import { checkBlueprintLevelSkill, checkBlueprintSkill } from '../skills/index.ts';
import { done } from '../skills/outcome.ts';

const getBlueprintCommand = defineCommand({
  name: '!getBlueprint',
  kind: 'query',
  description: 'Your blueprint: materials and levels.',
  params: {},
  async perform({ agent }) {
    const blueprint = agent.task?.blueprint;
    return blueprint ? done(formatBlueprint(blueprint)) : noBlueprint();
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
    const blueprint = agent.task?.blueprint;
    if (!blueprint) return noBlueprint();
    const level = findLevel(blueprint, levelNum);
    return level ? done(formatLevel(level)) : noSuchLevel(blueprint, levelNum);
  },
});

/**
 * `!checkBlueprintLevel`, `!checkBlueprint` (skills' commands, see `src/skills/index.ts`;
 * `data.blueprint`), `!getBlueprint` and `!getBlueprintLevel`: queries of the agent's
 * construction blueprint (`AgentControl.task`). Without a blueprint each answers that this is not
 * a construction task (`unavailable`); an unknown level number lists the blueprint's levels
 * (`invalid`).
 */
export const blueprintCommands: CommandDef<CommandContext>[] = [
  skillCommand(checkBlueprintLevelSkill, { kind: 'query' }),
  skillCommand(checkBlueprintSkill, { kind: 'query' }),
  getBlueprintCommand,
  getBlueprintLevelCommand,
];
