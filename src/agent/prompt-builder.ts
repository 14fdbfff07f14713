/**
 * The conversing prompt, filled from the profile's `conversing` template. The templates put the
 * static part (role, rules, command docs) first, the same on every call so providers' prompt
 * caching applies; examples, memory and the bot's state follow.
 */
import type { Bot } from 'mineflayer';
import type { CommandDef, ParamSpec } from '../commands/registry.ts';
import type { Example } from '../models/prompts/examples.ts';
import { fillTemplate, type PromptValues } from '../models/prompts/template.ts';
import { formatCounts } from '../skills/crafting-plan.ts';
import { inventoryCounts } from '../skills/items.ts';

/**
 * Command docs for the prompt, one line per command: `!name(param, ...): description`, with a
 * parameter's range appended where it has one (`num 1..999`). Full parameter docs stay in
 * `!help`; the parser names the expected type and range when an argument is wrong.
 */
export function promptCommandDocs(commands: readonly CommandDef<unknown, any>[]): string { // eslint-disable-line @typescript-eslint/no-explicit-any
  const line = (def: CommandDef<unknown, any>): string => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const params = Object.entries(def.params as Record<string, ParamSpec>).map(([name, spec]) => {
      const d = spec.domain;
      if (!d || (spec.type !== 'int' && spec.type !== 'float')) return name;
      const hi = d[1] === Infinity ? '' : spec.type === 'int' ? String(d[1] - 1) : `<${d[1]}`;
      return `${name} ${d[0] === -Infinity ? '' : d[0]}..${hi}`;
    });
    return `${def.name}${params.length ? `(${params.join(', ')})` : ''}: ${def.description}`;
  };
  const queries = commands.filter((c) => c.kind === 'query');
  const actions = commands.filter((c) => c.kind === 'action');
  return [...queries, ...actions].map(line).join('\n');
}

/**
 * Few-shot examples for `$EXAMPLES`, written the way the history reads: user turns as they are
 * (`greg: Collect 10 wood`), the bot's as `You: ...`, command output as `SYSTEM: ...`.
 */
export function promptExamples(examples: readonly Example[]): string {
  if (examples.length === 0) return '';
  const turn = (t: Example[number]): string => (t.role === 'assistant' ? `You: ${t.content}` : t.role === 'system' ? `SYSTEM: ${t.content}` : t.content);
  return `Examples:\n${examples.map((ex, i) => `Example ${i + 1}:\n${ex.map(turn).join('\n')}`).join('\n')}`;
}

/** `Position (1, 64, -3), health 20/20, food 20/20, day` — the `$STATS` line. */
export function statsLine(bot: Bot): string {
  const pos = bot.entity?.position;
  const where = pos ? `(${pos.x.toFixed(0)}, ${pos.y.toFixed(0)}, ${pos.z.toFixed(0)})` : 'unknown';
  const t = bot.time?.timeOfDay;
  const daytime = t === undefined ? '' : t < 12_000 ? ', day' : t < 13_800 ? ', dusk' : t < 22_300 ? ', night' : ', dawn';
  return `Position ${where}, health ${Math.round(bot.health ?? 20)}/20, food ${Math.round(bot.food ?? 20)}/20${daytime}`;
}

/** `Inventory: 3 oak_log, 1 stick` (or `empty`) — the `$INVENTORY` line. */
export function inventoryLine(bot: Bot): string {
  return `Inventory: ${formatCounts(inventoryCounts(bot)) || 'empty'}`;
}

/** What varies per call, besides the bot itself. */
export interface ConversingState {
  name: string;
  persona: string;
  /** `$COMMAND_DOCS` (see {@link promptCommandDocs}). */
  commandDocs: string;
  /** `$EXAMPLES`, already formatted ('' for none). */
  examples: string;
  memory: string;
  bot: Bot;
  currentAction: string | undefined;
  /** The `$SELF_PROMPT` text ('' without a goal). */
  selfPrompt: string;
  /** The conversation partner, if a conversation is open. */
  partner: string | undefined;
}

/** The values of every standard variable for the conversing prompt. */
export function conversingValues(s: ConversingState): PromptValues {
  return {
    NAME: s.name,
    PERSONA: s.persona,
    COMMAND_DOCS: s.commandDocs,
    EXAMPLES: s.examples,
    MEMORY: s.memory || 'none',
    STATS: statsLine(s.bot),
    INVENTORY: inventoryLine(s.bot),
    ACTION: s.currentAction ?? 'idle',
    SELF_PROMPT: s.selfPrompt,
    CONVO: s.partner ? `In a conversation with ${s.partner}.` : '',
    CODE_DOCS: '',
    TO_SUMMARIZE: '',
  };
}

/**
 * Fills `template` with {@link conversingValues}; empty lines left by empty variables are
 * dropped.
 *
 * @returns the prompt text and the template variables that had no value.
 */
export function conversingPrompt(template: string, state: ConversingState): { text: string; unknown: string[] } {
  const { text, unknown } = fillTemplate(template, conversingValues(state));
  return { text: text.replace(/\n{2,}/g, '\n').trim(), unknown };
}
