/**
 * The functions `!newAction` code calls, made from the skill declarations (`src/skills/declare.ts`):
 * the same names, parameters and descriptions as the commands, arguments checked by the same
 * schemas (game names resolved as the parser resolves them), and a few read-only helpers only the
 * code has ({@link SANDBOX_HELPERS}: where the bot is, what it holds, a block, the blueprint;
 * `say`), declared the same way.
 *
 * What a skill function gives the code (stated in the docs the coding prompt shows, {@link CALLS_DOC}):
 * the outcome's text when the skill did what was asked or part of it (`ok`, `partial`); otherwise
 * it throws an Error whose message is the outcome's text and whose `code` is the outcome's code
 * (`not_found`, `unreachable`, `missing_items`, ...; `invalid` for a bad argument).
 */
import { Vec3 } from 'vec3';
import type { NameResolver } from '../game/names.ts';
import {
  describeExpected,
  docBlockOf,
  exampleCallOf,
  formatDomain,
  param,
  paramSpecs,
  signatureOf,
  specOf,
  type SkillArgs,
  type SkillContext,
  type SkillDef,
  type SkillParams,
} from '../skills/declare.ts';
import { inventoryCounts } from '../skills/items.ts';
import { type OutcomeCode, outcomeOfError, SkillError } from '../skills/outcome.ts';
import type { SkillTable } from './runner.ts';

/** What the sandbox's functions get: a skill's context, and a way to chat. */
export interface SandboxContext extends SkillContext {
  /** Says a line in chat (through the agent's rate-limited outbox). */
  say(text: string): void;
}

/** A read-only helper only `!newAction` code has: declared like a skill, but it gives data (`returns` says what) instead of a report. */
export interface SandboxHelper<P extends SkillParams = SkillParams> {
  readonly name: string;
  /** What it gives, for the docs: `{x, y, z} of your feet`. */
  readonly description: string;
  readonly params: P;
  get(ctx: SandboxContext, args: SkillArgs<P>): Promise<unknown>;
}

/** Declares a {@link SandboxHelper}, inferring its argument types from `params`. */
export function defineHelper<const P extends SkillParams>(def: SandboxHelper<P>): SandboxHelper<P> {
  return def;
}

/** The helpers only the code has, in the order the docs list them. */
export const SANDBOX_HELPERS: readonly SandboxHelper[] = [
  defineHelper({
    name: 'position',
    description: '{x, y, z} of your feet (decimals: Math.floor them for block coordinates).',
    params: {},
    get: async ({ bot }) => {
      const p = bot.entity.position;
      return { x: p.x, y: p.y, z: p.z };
    },
  }),
  defineHelper({
    name: 'inventory',
    description: '{itemName: count} of what you carry and wear.',
    params: {},
    get: async ({ bot }) => ({ ...inventoryCounts(bot) }),
  }),
  defineHelper({
    name: 'blockAt',
    description: 'The block name at a position ("air" for none), or null where the world is not loaded.',
    params: { x: param.float(''), y: param.float(''), z: param.float('') },
    get: async ({ bot }, { x, y, z }) => bot.blockAt(new Vec3(Math.floor(x), Math.floor(y), Math.floor(z)))?.name ?? null,
  }),
  defineHelper({
    name: 'blueprint',
    description:
      'Your construction blueprint {materials, levels: [{level, coordinates: [x, y, z], placement: rows[z][x] of block names}]}, or null.',
    params: {},
    get: async ({ task }) => task?.blueprint ?? null,
  }),
  defineHelper({
    name: 'say',
    description: 'Chats a line.',
    params: { text: param.string('what to say', { example: 'On my way!' }) },
    get: async ({ say }, { text }) => {
      say(text);
    },
  }),
];

/** The codes a skill function's error may carry (every outcome code but `ok`, `partial`, `interrupted` and `timeout`). */
const ERROR_CODES: readonly OutcomeCode[] = [
  'not_found',
  'unreachable',
  'missing_items',
  'refused_by_server',
  'invalid',
  'unavailable',
  'failed',
];

/** The first lines of the skills' docs: how a call reports. */
export const CALLS_DOC = [
  'Each skill returns its report (a string) when it did what was asked, or part of it. Otherwise it throws an Error whose message says why',
  `and whose code is one of ${ERROR_CODES.join(', ')} (catch it to try another way). A wrong argument throws with code invalid.`,
].join(' ');

/** A value as an error shows it: JSON, shortened. */
function show(value: unknown): string {
  const s = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  return s.length > 60 ? `${s.slice(0, 60)}...` : s;
}

/**
 * The named arguments of a call with positional `args`, checked by each parameter's schema;
 * item and block names resolved with `names` (`"Oak Log"` → `oak_log`). Trailing `undefined`s
 * count as left out, so optional parameters get their defaults.
 *
 * @throws SkillError `invalid` naming the function, the parameter (position and name), what was
 *   expected and what was found, with a correct call: the parser's words for a command.
 */
export function bindArgs(name: string, params: SkillParams, args: readonly unknown[], names: NameResolver): Record<string, unknown> {
  const specs = paramSpecs(params);
  const entries = Object.entries(params);
  const given = [...args];
  while (given.length > 0 && given.at(-1) === undefined) given.pop();
  const example = `Example: ${exampleCallOf(name, specs)}`;
  const invalid = (message: string): SkillError => new SkillError('invalid', `${name}: ${message}`);
  const required = entries.filter(([, s]) => !specOf(s).optional).length;
  if (given.length < required || given.length > entries.length) {
    const count = required === entries.length ? `${entries.length}` : `${required} to ${entries.length}`;
    const expected = `expects ${count} argument${entries.length === 1 ? '' : 's'}, got ${given.length}`;
    const usage = `Usage: ${signatureOf(name, specs, true)}. ${example}`;
    if (given.length < required) {
      const [pname, schema] = entries[given.length]!;
      throw invalid(`${expected}; missing argument ${given.length + 1} "${pname}" (${describeExpected(specOf(schema))}). ${usage}`);
    }
    throw invalid(
      `${expected}; argument ${entries.length + 1} and after are extra (${given.slice(entries.length).map(show).join(', ')}). ${usage}`,
    );
  }
  const out: Record<string, unknown> = {};
  for (const [i, [pname, schema]] of entries.entries()) {
    const spec = specOf(schema);
    const parsed = schema.safeParse(given[i]);
    const wrong = (why: string): SkillError =>
      invalid(`argument ${i + 1} "${pname}" expects ${describeExpected(spec)}, got ${show(given[i])}${why}. ${example}`);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const why =
        issue?.code === 'too_small' || issue?.code === 'too_big'
          ? ` (outside ${formatDomain(spec.domain ?? [-Infinity, Infinity])})`
          : issue?.code === 'invalid_type' && issue.expected === 'int' && typeof given[i] === 'number'
            ? ' (not a whole number)'
            : '';
      throw wrong(why);
    }
    let value: unknown = parsed.data;
    if ((spec.type === 'ItemName' || spec.type === 'BlockName') && typeof value === 'string') {
      const kind = spec.type === 'ItemName' ? 'item' : 'block';
      const r = kind === 'item' ? names.item(value) : names.block(value);
      if (!r.ok) {
        const closest = r.suggestions.length ? `; closest valid names: ${r.suggestions.map((s) => JSON.stringify(s)).join(', ')}` : '';
        throw wrong(` (no such ${kind}${closest})`);
      }
      value = r.name;
    }
    out[pname] = value;
  }
  return out;
}

/** An Error the code catches: the outcome's text, with its code. */
function skillFailure(code: OutcomeCode, text: string): Error {
  return Object.assign(new Error(text), { code });
}

/**
 * The functions the code may call, bound to `ctx`: one per skill (its outcome's text, or an
 * error carrying its code; see the file's docs) and one per helper; and their docs for
 * `$CODE_DOCS`: {@link CALLS_DOC}, then each function's signature, description and parameters.
 *
 * @param skills the skill declarations (e.g. `SKILLS` of `src/skills/index.ts`).
 * @param names resolves item and block arguments for the bot's version.
 */
export function sandboxSkills(
  skills: readonly SkillDef[],
  helpers: readonly SandboxHelper[],
  ctx: SandboxContext,
  names: NameResolver,
): { skills: SkillTable; docs: string } {
  const table: SkillTable = {};
  const docs: string[] = [CALLS_DOC];
  for (const skill of skills) {
    table[skill.name] = async (...args: unknown[]) => {
      const bound = bindArgs(skill.name, skill.params, args, names);
      let outcome;
      try {
        outcome = await skill.run(ctx, bound);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        outcome = outcomeOfError(err);
      }
      if (outcome.ok || outcome.code === 'partial') return outcome.text;
      throw skillFailure(outcome.code, outcome.text);
    };
    docs.push(docBlockOf(skill.name, skill.description, paramSpecs(skill.params), true));
  }
  for (const helper of helpers) {
    table[helper.name] = async (...args: unknown[]) => helper.get(ctx, bindArgs(helper.name, helper.params, args, names));
    docs.push(docBlockOf(helper.name, helper.description, paramSpecs(helper.params), true));
  }
  return { skills: table, docs: docs.join('\n') };
}
