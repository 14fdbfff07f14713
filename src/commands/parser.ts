/**
 * Finds and parses the first `!command` in a model's reply.
 *
 * Accepted syntax (lenient, because models are):
 * - `!name`, `!name()`, `!name(arg, ...)`; for commands with parameters, spaces may separate the
 *   name from `(`; the name is matched case-insensitively when that is unambiguous.
 * - arguments: double-, single-, backtick- or curly-quoted strings with backslash escapes
 *   (`\"`, `\'`, `\\`, `\n`, `\t`), or unquoted text up to the next `,` or `)` (nested parentheses
 *   kept); a quote only closes a string when followed by `,`, `)` or the end, so `'I'm here'` works.
 * - spaces anywhere between arguments, a trailing comma, backticks or `**` around the command,
 *   prose before it (returned as `before`) and after it (ignored).
 *
 * What counts as a command: the first `!word` that is a registered command, or that is followed
 * directly by `(` (unknown command → error), or that closely misspells a registered command and
 * stands as its own word (`!collectBlock` → error). Any other `!word` (`Wow!great`, `hi !there`)
 * is prose and skipped.
 *
 * Argument conversion by declared type: `int` (integral numbers, `4.0` accepted), `float`,
 * `boolean` (`true/t/1/on/yes`, `false/f/0/off/no`), `string`, `ItemName`/`BlockName` (normalised
 * through the {@link NameResolver}); numbers are checked against their `[lo, hi)` domain; quoted
 * numbers and booleans are accepted. The argument count must match, except that trailing
 * parameters declared `optional` may be left out (they get their declared `default`, if any).
 *
 * Every error message names the command, the parameter (position and name), what was expected
 * and what was found, and ends with a correct example call.
 */
import { distance } from 'fastest-levenshtein';
import type { NameResolver } from '../game/names.ts';
import {
  describeExpected,
  exampleCall,
  formatDomain,
  signature,
  type CommandDef,
  type CommandRegistry,
  type ParamSpec,
} from './registry.ts';

/** Result of {@link parseCommand}. */
export type ParseResult<Ctx> =
  /** No command in the text. */
  | { kind: 'none' }
  | {
      kind: 'command';
      command: CommandDef<Ctx>;
      /** Converted arguments keyed by parameter name; matches `ArgsOf<typeof command.params>`. */
      args: Record<string, string | number | boolean>;
      /** Text before the command, trimmed (surrounding backticks and `**` removed). */
      before: string;
      /** The command text as written, from `!` to the closing `)` (or the end of the name). */
      source: string;
    }
  | {
      kind: 'error';
      /** The command as registered (`!collectBlocks`), or as written if unknown. */
      commandName?: string;
      /** Says what is wrong and how to fix it. */
      message: string;
      before: string;
    };

/** One argument as written. */
interface RawArg {
  text: string;
  quoted: boolean;
}

type Fail = { ok: false; message: string };

const IDENT = /[A-Za-z][A-Za-z0-9_]*/y;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
const TRUE = new Set(['true', 't', '1', 'on', 'yes']);
const FALSE = new Set(['false', 'f', '0', 'off', 'no']);
/** Opening quote → the characters that may close it. */
const QUOTES: Record<string, string> = {
  '"': '"\u201d',
  "'": "'\u2019",
  '`': '`',
  '\u201c': '\u201d\u201c"',
  '\u2018': "\u2019\u2018'",
};
/** Longest "got ..." excerpt shown in an error. */
const SHOW_MAX = 60;

/**
 * Parse the first command in `text`.
 *
 * @param text the model's whole reply.
 * @param registry the commands this agent may use (blocked ones already removed).
 * @param names resolver for `ItemName`/`BlockName` parameters.
 * @returns `none`, a converted `command`, or an `error` whose message can be fed back to the
 *   model verbatim. Never throws.
 */
export function parseCommand<Ctx>(text: string, registry: CommandRegistry<Ctx>, names: NameResolver): ParseResult<Ctx> {
  try {
    return findCommand(String(text ?? ''), registry, names);
  } catch (err) {
    // Defensive: a bug (or a throwing resolver) must not take the agent loop down.
    return {
      kind: 'error',
      message: `Could not parse the command (${err instanceof Error ? err.message : String(err)}). Write it as !name("text", 4).`,
      before: '',
    };
  }
}

function findCommand<Ctx>(text: string, registry: CommandRegistry<Ctx>, names: NameResolver): ParseResult<Ctx> {
  const nearMissCache = new Map<string, boolean>();
  for (let bang = text.indexOf('!'); bang !== -1; bang = text.indexOf('!', bang + 1)) {
    IDENT.lastIndex = bang + 1;
    const m = IDENT.exec(text);
    if (!m) continue;
    const word = m[0];
    const nameEnd = bang + 1 + word.length;
    const before = (): string => cleanBefore(text.slice(0, bang));
    const def = registry.getIgnoringCase(word);
    if (def) return parseInvocation(text, bang, nameEnd, def, names, before());

    const written = `!${word}`;
    if (text[nameEnd] === '(') {
      return { kind: 'error', commandName: written, message: unknownMessage(written, registry), before: before() };
    }
    const standsAlone = bang === 0 || !/[A-Za-z0-9_]/.test(text[bang - 1]!);
    if (standsAlone && isNearMiss(word, registry, nearMissCache)) {
      return { kind: 'error', commandName: written, message: unknownMessage(written, registry), before: before() };
    }
  }
  return { kind: 'none' };
}

/** Strip trailing whitespace, backticks and emphasis markers that wrap the command. */
function cleanBefore(s: string): string {
  let end = s.length;
  while (end > 0 && /[\s`*_]/.test(s[end - 1]!)) end--;
  return s.slice(0, end).trim();
}

/** A `!word` standing alone that is within a small edit distance of a registered command. */
function isNearMiss(word: string, registry: CommandRegistry<unknown>, cache: Map<string, boolean>): boolean {
  if (word.length < 3 || word.length > 40) return false;
  const cached = cache.get(word);
  if (cached !== undefined) return cached;
  const [closest] = registry.closest(word, 1);
  const lower = word.toLowerCase();
  const allowed = word.length >= 8 ? 2 : 1;
  const result = closest !== undefined && distance(lower, closest.slice(1).toLowerCase()) <= allowed;
  cache.set(word, result);
  return result;
}

function unknownMessage(written: string, registry: CommandRegistry<unknown>): string {
  const shown = show(written);
  const close = registry.closest(written, 3);
  const hint = close.length ? ` Did you mean ${close.join(', ')}?` : '';
  return `${shown.slice(1, -1)} is not a command I have.${hint} Use !help to list commands.`;
}

function parseInvocation<Ctx>(
  text: string,
  bang: number,
  nameEnd: number,
  def: CommandDef<Ctx>,
  names: NameResolver,
  before: string,
): ParseResult<Ctx> {
  const specs = Object.entries(def.params);
  const fail = (message: string): ParseResult<Ctx> => ({ kind: 'error', commandName: def.name, message, before });

  // Where the argument list starts, if there is one.
  let open = -1;
  if (text[nameEnd] === '(') open = nameEnd;
  else if (specs.length > 0) {
    let k = nameEnd;
    while (text[k] === ' ' || text[k] === '\t') k++;
    if (text[k] === '(') open = k;
  }

  let raw: RawArg[] = [];
  let end = nameEnd;
  if (open !== -1) {
    const lexed = lexArgs(text, open + 1, def, specs);
    if (!lexed.ok) return fail(lexed.message);
    raw = lexed.args;
    end = lexed.end;
  }

  const required = specs.filter(([, spec]) => !spec.optional).length;
  if (raw.length < required || raw.length > specs.length) return fail(countMessage(def, specs, raw));

  const args: Record<string, string | number | boolean> = {};
  for (let i = 0; i < raw.length; i++) {
    const [pname, spec] = specs[i]!;
    const converted = convert(raw[i]!, spec, names);
    if (!converted.ok) {
      return fail(
        `${def.name}: ${paramLabel(specs, i)} expects ${describeExpected(spec)}, got ${show(raw[i]!.text)}${converted.why}. Example: ${exampleCall(def)}`,
      );
    }
    args[pname] = converted.value;
  }
  for (const [pname, spec] of specs.slice(raw.length)) if (spec.default !== undefined) args[pname] = spec.default;
  return { kind: 'command', command: def, args, before, source: text.slice(bang, end) };
}

/** `parameter 2 "num"`, or `parameter 3` when there is no such declared parameter. */
function paramLabel(specs: [string, ParamSpec][], i: number): string {
  const spec = specs[i];
  return spec ? `parameter ${i + 1} "${spec[0]}"` : `parameter ${i + 1}`;
}

function countMessage(def: CommandDef<unknown>, specs: [string, ParamSpec][], raw: RawArg[]): string {
  const usage = `Usage: ${signature(def)}. Example: ${exampleCall(def)}`;
  const required = specs.filter(([, spec]) => !spec.optional).length;
  const count = required === specs.length ? `${specs.length}` : `${required} to ${specs.length}`;
  const expected = `expects ${count} parameter${specs.length === 1 ? '' : 's'}, got ${raw.length}`;
  if (raw.length < required) {
    const i = raw.length;
    return `${def.name}: ${expected}; missing ${paramLabel(specs, i)} (${describeExpected(specs[i]![1])}). ${usage}`;
  }
  const extra = raw
    .slice(specs.length)
    .map((a) => show(a.text))
    .join(', ');
  return `${def.name}: ${expected}; parameter ${specs.length + 1} and after are extra (${extra}). ${usage}`;
}

/** Show a found value in an error: JSON-quoted, shortened. */
function show(s: string): string {
  const short = s.length > SHOW_MAX ? `${s.slice(0, SHOW_MAX)}...` : s;
  return JSON.stringify(short);
}

/**
 * Split the argument list starting right after `(` into raw arguments.
 * @returns the arguments and the index just past the closing `)`, or a syntax error message.
 */
function lexArgs(
  text: string,
  start: number,
  def: CommandDef<unknown>,
  specs: [string, ParamSpec][],
): { ok: true; args: RawArg[]; end: number } | Fail {
  const args: RawArg[] = [];
  const err = (msg: string): Fail => ({ ok: false, message: `${def.name}: ${msg}. Example: ${exampleCall(def)}` });
  let i = start;
  const skipSpace = (): void => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };

  skipSpace();
  if (text[i] === ')') return { ok: true, args, end: i + 1 };

  for (;;) {
    skipSpace();
    const index = args.length;
    const label = paramLabel(specs, index);
    if (i >= text.length) return err(`missing ")" to close the parameters`);
    const ch = text[i]!;
    const closers = QUOTES[ch];
    if (closers !== undefined) {
      const q = readQuoted(text, i + 1, closers);
      if (!q.ok) return err(`${label} has an unterminated string starting ${show(text.slice(i, i + 20))}; close it with a matching quote`);
      args.push({ text: q.value, quoted: true });
      i = q.end;
    } else if (ch === ',' || ch === ')') {
      return err(`${label} is empty`);
    } else {
      const u = readUnquoted(text, i);
      args.push({ text: u.value, quoted: false });
      i = u.end;
    }
    const afterArg = i;
    skipSpace();
    if (text[i] === ')') return { ok: true, args, end: i + 1 };
    if (text[i] === ',') {
      i++;
      skipSpace();
      if (text[i] === ')') return { ok: true, args, end: i + 1 }; // trailing comma
      continue;
    }
    if (i >= text.length || /[\r\n]/.test(text.slice(afterArg, i))) return err(`missing ")" after ${label}`);
    return err(`expected "," or ")" after ${label}, got ${show(text.slice(i, i + 20))}`);
  }
}

/**
 * Read a quoted string whose content starts at `i`. A closing quote only counts when followed by
 * optional spaces and `,`, `)`, a newline or the end; otherwise it is part of the text.
 */
function readQuoted(text: string, i: number, closers: string): { ok: true; value: string; end: number } | { ok: false } {
  let value = '';
  // Fallback if no quote is followed by `,`/`)`: the first closing quote, as a strict parser would.
  let first: { value: string; end: number } | undefined;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      const n = text[i + 1]!;
      value += n === 'n' ? '\n' : n === 't' ? '\t' : n === '\\' || QUOTES[n] !== undefined || closers.includes(n) ? n : `\\${n}`;
      i += 2;
      continue;
    }
    if (closers.includes(c)) {
      let k = i + 1;
      while (text[k] === ' ' || text[k] === '\t') k++;
      if (k >= text.length || text[k] === ',' || text[k] === ')' || text[k] === '\n' || text[k] === '\r') {
        return { ok: true, value, end: i + 1 };
      }
      first ??= { value, end: i + 1 };
    }
    value += c;
    i++;
  }
  return first ? { ok: true, ...first } : { ok: false };
}

/** Read unquoted text up to a top-level `,` or `)` or a newline; trimmed. */
function readUnquoted(text: string, i: number): { value: string; end: number } {
  const start = i;
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n' || c === '\r') break;
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) break;
      depth--;
    } else if (c === ',' && depth === 0) break;
  }
  return { value: text.slice(start, i).trim(), end: i };
}

type Converted = { ok: true; value: string | number | boolean } | { ok: false; why: string };

/** Convert one raw argument to its declared type; `why` is appended to "got ..." on failure. */
function convert(arg: RawArg, spec: ParamSpec, names: NameResolver): Converted {
  const t = arg.text.trim();
  switch (spec.type) {
    case 'int':
    case 'float': {
      if (!NUMBER.test(t)) return { ok: false, why: '' };
      const n = Number(t);
      if (!Number.isFinite(n)) return { ok: false, why: ' (too large)' };
      if (spec.type === 'int' && !Number.isInteger(n)) return { ok: false, why: ' (not a whole number)' };
      if (spec.domain && !(n >= spec.domain[0] && n < spec.domain[1])) {
        return { ok: false, why: ` (outside ${formatDomain(spec.domain)})` };
      }
      return { ok: true, value: n };
    }
    case 'boolean': {
      const b = t.toLowerCase();
      if (TRUE.has(b)) return { ok: true, value: true };
      if (FALSE.has(b)) return { ok: true, value: false };
      return { ok: false, why: '' };
    }
    case 'string':
      return { ok: true, value: arg.quoted ? arg.text : t };
    case 'ItemName':
    case 'BlockName': {
      const kind = spec.type === 'ItemName' ? 'item' : 'block';
      const r = kind === 'item' ? names.item(t) : names.block(t);
      if (r.ok) return { ok: true, value: r.name };
      const sugg = r.suggestions.length ? `; closest valid names: ${r.suggestions.map((s) => JSON.stringify(s)).join(', ')}` : '';
      return { ok: false, why: ` (no such ${kind}${sugg})` };
    }
  }
}
