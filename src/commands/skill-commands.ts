/**
 * Commands made from skill declarations (`src/skills/declare.ts`), and the way back from a plan's
 * skill call to the `!command` text a model writes.
 *
 * A skill's command is named `!<skill name>` and takes the skill's parameters, docs and work; the
 * command adds only what is a command's own: its kind, whether it runs alongside the current
 * action, its time bound, and the command it is a variant of.
 */
import type { SkillCall } from '../game/production.ts';
import { paramSpecs, type SkillContext, type SkillDef } from '../skills/declare.ts';
import { SKILLS } from '../skills/index.ts';
import type { CommandContext } from './context.ts';
import type { CommandDef } from './registry.ts';

/** What a skill's command adds to the skill: see the same fields of {@link CommandDef}. */
export interface CommandPart {
  kind: 'query' | 'action';
  alongside?: boolean;
  variantOf?: string;
  timeBound?: CommandDef<CommandContext>['timeBound'];
}

/** The skill context of a command run: the bot, the command's signal, the agent's task; calls written as commands. */
export function skillContext({ bot, signal, agent }: CommandContext): SkillContext {
  return { bot, signal, task: agent.task, writeCall: commandCall };
}

/**
 * The `!command` of `skill`: `!<name>`, the skill's description and parameters (their
 * `ParamSpec`s, in the skill's order), and `perform` running the skill with
 * {@link skillContext}.
 *
 * @example skillCommand(collectBlocksSkill, { kind: 'action' }) // !collectBlocks(type: BlockName, num: int)
 */
export function skillCommand(skill: SkillDef, part: CommandPart): CommandDef<CommandContext> {
  return {
    name: `!${skill.name}`,
    description: skill.description,
    params: paramSpecs(skill.params),
    ...part,
    perform: (ctx, args) => skill.run(skillContext(ctx), args),
  };
}

const declared = new Map(SKILLS.map((s) => [s.name, s]));

/** One argument as a model writes it: strings quoted (JSON), numbers and booleans as they are. */
function argText(value: string | number | boolean | undefined): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/**
 * A skill call as `!command` text, its arguments in the skill's (= the command's) parameter
 * order; trailing optional arguments left out are left out of the text.
 *
 * @example commandCall({ skill: 'collectBlocks', args: { type: 'oak_log', num: 2 } }) // '!collectBlocks("oak_log", 2)'
 * @throws Error when `call.skill` is not a declared skill, or a required argument is missing.
 */
export function commandCall(call: SkillCall): string {
  const skill = declared.get(call.skill);
  if (!skill) throw new Error(`commandCall: "${call.skill}" is not a declared skill (src/skills/index.ts)`);
  const specs = Object.entries(paramSpecs(skill.params));
  const values = specs.map(([name, spec]) => {
    const value = call.args[name];
    if (value === undefined && !spec.optional) throw new Error(`commandCall: ${skill.name} needs "${name}" (${JSON.stringify(call.args)})`);
    return value;
  });
  while (values.length > 0 && values.at(-1) === undefined) values.pop();
  return values.length === 0 ? `!${skill.name}` : `!${skill.name}(${values.map(argText).join(', ')})`;
}
