/**
 * JSON out of what models really write: prose around it, ```json fences, trailing commas, single
 * quotes, comments, unquoted keys (all parsed by JSON5, a real parser, so an apostrophe inside a
 * double-quoted string stays as it is), and Python's `True`/`False`/`None` outside strings.
 *
 * Candidates, in order: the contents of each fenced block (an unclosed fence runs to the end), then
 * each balanced `{…}` or `[…]` span of the text (string-aware), first to last. The first candidate
 * that parses as the expected top-level kind wins; else the first that parses at all.
 */
import JSON5 from 'json5';

/** What {@link extractJson} found, or why nothing. */
export type Extracted = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * The JSON value in a model's answer.
 *
 * @param expect the top-level kind wanted: a list, an object, or either.
 * @example extractJson('Sure! ```json\n[{"id": 1,},]\n```', 'array') // { ok: true, value: [{ id: 1 }] }
 * @returns `{ ok: false, reason }` saying there was no JSON, or why the first candidate does not parse.
 */
export function extractJson(text: string, expect: 'array' | 'object' | 'any' = 'any'): Extracted {
  const candidates = [...fenced(text), ...spans(text)];
  if (candidates.length === 0) return { ok: false, reason: 'the answer has no JSON (no {…} object or […] list)' };
  let first: { value: unknown } | undefined;
  let firstError: string | undefined;
  for (const c of candidates) {
    const parsed = parse(c);
    if ('error' in parsed) {
      firstError ??= parsed.error;
      continue;
    }
    const kind = Array.isArray(parsed.value) ? 'array' : parsed.value !== null && typeof parsed.value === 'object' ? 'object' : 'scalar';
    if (kind === 'scalar') continue;
    if (expect === 'any' || kind === expect) return { ok: true, value: parsed.value };
    first ??= parsed;
  }
  if (first) return { ok: true, value: first.value };
  return { ok: false, reason: `the JSON does not parse: ${firstError ?? 'no object or list in it'}` };
}

function parse(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch {
    // not strict JSON: try the lenient reading
  }
  try {
    return { value: JSON5.parse(pythonLiterals(text)) };
  } catch (err) {
    const message = (err as Error).message.replace(/^JSON5: /, '');
    return { error: closing(text, 0) < 0 ? `${message} (the JSON is cut off: a bracket or brace is never closed)` : message };
  }
}

const FENCE = /```[a-zA-Z0-9]*[ \t]*\r?\n?([\s\S]*?)(```|$)/g;

function fenced(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(FENCE)) {
    const body = m[1]!.trim();
    if (body.startsWith('{') || body.startsWith('[')) out.push(body);
  }
  return out;
}

/** Candidates looked at per answer, at most (a long broken answer is not searched forever). */
const MAX_SPANS = 32;

/** Balanced `{…}`/`[…]` spans, outermost first, left to right; an unclosed one runs to the end. */
function spans(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length && out.length < MAX_SPANS) {
    const ch = text[i];
    if (ch !== '{' && ch !== '[') {
      i++;
      continue;
    }
    const close = closing(text, i);
    const end = close < 0 ? text.length : close;
    out.push(text.slice(i, end));
    // A span that parses is not searched inside; one that does not may hide a good one inside.
    i = 'value' in parse(text.slice(i, end)) ? end : i + 1;
  }
  return out;
}

/** Index just past the bracket closing the one at `start`, or -1 when none does (a cut-off answer). */
function closing(text: string, start: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** `True`, `False`, `None` outside strings → `true`, `false`, `null`. */
function pythonLiterals(text: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      out += ch;
      if (ch === '\\' && i + 1 < text.length) out += text[++i];
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      out += ch;
      continue;
    }
    const word = /^(True|False|None)\b/.exec(text.slice(i, i + 6));
    if (word && !/[A-Za-z0-9_$]/.test(text[i - 1] ?? '')) {
      out += word[1] === 'True' ? 'true' : word[1] === 'False' ? 'false' : 'null';
      i += word[1]!.length - 1;
      continue;
    }
    out += ch;
  }
  return out;
}
