/**
 * The command registry: typed command definitions, blocking, and the compact docs the model
 * reads in its system prompt.
 *
 * A command is written by the model as `!name` or `!name(arg1, arg2, ...)`; see `parser.ts`.
 */
import { distance } from 'fastest-levenshtein';
import {
  describeExpected,
  docBlockOf,
  exampleCallOf,
  formatDomain,
  signatureOf,
  type ParamSpec,
  type ParamType,
} from '../skills/declare.ts';
import type { Outcome } from '../skills/outcome.ts';

// The parameter vocabulary is the skills' (`src/skills/declare.ts`): a command generated from a
// skill declares its parameters there, once; the other commands declare them here in the same terms.
export { describeExpected, formatDomain, type ParamSpec, type ParamType };

type ArgOf<T extends ParamType> = T extends 'int' | 'float' ? number : T extends 'boolean' ? boolean : string;

/**
 * The typed argument object a command's `perform` receives (optional parameters without a
 * `default` may be `undefined`).
 */
export type ArgsOf<P extends Record<string, ParamSpec>> = {
  [K in keyof P]: P[K] extends { optional: true }
    ? P[K] extends { default: string | number | boolean }
      ? ArgOf<P[K]['type']>
      : ArgOf<P[K]['type']> | undefined
    : ArgOf<P[K]['type']>;
};

/** A command definition. `Ctx` is whatever the agent passes to `perform` (bot, agent, ...). */
export interface CommandDef<Ctx, P extends Record<string, ParamSpec> = Record<string, ParamSpec>> {
  /** With the bang, e.g. `'!collectBlocks'`. */
  name: string;
  kind: 'query' | 'action';
  description: string;
  /** Declaration order = argument order. */
  params: P;
  /**
   * True for an action that does not occupy the bot's body (e.g. `!stop`, conversation control):
   * it runs at once, without interrupting the current action.
   */
  alongside?: boolean;
  /**
   * Another form of that command (`'!craftRecipe'` for `!craftItems`): blocking that command
   * blocks this one too, so a task's `blocked_actions` cannot be got round.
   */
  variantOf?: string;
  /**
   * Actions only: the time bound for these arguments, in ms, or `'until stopped'` for an action
   * that runs until `!stop` or a newer action ends it (`!followPlayer`, `!stay(-1)`, as in the
   * reference). Absent or `undefined`: the agent's `action_timeout_s`.
   */
  timeBound?(args: ArgsOf<P>): number | 'until stopped' | undefined;
  /**
   * Runs the command and reports what happened: its `text` is shown to the model, its `code` and
   * `data` are read by code (see `src/skills/outcome.ts`). A failure is a failed outcome or a thrown
   * error (a `SkillError` keeps its code and data); the agent reports a thrown one as
   * `!name failed: <message>`.
   */
  perform(ctx: Ctx, args: ArgsOf<P>): Promise<Outcome>;
}

/**
 * Identity helper that infers the parameter types, so `perform`'s `args` is typed.
 * `Ctx` is inferred from the annotation of `perform`'s first parameter:
 *
 * ```ts
 * defineCommand({ name: '!digDown', kind: 'action', description: 'Dig straight down.',
 *   params: { distance: { type: 'int', description: 'blocks', domain: [1, 64] } },
 *   async perform(agent: Agent, { distance }) { ... } });
 * ```
 * If you cannot annotate `ctx`, use {@link defineCommandFor}.
 */
export function defineCommand<Ctx, const P extends Record<string, ParamSpec>>(def: CommandDef<Ctx, P>): CommandDef<Ctx, P> {
  return def;
}

/** Curried {@link defineCommand} with `Ctx` fixed up front: `const define = defineCommandFor<Agent>();`. */
export function defineCommandFor<Ctx>(): <const P extends Record<string, ParamSpec>>(def: CommandDef<Ctx, P>) => CommandDef<Ctx, P> {
  return (def) => def;
}

/** Commands that can never be blocked. */
export const UNBLOCKABLE: readonly string[] = ['!stop', '!stats', '!inventory', '!goal'];

/** `'stop'` or `'!stop'` → `'!stop'` (trimmed). */
export function withBang(name: string): string {
  const n = name.trim();
  return n.startsWith('!') ? n : `!${n}`;
}

/** `!collectBlocks(type: BlockName, num: int)`; a command without params is just `!stats`. */
export function signature(def: CommandDef<unknown>): string {
  return signatureOf(def.name, def.params);
}

/** A well-formed invocation: `!collectBlocks("oak_log", 4)`. */
export function exampleCall(def: CommandDef<unknown>): string {
  return exampleCallOf(def.name, def.params);
}

/** One command's doc block (see `docBlockOf` in `src/skills/declare.ts`). */
function docBlock(def: CommandDef<unknown>): string {
  return docBlockOf(def.name, def.description, def.params);
}

/** An immutable set of commands with unique names. */
export class CommandRegistry<Ctx> {
  readonly #defs: CommandDef<Ctx>[];
  readonly #byName: Map<string, CommandDef<Ctx>>;

  /**
   * @param defs command definitions; names must start with `!` and be unique; optional
   *   parameters come last, and only they have defaults.
   * @throws Error on a duplicate or malformed name, or misplaced optional parameters or defaults.
   */
  constructor(defs: CommandDef<Ctx>[]) {
    this.#defs = [...defs];
    this.#byName = new Map();
    for (const def of defs) {
      if (!/^![A-Za-z][A-Za-z0-9_]*$/.test(def.name)) {
        throw new Error(`CommandRegistry: malformed command name "${def.name}" (expected e.g. "!collectBlocks")`);
      }
      if (this.#byName.has(def.name)) throw new Error(`CommandRegistry: duplicate command "${def.name}"`);
      const params = Object.entries(def.params);
      const firstOptional = params.findIndex(([, p]) => p.optional);
      for (const [i, [n, p]] of params.entries()) {
        if (p.default !== undefined && !p.optional)
          throw new Error(`CommandRegistry: ${def.name}'s "${n}" has a default but is not optional`);
        if (firstOptional !== -1 && i > firstOptional && !p.optional)
          throw new Error(`CommandRegistry: ${def.name}'s required "${n}" follows an optional parameter`);
      }
      this.#byName.set(def.name, def);
    }
  }

  /** The command called `name` (with or without the bang; exact case), if registered. */
  get(name: string): CommandDef<Ctx> | undefined {
    return this.#byName.get(withBang(name));
  }

  /** Case-insensitive lookup; used by the parser to forgive `!CollectBlocks`. */
  getIgnoringCase(name: string): CommandDef<Ctx> | undefined {
    const exact = this.get(name);
    if (exact) return exact;
    const lower = withBang(name).toLowerCase();
    const matches = this.#defs.filter((d) => d.name.toLowerCase() === lower);
    return matches.length === 1 ? matches[0] : undefined;
  }

  /** All commands, in registration order. */
  list(): CommandDef<Ctx>[] {
    return [...this.#defs];
  }

  /**
   * A registry without the blocked commands (names with or without `!`) and their variants
   * ({@link CommandDef.variantOf}). {@link UNBLOCKABLE} commands are kept even if listed.
   */
  without(blocked: readonly string[]): CommandRegistry<Ctx> {
    const drop = new Set(blocked.map(withBang).filter((n) => !UNBLOCKABLE.includes(n)));
    return new CommandRegistry(this.#defs.filter((d) => !drop.has(d.name) && !(d.variantOf && drop.has(d.variantOf))));
  }

  /**
   * The `n` registered names closest to `name` (case-insensitive Levenshtein), closest first;
   * names sharing a prefix with the query are preferred on ties.
   */
  closest(name: string, n = 3): string[] {
    const q = withBang(name).toLowerCase().slice(0, 80);
    return this.#defs
      .map((d) => ({ name: d.name, d: distance(q, d.name.toLowerCase()) }))
      .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name))
      .slice(0, n)
      .map((x) => x.name);
  }

  /** Compact docs for the system prompt: one block per command, queries first. */
  docs(): string {
    return this.#ordered()
      .map((d) => docBlock(d))
      .join('\n');
  }

  /**
   * What `!help` prints, short enough for chat (a few lines): the syntax, the names of the
   * queries and of the actions, and how to get one command's details; with `name`, that
   * command's parameters and description (or the closest names when there is no such command).
   *
   * @param name a command name, with or without the bang, any case.
   */
  help(name?: string): string {
    if (name?.trim()) {
      const def = this.getIgnoringCase(name.trim());
      if (def) return docBlock(def);
      return `There is no command ${withBang(name.trim())}. Did you mean ${this.closest(name.trim()).join(', ')}?`;
    }
    const queries = this.#defs.filter((d) => d.kind === 'query');
    const actions = this.#defs.filter((d) => d.kind === 'action');
    const sample = this.#defs.find((d) => Object.values(d.params).some((p) => !p.optional)) ?? this.#defs[0];
    const parts = [
      `Use a command by writing it in your reply${sample ? `, e.g. ${exampleCall(sample)}` : ''}. ` +
        'Only the first command in a reply runs; quote text arguments.',
    ];
    if (queries.length) parts.push('Queries:\n' + queries.map((d) => d.name).join(' '));
    if (actions.length) parts.push('Actions:\n' + actions.map((d) => d.name).join(' '));
    if (this.#defs.some((d) => d.name === '!help'))
      parts.push(`!help("${sample ? sample.name.slice(1) : 'name'}") shows a command's parameters.`);
    return parts.join('\n');
  }

  #ordered(): CommandDef<Ctx>[] {
    return [...this.#defs.filter((d) => d.kind === 'query'), ...this.#defs.filter((d) => d.kind === 'action')];
  }
}
