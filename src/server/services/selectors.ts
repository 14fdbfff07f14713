/**
 * Entity arguments of commands: a player name or a target selector, resolved the way vanilla
 * 1.21 does (Minecraft wiki "Target selectors"), used by every command that takes targets.
 *
 * - `@a` every player; `@p` the nearest living player; `@r` a random living player; `@s` the
 *   caller; `@e` every living entity.
 * - Options `[key=value, …]`: `type` (`minecraft:` optional, `!` negates, several negations
 *   allowed), `name` (`!` negates), `limit`, `sort` (`nearest`, `furthest`, `random`,
 *   `arbitrary`), `distance` (`5`, `..5`, `2..`, `2..5`, blocks from the caller), `gamemode`
 *   (`survival`, `creative`, `adventure`, `spectator`, `!` negates), and `x`, `y`, `z` (the
 *   origin distances and sorting use).
 * Entities with a distance option or a distance sort must be in the caller's world. `arbitrary`
 * order is spawn order.
 */
import { Vec3 } from 'vec3';
import type { CommandContext, SquidEntity, SquidPlayer, SquidServer } from '../types.ts';
import { callerPosition, callerWorld, CommandError } from './command-arguments.ts';
import { translatable, type TextComponent } from './text.ts';

/** Restrictions on what {@link resolveTargets} may return. */
export interface ResolveOptions {
  /** Keep only players. */
  playersOnly?: boolean;
  /** At most one match allowed (vanilla `argument.entity.toomany` / `argument.player.toomany`). */
  single?: boolean;
}

/** True when an entity is a player. */
export function isPlayer(entity: SquidEntity): entity is SquidPlayer {
  return entity.type === 'player';
}

/** Whether an entity is alive: players and mobs with health above 0; items and other objects always. */
function isAlive(entity: SquidEntity): boolean {
  return (entity.health ?? 1) > 0;
}

/** The type name selectors match: `player` for players, else the minecraft-data entity name. */
function typeName(entity: SquidEntity): string | undefined {
  return isPlayer(entity) ? 'player' : entity.name;
}

/** The name vanilla shows for an entity in command feedback. */
export function displayName(entity: SquidEntity): string {
  return isPlayer(entity) ? String(entity.username) : String(entity.name ?? `entity ${entity.id}`);
}

type Sort = 'nearest' | 'furthest' | 'random' | 'arbitrary';

/** A parsed selector: which entities, then filters, order and count. */
interface Selector {
  kind: 'a' | 'p' | 'r' | 's' | 'e';
  filters: Array<(entity: SquidEntity) => boolean>;
  sort: Sort;
  limit: number;
  /** Distance options or sorting by distance restrict matches to the caller's world. */
  sameWorld: boolean;
  origin: Vec3;
}

const GAME_MODES: Record<string, number> = { survival: 0, creative: 1, adventure: 2, spectator: 3 };

/** Splits `a=1,b="x,y"` at top-level commas. */
function splitOptions(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      current += ch;
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
      continue;
    }
    if (ch === ',') {
      out.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  out.push(current);
  return out.map((o) => o.trim()).filter((o) => o.length > 0);
}

function unquote(value: string): string {
  return /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
}

/** A negatable option value: `!cow` → { negated: true, value: 'cow' }. */
function negatable(value: string): { negated: boolean; value: string } {
  return value.startsWith('!') ? { negated: true, value: unquote(value.slice(1).trim()) } : { negated: false, value: unquote(value) };
}

/** A vanilla range `5`, `..5`, `2..`, `2..5` of non-negative numbers. */
function parseRange(value: string): { min: number; max: number } {
  const number = (text: string, missing: number): number => {
    if (text === '') return missing;
    if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text)) throw new CommandError(translatable('argument.range.empty'));
    return Number(text);
  };
  const parts = value.split('..');
  if (parts.length > 2 || value === '' || value === '..') throw new CommandError(translatable('argument.range.empty'));
  const min = number(parts[0]!, 0);
  const max = parts.length === 2 ? number(parts[1]!, Infinity) : min;
  if (min < 0 || max < 0) throw new CommandError(translatable('argument.entity.options.distance.negative'));
  if (min > max) throw new CommandError(translatable('argument.range.swapped'));
  return { min, max };
}

/**
 * Parses a selector (`@e[type=cow,limit=1,sort=nearest]`).
 *
 * @throws CommandError for an unknown selector type, an unknown option or a bad value.
 */
function parseSelector(serv: SquidServer, text: string, ctx: CommandContext): Selector {
  const match = /^@([a-z]?)(?:\[(.*)\])?$/s.exec(text);
  if (!match || !match[1]) throw new CommandError(translatable(match ? 'argument.entity.selector.missing' : 'argument.entity.invalid'));
  const kind = match[1];
  if (!['a', 'p', 'r', 's', 'e'].includes(kind)) throw new CommandError(translatable('argument.entity.selector.unknown', [`@${kind}`]));
  const selector: Selector = {
    kind: kind as Selector['kind'],
    filters: [],
    sort: kind === 'p' ? 'nearest' : kind === 'r' ? 'random' : 'arbitrary',
    limit: kind === 'p' || kind === 'r' || kind === 's' ? 1 : Infinity,
    sameWorld: kind === 'p',
    origin: callerPosition(ctx),
  };
  if (kind === 'p' || kind === 'r' || kind === 'e') selector.filters.push(isAlive);
  for (const option of splitOptions(match[2] ?? '')) {
    const eq = option.indexOf('=');
    if (eq < 0) throw new CommandError(translatable('argument.entity.options.valueless', [option]));
    const key = option.slice(0, eq).trim();
    const value = option.slice(eq + 1).trim();
    applyOption(serv, selector, key, value);
  }
  return selector;
}

function applyOption(serv: SquidServer, selector: Selector, key: string, value: string): void {
  switch (key) {
    case 'type': {
      const { negated, value: type } = negatable(value);
      const name = type.replace(/^minecraft:/, '');
      if (!serv.registry.entitiesByName[name]) throw new CommandError(translatable('argument.entity.options.type.invalid', [type]));
      selector.filters.push((entity) => (typeName(entity) === name) !== negated);
      return;
    }
    case 'name': {
      const { negated, value: name } = negatable(value);
      const nameOf = (entity: SquidEntity): string | undefined =>
        isPlayer(entity) ? entity.username : serv.registry.entitiesByName[entity.name ?? '']?.displayName;
      selector.filters.push((entity) => (nameOf(entity) === name) !== negated);
      return;
    }
    case 'limit': {
      if (!/^-?\d+$/.test(value)) throw new CommandError(translatable('parsing.int.invalid', [value]));
      const limit = Number(value);
      if (limit < 1) throw new CommandError(translatable('argument.entity.options.limit.toosmall'));
      selector.limit = limit;
      return;
    }
    case 'sort': {
      if (!['nearest', 'furthest', 'random', 'arbitrary'].includes(value))
        throw new CommandError(translatable('argument.entity.options.sort.irreversible', [value]));
      selector.sort = value as Sort;
      if (value === 'nearest' || value === 'furthest') selector.sameWorld = true;
      return;
    }
    case 'distance': {
      const { min, max } = parseRange(value);
      selector.sameWorld = true;
      selector.filters.push((entity) => {
        const d = entity.position.distanceTo(selector.origin);
        return d >= min && d <= max;
      });
      return;
    }
    case 'gamemode': {
      const { negated, value: mode } = negatable(value);
      const id = GAME_MODES[mode];
      if (id === undefined) throw new CommandError(translatable('argument.entity.options.mode.invalid', [mode]));
      selector.filters.push((entity) => isPlayer(entity) && (entity.gameMode === id) !== negated);
      return;
    }
    case 'x':
    case 'y':
    case 'z': {
      const n = Number(value);
      if (value === '' || !Number.isFinite(n)) throw new CommandError(translatable('parsing.double.invalid', [value]));
      selector.origin[key] = n;
      return;
    }
    default:
      throw new CommandError(translatable('argument.entity.options.unknown', [key]));
  }
}

/** Shuffles a copy of `items` (Fisher–Yates). */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The entities a parsed selector picks, in its order, at most its limit. */
function select(serv: SquidServer, selector: Selector, ctx: CommandContext): SquidEntity[] {
  let candidates: SquidEntity[];
  if (selector.kind === 's') candidates = ctx.player ? [ctx.player] : ctx.entity ? [ctx.entity] : [];
  else if (selector.kind === 'e') candidates = Object.values(serv.entities);
  else candidates = [...serv.players];
  const world = callerWorld(serv, ctx);
  let found = candidates.filter((entity) => (!selector.sameWorld || entity.world === world) && selector.filters.every((f) => f(entity)));
  const distance = (entity: SquidEntity): number => entity.position.distanceTo(selector.origin);
  if (selector.sort === 'nearest') found.sort((a, b) => distance(a) - distance(b));
  else if (selector.sort === 'furthest') found.sort((a, b) => distance(b) - distance(a));
  else if (selector.sort === 'random') found = shuffled(found);
  return found.slice(0, selector.limit);
}

/**
 * Resolves a player name or selector relative to the caller.
 *
 * @returns the matching entities, never empty.
 * @throws CommandError "No player was found" / "No entity was found" when nothing matches, a
 *   selector error for a malformed selector, or "Only one … is allowed" when `single` is set and
 *   several match.
 */
export function resolveTargets(serv: SquidServer, selector: string, ctx: CommandContext, options: ResolveOptions = {}): SquidEntity[] {
  let found: SquidEntity[];
  if (selector.startsWith('@')) {
    found = select(serv, parseSelector(serv, selector, ctx), ctx);
  } else {
    const player = serv.getPlayer(selector);
    found = player ? [player] : [];
  }
  if (options.playersOnly) found = found.filter(isPlayer);
  if (found.length === 0)
    throw new CommandError(translatable(options.playersOnly ? 'argument.entity.notfound.player' : 'argument.entity.notfound.entity'));
  if (options.single && found.length > 1) {
    throw new CommandError(translatable(options.playersOnly ? 'argument.player.toomany' : 'argument.entity.toomany'));
  }
  return found;
}

/** Resolves to players only (see {@link resolveTargets}). */
export function resolvePlayers(
  serv: SquidServer,
  selector: string,
  ctx: CommandContext,
  options: Omit<ResolveOptions, 'playersOnly'> = {},
): SquidPlayer[] {
  return resolveTargets(serv, selector, ctx, { ...options, playersOnly: true }).filter(isPlayer);
}

/**
 * Resolves the server-side parts of a component for one viewer (vanilla
 * `ComponentUtils.updateForEntity`): `selector` parts become the names they match, joined with
 * ", " (nothing when none match); `with` and `extra` are resolved recursively.
 */
export function resolveComponent(serv: SquidServer, component: TextComponent, ctx: CommandContext): TextComponent {
  const resolvePart = (part: TextComponent | string | number): TextComponent | string | number =>
    typeof part === 'object' ? resolveComponent(serv, part, ctx) : part;
  let out: TextComponent = { ...component };
  if (typeof component.selector === 'string') {
    const { selector, separator: _separator, ...style } = component;
    let names: string[] = [];
    try {
      names = resolveTargets(serv, selector, ctx).map(displayName);
    } catch {
      names = [];
    }
    out = { ...style, text: names.join(', ') };
  }
  if (out.with) out.with = out.with.map(resolvePart);
  if (out.extra) out.extra = out.extra.map(resolvePart);
  return out;
}
