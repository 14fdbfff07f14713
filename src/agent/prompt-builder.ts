/**
 * Every prompt an agent sends, built from its profile's templates (`conversing`, `coding`,
 * `saving_memory`, `bot_responder` and the short `messages`), filled with `fillTemplate`.
 *
 * Prompt caching: a conversing prompt has two parts (see {@link splitTemplate}). The static part
 * (role, rules, command docs, and the examples when they are the same on every call) is the
 * text of the template before the first line holding a live variable ({@link LIVE_VARIABLES}:
 * `$STATS $INVENTORY $MEMORY $ACTION $CONVO $SELF_PROMPT`, and `$EXAMPLES` when examples are
 * chosen per call); it is byte-identical on every call of a bot and goes out as the system
 * prompt, the start of the prefix providers cache. The rest of the template, from that line on,
 * is the live part: it goes after the conversation (`ChatRequest.live`). A template that puts a
 * live variable before static text (as MINDcraft's put `$STATS` before `$COMMAND_DOCS`) still
 * works, but everything from that variable's line on is live and re-sent uncached on every call:
 * keep live variables at the end of custom templates.
 */
import type { Bot } from 'mineflayer';
import type { CommandDef, CommandRegistry, ParamSpec } from '../commands/registry.ts';
import { commandTools } from '../commands/tools.ts';
import type { Example, ExampleSelector } from './prompts/examples.ts';
import { fillTemplate, type PromptValues } from './prompts/template.ts';
import type { ChatRequest, ChatTurn, ToolSpec } from '../models/types.ts';
import type { MergedProfile } from '../settings/profiles.ts';
import { formatCounts } from '../game/production.ts';
import { inventoryCounts } from '../skills/items.ts';

/**
 * Command docs for the prompt, one line per command: `!name(param, ...): description`, with a
 * parameter's range appended where it has one (`num 1..999`). Full parameter docs stay in
 * `!help`; the parser names the expected type and range when an argument is wrong.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function promptCommandDocs(commands: readonly CommandDef<unknown, any>[]): string {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const line = (def: CommandDef<unknown, any>): string => {
    const params = Object.entries(def.params as Record<string, ParamSpec>).map(([name, spec]) => {
      const d = spec.domain;
      const label = spec.optional ? `${name}?` : name;
      if (!d || (spec.type !== 'int' && spec.type !== 'float')) return label;
      const hi = d[1] === Infinity ? '' : spec.type === 'int' ? String(d[1] - 1) : `<${d[1]}`;
      return `${label} ${d[0] === -Infinity ? '' : d[0]}..${hi}`;
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
  const turn = (t: Example[number]): string =>
    t.role === 'assistant' ? `You: ${t.content}` : t.role === 'system' ? `SYSTEM: ${t.content}` : t.content;
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

/**
 * The conversing template's variables whose values change from call to call: the line holding
 * the first of them starts the live part (see {@link splitTemplate}).
 */
export const LIVE_VARIABLES: readonly string[] = ['STATS', 'INVENTORY', 'MEMORY', 'ACTION', 'CONVO', 'SELF_PROMPT'];

/** The first line of a request's live part, so the model does not take it for a message. */
export const LIVE_HEADER = 'STATE (updated every turn; not a message):';

/** A template cut in two (see {@link splitTemplate}). */
export interface TemplateParts {
  /** The template before the first line holding a live variable ('' when the first line has one). */
  static: string;
  /** The rest ('' when no live variable occurs). */
  live: string;
}

/**
 * Cuts `template` at the start of the first line that holds one of `live` (variable names
 * without `$`). Cutting at a line start keeps a variable's label (`Memory: $MEMORY`) with it.
 *
 * @example splitTemplate('Rules\n$COMMAND_DOCS\nMemory: $MEMORY', LIVE_VARIABLES) // → { static: 'Rules\n$COMMAND_DOCS\n', live: 'Memory: $MEMORY' }
 */
export function splitTemplate(template: string, live: readonly string[]): TemplateParts {
  let first = template.length;
  for (const match of template.matchAll(/\$([A-Z][A-Z0-9_]*)/g)) {
    if (live.includes(match[1]!)) {
      first = match.index;
      break;
    }
  }
  const cut = first === template.length ? first : template.lastIndexOf('\n', first - 1) + 1;
  return { static: template.slice(0, cut), live: template.slice(cut) };
}

/** A conversing prompt in its two parts (see the module comment). */
export interface ConversingPrompt {
  /** The static part, the same on every call of a bot: `ChatRequest.system`. */
  system: string;
  /** The live part, headed by {@link LIVE_HEADER} ('' when the template has none): `ChatRequest.live`. */
  live: string;
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
    // MINDcraft's MCP tools (its profiles' `$MCP_TOOL_USAGE`): not offered here.
    MCP_TOOL_USAGE: '',
  };
}

/**
 * Fills `template` with {@link conversingValues}, cut into its static and live parts
 * ({@link splitTemplate}; `$EXAMPLES` is live when `examplesLive`); empty lines left by empty
 * variables are dropped.
 *
 * @returns both parts, the whole text (the parts joined, without the live header) and the
 *   template variables that had no value.
 */
export function conversingPrompt(
  template: string,
  state: ConversingState,
  options: { examplesLive?: boolean } = {},
): ConversingPrompt & { text: string; unknown: string[] } {
  const parts = splitTemplate(template, options.examplesLive ? [...LIVE_VARIABLES, 'EXAMPLES'] : LIVE_VARIABLES);
  const values = conversingValues(state);
  const fill = (part: string) => fillTemplate(part, values);
  const tidy = (text: string) => text.replace(/\n{2,}/g, '\n').trim();
  const system = fill(parts.static);
  const live = fill(parts.live);
  const unknown = [...new Set([...system.unknown, ...live.unknown])];
  const systemText = tidy(system.text);
  const liveText = tidy(live.text);
  return {
    system: systemText,
    live: liveText ? `${LIVE_HEADER}\n${liveText}` : '',
    text: [systemText, liveText].filter(Boolean).join('\n'),
    unknown,
  };
}

/** The parts of a merged profile prompts are built from (templates, persona, tool calling). */
export type AgentProfile = Pick<
  MergedProfile,
  'persona' | 'conversing' | 'coding' | 'saving_memory' | 'bot_responder' | 'messages' | 'tool_calling'
>;

/** The short texts of a profile, by key (see `agentMessagesSchema` in src/settings/schema.ts). */
export type MessageKey = keyof AgentProfile['messages'];

/** The goal the prompt shows: the goal loop's (while it runs or waits) or a task's. */
export interface GoalState {
  /** The goal loop's state and goal. */
  loop: 'stopped' | 'active' | 'paused';
  loopGoal: string;
  /** A task's goal, shown when the goal loop is stopped. */
  taskGoal: string | undefined;
}

/** What a conversing prompt shows of the agent now. */
export interface AgentSnapshot {
  name: string;
  bot: Bot;
  memory: string;
  currentAction: string | undefined;
  goal: GoalState;
  /** The open conversation's partner, if any. */
  partner: string | undefined;
}

/** Options of {@link PromptBuilder}. */
export interface PromptBuilderOptions {
  /** Few-shot examples for `$EXAMPLES`; share one selector between the agents of a process. */
  examples?: ExampleSelector;
  /** Examples per prompt (default 2). */
  numExamples?: number;
  /** Told once per template about variables without a value. */
  log?: (line: string) => void;
}

/**
 * Builds one agent's prompts. Command docs and tools are computed once per command registry.
 *
 * @example
 * const prompts = new PromptBuilder(profile, { examples });
 * const { system, live } = await prompts.conversing(snapshot, commands, history.turns);
 * const limit = prompts.message('command_limit', { MAX_COMMANDS: '20' });
 */
export class PromptBuilder {
  readonly #profile: AgentProfile;
  readonly #options: PromptBuilderOptions;
  #docs: { registry: object; text: string; tools: ToolSpec[] | undefined } | undefined;
  readonly #warned = new Set<string>();

  constructor(profile: AgentProfile, options: PromptBuilderOptions = {}) {
    this.#profile = profile;
    this.#options = options;
  }

  /**
   * The conversing prompt: the profile's `conversing` template filled with the agent's state,
   * command docs and the examples closest to `recent`, in its static part (byte-identical on
   * every call while the commands and, when examples are fixed, the examples stay the same) and
   * its live part.
   */
  async conversing<Ctx>(
    state: AgentSnapshot,
    commands: CommandRegistry<Ctx>,
    recent: readonly ChatTurn[],
  ): Promise<ConversingPrompt & { text: string }> {
    const selector = this.#options.examples;
    const k = this.#options.numExamples ?? 2;
    // Every example fits: the same text on every call (file order), so it stays in the static part.
    const fixed = !selector || k <= 0 || selector.examples.length <= k;
    const examples = !selector || k <= 0 ? '' : promptExamples(fixed ? selector.examples : await selector.select(recent, k));
    const { system, live, text, unknown } = conversingPrompt(
      this.#profile.conversing,
      {
        name: state.name,
        persona: this.#profile.persona,
        commandDocs: this.#commandDocs(commands).text,
        examples,
        memory: state.memory,
        bot: state.bot,
        currentAction: state.currentAction,
        selfPrompt: this.goalLine(state.goal),
        partner: state.partner,
      },
      { examplesLive: !fixed },
    );
    this.#warn('conversing', unknown);
    return { system, live, text };
  }

  /** With native tool calling, the tools of `commands`; else undefined (docs go in the prompt). */
  tools<Ctx>(commands: CommandRegistry<Ctx>): ToolSpec[] | undefined {
    return this.#commandDocs(commands).tools;
  }

  /** The `$SELF_PROMPT` line: the goal loop's goal, else the task's, else ''. */
  goalLine(goal: GoalState): string {
    if (goal.loop !== 'stopped') return this.message(goal.loop === 'paused' ? 'goal_paused' : 'goal', { GOAL: goal.loopGoal });
    return goal.taskGoal ? this.message('task_goal', { GOAL: goal.taskGoal }) : '';
  }

  /**
   * The respond-or-ignore question asked while acting (`bot_responder`): its answer starts with
   * `respond` or `ignore` (see {@link wantsToRespond}).
   */
  respondRequest(
    name: string,
    action: string | undefined,
    partner: string,
    lines: readonly string[],
  ): Pick<ChatRequest, 'system' | 'turns'> {
    const convo = lines.map((line) => `${partner} (a bot): ${line}`).join('\n');
    // The reference's profiles put the conversation in $TO_SUMMARIZE.
    const { text, unknown } = fillTemplate(this.#profile.bot_responder, {
      NAME: name,
      ACTION: action ?? 'an action',
      CONVO: convo,
      TO_SUMMARIZE: convo,
    });
    this.#warn('bot_responder', unknown);
    return { system: text, turns: [] };
  }

  /** The `saving_memory` request: old memory plus the turns leaving the history → new memory. */
  summaryRequest(name: string, memory: string, turns: string, maxChars: number): Pick<ChatRequest, 'system' | 'turns'> {
    const { text, unknown } = fillTemplate(this.#profile.saving_memory, { NAME: name, MEMORY: memory || 'none', TO_SUMMARIZE: turns });
    this.#warn('saving_memory', unknown);
    return { system: text, turns: [{ role: 'user', content: this.message('summary_request', { MAX_CHARS: String(maxChars) }) }] };
  }

  /**
   * The `coding` system prompt for `!newAction`, with `$CODE_DOCS` left for the sandbox to fill.
   *
   * @param extra `$EXAMPLES`, already formatted (see {@link promptExamples}), and `$SELF_PROMPT`
   *   (see {@link goalLine}); '' for none.
   */
  coding(name: string, memory: string, bot: Bot, extra: { examples?: string; selfPrompt?: string } = {}): string {
    const { text } = fillTemplate(this.#profile.coding, {
      NAME: name,
      MEMORY: memory || 'none',
      STATS: statsLine(bot),
      INVENTORY: inventoryLine(bot),
      EXAMPLES: extra.examples ?? '',
      SELF_PROMPT: extra.selfPrompt ?? '',
    });
    return text.replace(/\n{2,}/g, '\n');
  }

  /**
   * One of the profile's short texts, filled with `values`.
   *
   * @example prompts.message('partner_silent', { PARTNER: 'Jill', SECONDS: '30' })
   */
  message(key: MessageKey, values: PromptValues = {}): string {
    const { text, unknown } = fillTemplate(this.#profile.messages[key], values);
    this.#warn(`messages.${key}`, unknown);
    return text;
  }

  #commandDocs<Ctx>(commands: CommandRegistry<Ctx>): { text: string; tools: ToolSpec[] | undefined } {
    if (this.#docs?.registry !== commands) {
      const list = commands.list();
      const native = this.#profile.tool_calling === 'native';
      this.#docs = {
        registry: commands,
        text: native ? this.message('native_tools') : promptCommandDocs(list),
        tools: native ? commandTools(list) : undefined,
      };
    }
    return this.#docs;
  }

  #warn(template: string, unknown: readonly string[]): void {
    if (!unknown.length || this.#warned.has(template)) return;
    this.#warned.add(template);
    this.#options.log?.(`${template} template: no value for ${unknown.map((v) => `$${v}`).join(', ')}`);
  }
}

/** True when a respond-or-ignore answer (see {@link PromptBuilder.respondRequest}) says to respond now. */
export function wantsToRespond(answer: string): boolean {
  return /^\W*respond\b/i.test(answer.trim());
}
