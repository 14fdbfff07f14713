/**
 * Skills declared once. A skill is one {@link defineSkill} declaration: its name, its description
 * (the docs the model reads), its parameters as zod schemas made with {@link param} (each carrying
 * the {@link ParamSpec} the command parser, the docs and the tool schemas read) and `run`, which
 * does the work and reports an {@link Outcome}. From that one declaration
 * - the command layer makes the `!command` (`src/commands/skill-commands.ts`: name → `!name`,
 *   adding only what is command-specific: kind, alongside, time bound, variant), and
 * - the `!newAction` sandbox makes the function the model's code calls (`src/sandbox/skills.ts`:
 *   arguments checked by the same schemas, docs from the same description).
 *
 * @example
 * export const collectBlocksSkill = defineSkill({
 *   name: 'collectBlocks',
 *   description: 'Dig blocks of a type (ripe crops) and pick up the drops.',
 *   params: {
 *     type: param.blockName('block', { example: 'oak_log' }),
 *     num: param.int('how many', { domain: [1, Infinity], example: 4 }),
 *   },
 *   run: ({ bot, signal }, { type, num }) => collectBlocks(bot, type, num, signal),
 * });
 */
import type { Bot } from 'mineflayer';
import { z } from 'zod';
import type { SkillCall, WorldSupplies } from '../game/production.ts';
import type { Blueprint } from '../tasks/schema.ts';
import type { Outcome } from './outcome.ts';

/** Parameter types a skill or command can declare. `ItemName`/`BlockName` are validated game names. */
export type ParamType = 'int' | 'float' | 'boolean' | 'string' | 'ItemName' | 'BlockName';

/** What the parser, the docs and the tool schemas know of one parameter. */
export interface ParamSpec {
  type: ParamType;
  /** Short, shown in the docs and in errors. */
  description: string;
  /** Numbers only: allowed interval `[lo, hi)`; `hi` may be `Infinity`. Absent = any finite number. */
  domain?: [number, number];
  /** Optional example value used in docs and error messages; a sensible default is derived otherwise. */
  example?: string | number | boolean;
  /**
   * May be left out (only after every required parameter): the skill or command then gets
   * {@link default}, or `undefined` when there is none, and the tool schema does not require it.
   * E.g. `!help`'s command name, `!getCraftingPlan`'s quantity.
   */
  optional?: true;
  /**
   * Optional parameters only: the value given when the parameter is left out (shown in the docs
   * and the tool schema), e.g. `1` for `!getCraftingPlan`'s quantity, as in the reference.
   */
  default?: string | number | boolean;
}

/** The {@link ParamSpec} of each parameter schema made by {@link param}. */
const specs = new WeakMap<z.ZodType, ParamSpec>();

/** Options of a number parameter. */
export interface NumberOptions {
  /** Allowed interval `[lo, hi)`; `hi` may be `Infinity`. */
  domain?: [number, number];
  example?: number;
}

function registered<S extends z.ZodType>(schema: S, spec: ParamSpec): S {
  specs.set(schema, spec);
  return schema;
}

function number(type: 'int' | 'float', description: string, { domain, example }: NumberOptions): z.ZodNumber {
  let schema = type === 'int' ? z.number().int() : z.number();
  if (domain && Number.isFinite(domain[0])) schema = schema.gte(domain[0]);
  if (domain && Number.isFinite(domain[1])) schema = schema.lt(domain[1]);
  return registered(schema, { type, description, ...(domain ? { domain } : {}), ...(example !== undefined ? { example } : {}) });
}

function text(type: 'string' | 'ItemName' | 'BlockName', description: string, example: string | undefined): z.ZodString {
  return registered(z.string(), { type, description, ...(example !== undefined ? { example } : {}) });
}

/**
 * Builders of parameter schemas: each returns a zod schema that checks a value of its type (and
 * domain) and carries its {@link ParamSpec}. Game names (`itemName`, `blockName`) are strings to
 * zod; the parser and the sandbox resolve them against the bot's version (`src/game/names.ts`).
 *
 * @example param.int('how many', { domain: [1, Infinity], example: 4 })
 * @example param.optional(param.int('how many items', { domain: [1, Infinity] }), 1)
 */
export const param = {
  /** A whole number, in `domain` `[lo, hi)` when given. */
  int: (description: string, options: NumberOptions = {}): z.ZodNumber => number('int', description, options),
  /** A finite number, in `domain` `[lo, hi)` when given. */
  float: (description: string, options: NumberOptions = {}): z.ZodNumber => number('float', description, options),
  boolean: (description: string, options: { example?: boolean } = {}): z.ZodBoolean =>
    registered(z.boolean(), { type: 'boolean', description, ...(options.example !== undefined ? { example: options.example } : {}) }),
  string: (description: string, options: { example?: string } = {}): z.ZodString => text('string', description, options.example),
  /** An item name of the bot's version (`oak_planks`). */
  itemName: (description: string, options: { example?: string } = {}): z.ZodString => text('ItemName', description, options.example),
  /** A block name of the bot's version (`oak_log`). */
  blockName: (description: string, options: { example?: string } = {}): z.ZodString => text('BlockName', description, options.example),
  /**
   * `schema` made optional (it must come after every required parameter): left out, it is
   * `dflt`, or `undefined` without one.
   *
   * @throws Error when `schema` was not made by a {@link param} builder.
   */
  optional: optionalParam,
};

function optionalParam<S extends z.ZodType>(schema: S): z.ZodOptional<S>;
function optionalParam<S extends z.ZodType>(schema: S, dflt: z.output<S> & (string | number | boolean)): z.ZodDefault<S>;
function optionalParam<S extends z.ZodType>(schema: S, dflt?: z.output<S> & (string | number | boolean)): z.ZodType {
  const inner = specOf(schema);
  if (dflt === undefined) return registered(schema.optional(), { ...inner, optional: true });
  return registered(schema.default(dflt as never), { ...inner, optional: true, default: dflt });
}

/**
 * The {@link ParamSpec} a parameter schema carries.
 *
 * @throws Error when `schema` was not made by a {@link param} builder.
 */
export function specOf(schema: z.ZodType): ParamSpec {
  const spec = specs.get(schema);
  if (!spec) throw new Error('A skill parameter must be made with param.int, param.string, ... (src/skills/declare.ts)');
  return spec;
}

/** A skill's parameters: name → schema, in argument order. */
export type SkillParams = Record<string, z.ZodType>;

/** The arguments `run` gets: each parameter's value as its schema outputs it (an optional one without a default may be `undefined`). */
export type SkillArgs<P extends SkillParams> = { [K in keyof P]: z.output<P[K]> };

/** The part of an agent's task that skills read. */
export interface SkillTask {
  /** The construction blueprint (`checkBlueprint`). */
  readonly blueprint?: Blueprint | undefined;
  /** MineCollab's `restrict_to_inventory`: `getCraftingPlan` plans from the inventory only. */
  readonly restrictToInventory?: boolean | undefined;
  /** What the task's world is known to supply (the cooking world's farm and animals), for `getCraftingPlan`. */
  readonly supplies?: WorldSupplies | undefined;
}

/** What a skill's `run` gets besides its arguments. */
export interface SkillContext {
  readonly bot: Bot;
  /** Fires when the skill must stop (`!stop`, a newer action, the time bound, the end of the code's run). */
  readonly signal: AbortSignal;
  /** The agent's part of the running task, if any. */
  readonly task?: Readonly<SkillTask> | undefined;
  /**
   * How the reader writes a skill call that a report suggests (a plan's gathering step): the
   * command layer's `commandCall`, `!collectBlocks("oak_log", 2)`.
   */
  writeCall(call: SkillCall): string;
}

/** One skill: the declaration the command and the sandbox function are made from. */
export interface SkillDef<P extends SkillParams = SkillParams, C extends SkillContext = SkillContext> {
  /** The name the code calls and the command is named after, e.g. `collectBlocks` (`!collectBlocks`). */
  readonly name: string;
  /** What it does, in one short sentence: the docs of the command and of the sandbox function. */
  readonly description: string;
  /** Parameters in argument order, each made with {@link param}. */
  readonly params: P;
  /**
   * Does the work; honours `ctx.signal` (rejects with its AbortError when it fires).
   *
   * @returns what happened; a failure is a failed outcome, or a thrown {@link SkillError} (anything
   *   else thrown is reported as `failed`).
   */
  run(ctx: C, args: SkillArgs<P>): Promise<Outcome>;
}

/**
 * Declares a skill, inferring its argument types from `params` (and its context from the
 * annotation of `run`'s first parameter, when it needs more than {@link SkillContext}).
 *
 * @throws Error on a name that is not an identifier, a parameter not made with {@link param}, or
 *   a required parameter after an optional one.
 */
export function defineSkill<const P extends SkillParams, C extends SkillContext = SkillContext>(def: SkillDef<P, C>): SkillDef<P, C> {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(def.name)) throw new Error(`defineSkill: "${def.name}" is not a skill name (e.g. "collectBlocks")`);
  let optionalSeen = false;
  for (const [name, schema] of Object.entries(def.params)) {
    const spec = specOf(schema);
    if (optionalSeen && !spec.optional) throw new Error(`defineSkill: ${def.name}'s required "${name}" follows an optional parameter`);
    optionalSeen ||= !!spec.optional;
  }
  return def;
}

/** The {@link ParamSpec} of each parameter, in argument order. */
export function paramSpecs(params: SkillParams): Record<string, ParamSpec> {
  return Object.fromEntries(Object.entries(params).map(([name, schema]) => [name, specOf(schema)]));
}

/** `[1, 1000)`, `[-64, 320)`, `[0, inf)`. */
export function formatDomain([lo, hi]: [number, number]): string {
  const f = (n: number): string => (n === Infinity ? 'inf' : n === -Infinity ? '-inf' : String(n));
  return `[${f(lo)}, ${f(hi)})`;
}

/** Human phrase for what a parameter expects: `an int in [1, 1000)`, `a block name`. */
export function describeExpected(spec: ParamSpec): string {
  const base: Record<ParamType, string> = {
    int: 'an int',
    float: 'a number',
    boolean: 'a boolean (true or false)',
    string: 'a string',
    ItemName: 'an item name',
    BlockName: 'a block name',
  };
  const domain = spec.domain && (spec.type === 'int' || spec.type === 'float') ? ` in ${formatDomain(spec.domain)}` : '';
  return base[spec.type] + domain;
}

/**
 * `collectBlocks(type: BlockName, num: int)`; without parameters `name` alone (a command's form,
 * `!stats`), or `name()` with `call` (a function's form, `goToBed()`).
 */
export function signatureOf(name: string, params: Record<string, ParamSpec>, call = false): string {
  const entries = Object.entries(params);
  if (entries.length === 0) return call ? `${name}()` : name;
  return `${name}(${entries.map(([n, s]) => `${n}${s.optional ? '?' : ''}: ${s.type}`).join(', ')})`;
}

/** A valid example value for a parameter, written as a call takes it (`"oak_log"`, `4`). */
export function exampleValue(spec: ParamSpec): string {
  let v: string | number | boolean;
  if (spec.example !== undefined) v = spec.example;
  else if (spec.type === 'int' || spec.type === 'float') {
    const [lo, hi] = spec.domain ?? [-Infinity, Infinity];
    const want = spec.type === 'int' ? 4 : 1.5;
    v = want >= lo && want < hi ? want : lo !== -Infinity ? lo : Math.floor(hi - 1);
  } else if (spec.type === 'boolean') v = true;
  else if (spec.type === 'ItemName') v = 'oak_planks';
  else if (spec.type === 'BlockName') v = 'oak_log';
  else v = 'text';
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/** A well-formed call: `collectBlocks("oak_log", 4)`; `name` alone without parameters. */
export function exampleCallOf(name: string, params: Record<string, ParamSpec>): string {
  const values = Object.values(params);
  if (values.length === 0) return name;
  return `${name}(${values.map(exampleValue).join(', ')})`;
}

/**
 * A doc block: `name(p: type, ...): description` (see {@link signatureOf} for `call`), then one
 * `  p: description [lo, hi)` line per parameter. A parameter line that would say nothing new (no
 * domain, and a description that is empty or just repeats the name, like `x: x`) is left out.
 */
export function docBlockOf(name: string, description: string, params: Record<string, ParamSpec>, call = false): string {
  const lines = [`${signatureOf(name, params, call)}: ${description}`];
  for (const [n, s] of Object.entries(params)) {
    const desc = s.description.trim();
    const redundant = desc === '' || desc.toLowerCase() === n.toLowerCase();
    if (redundant && !s.domain && s.default === undefined) continue;
    const dflt = s.default !== undefined ? ` (default ${JSON.stringify(s.default)})` : '';
    lines.push(`  ${n}:${redundant ? '' : ` ${desc}`}${s.domain ? ` ${formatDomain(s.domain)}` : ''}${dflt}`);
  }
  return lines.join('\n');
}
