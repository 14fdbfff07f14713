/**
 * SNBT, the text form of NBT used in commands (Minecraft wiki "NBT format" → "SNBT format"):
 * `{a:1,b:"x",c:[1b,2b],d:{e:1.5f}}`, typed arrays `[I;1,2]`, quoted and unquoted keys and
 * strings, `true`/`false`. Values are read into plain JS values: numbers lose their type suffix
 * (`200s`, `64b`, `1.5f` are all numbers) and booleans become 1/0, which is how vanilla stores
 * them too (as bytes).
 */
import { CommandError } from './command-arguments.ts';
import { translatable } from './text.ts';

/** A parsed SNBT value: a number (any numeric type), a string, a list or a compound. */
export type NbtValue = number | string | NbtValue[] | NbtCompound;
/** A parsed SNBT compound (`{key: value, …}`). */
export interface NbtCompound {
  [key: string]: NbtValue;
}

/** True when `value` is a compound (not a number, string or list). */
export function isCompound(value: NbtValue | undefined): value is NbtCompound {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const UNQUOTED = /[A-Za-z0-9_.+-]/;
const NUMBER = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)[bslfd]?$/i;

/**
 * Parses one SNBT value (usually a compound).
 *
 * @throws CommandError `argument.nbt.expected.value` on malformed input, `argument.nbt.trailing`
 *   when text follows the value.
 */
export function parseSnbt(text: string): NbtValue {
  let i = 0;
  const fail = (): never => {
    throw new CommandError(translatable('argument.nbt.expected.value'));
  };
  const skipSpace = (): void => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const quoted = (): string => {
    const quote = text[i++];
    let out = '';
    while (i < text.length && text[i] !== quote) {
      if (text[i] === '\\') i++;
      out += text[i++] ?? '';
    }
    if (text[i] !== quote) fail();
    i++;
    return out;
  };
  const unquoted = (): string => {
    const start = i;
    while (i < text.length && UNQUOTED.test(text[i]!)) i++;
    return text.slice(start, i);
  };
  const string = (): string => (text[i] === '"' || text[i] === "'" ? quoted() : unquoted());
  /** Reads `item (',' item)* closing` after the opening bracket. */
  const sequence = (closing: string, item: () => void): void => {
    skipSpace();
    if (text[i] === closing) {
      i++;
      return;
    }
    for (;;) {
      item();
      skipSpace();
      const next = text[i++];
      if (next === closing) return;
      if (next !== ',') fail();
    }
  };
  const value = (): NbtValue => {
    skipSpace();
    const first = text[i];
    if (first === '{') {
      i++;
      const compound: NbtCompound = {};
      sequence('}', () => {
        skipSpace();
        const key = string();
        if (!key) fail();
        skipSpace();
        if (text[i++] !== ':') fail();
        compound[key] = value();
      });
      return compound;
    }
    if (first === '[') {
      i++;
      if (/^[BIL];/.test(text.slice(i, i + 2))) i += 2;
      const list: NbtValue[] = [];
      sequence(']', () => {
        list.push(value());
      });
      return list;
    }
    if (first === '"' || first === "'") return quoted();
    const word = unquoted();
    if (!word) fail();
    if (word === 'true') return 1;
    if (word === 'false') return 0;
    const number = NUMBER.exec(word);
    return number ? Number(number[1]) : word;
  };
  const result = value();
  skipSpace();
  if (i !== text.length) throw new CommandError(translatable('argument.nbt.trailing'));
  return result;
}

/**
 * Renders a value as SNBT the way `/data get` shows it: `{key: value, …}`, `[a, b]`, strings in
 * double quotes. Numbers carry no type suffix (the parsed form keeps none).
 */
export function formatSnbt(value: NbtValue): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(formatSnbt).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([key, v]) => `${/^[A-Za-z0-9_.+-]+$/.test(key) ? key : JSON.stringify(key)}: ${formatSnbt(v)}`)
    .join(', ')}}`;
}

/**
 * Vanilla `CompoundTag.merge`: nested compounds merge key by key, any other value (lists
 * included) replaces the old one. Mutates `target`; `source` is copied, not shared.
 */
export function mergeCompound(target: NbtCompound, source: NbtCompound): NbtCompound {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (isCompound(existing) && isCompound(value)) mergeCompound(existing, value);
    else target[key] = structuredClone(value);
  }
  return target;
}

/**
 * Follows an NBT path as `/data get` takes it (a subset of vanilla's): keys separated by dots,
 * list indices in brackets (`Items[0].count`, negative indices count from the end).
 *
 * @returns the value there, or undefined when the path leads nowhere.
 * @throws CommandError `arguments.nbtpath.node.invalid` for a path it cannot read.
 */
export function nbtAtPath(root: NbtValue, path: string): NbtValue | undefined {
  const steps = /^(?:[^.[\]]+|\[-?\d+\])(?:\.[^.[\]]+|\[-?\d+\])*$/.test(path) ? path.match(/[^.[\]]+|\[-?\d+\]/g)! : undefined;
  if (!steps) throw new CommandError(translatable('arguments.nbtpath.node.invalid'));
  let current: NbtValue | undefined = root;
  for (const step of steps) {
    if (step.startsWith('[')) {
      if (!Array.isArray(current)) return undefined;
      const index = Number(step.slice(1, -1));
      current = current[index < 0 ? current.length + index : index];
    } else {
      current = isCompound(current) ? current[step] : undefined;
    }
    if (current === undefined) return undefined;
  }
  return current;
}
