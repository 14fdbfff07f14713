/**
 * Comparing a construction blueprint with the world. Pure functions over a block lookup, used
 * by the blueprint queries (`!checkBlueprint`, ...) and by the construction task's validator.
 *
 * A level's `placement[r][c]` is the block at `(x + c, y, z + r)` where `[x, y, z]` are the
 * level's `coordinates`. A cell is a block name (MineCollab's blueprints) or a block state as
 * vanilla's commands write it (`oak_stairs[facing=west,half=bottom]`, VillagerBench's oriented
 * blocks): a state cell matches a block of that name whose properties, where the lookup gives
 * them, have the values written (a lookup that gives names only compares names).
 */
import type { Blueprint, BlueprintLevel } from './schema.ts';

/** The block name at a position, or undefined when it is not known (e.g. an unloaded chunk). */
export type BlockLookup = (x: number, y: number, z: number) => string | null | undefined;

/** One cell of a level that does not match the world. */
export interface CellDiff {
  x: number;
  y: number;
  z: number;
  /** What the blueprint wants there ('air' for nothing). */
  expected: string;
  /** What is there ('air' for nothing; undefined when unknown). */
  actual: string | undefined;
}

/** The result of comparing one level (or a whole blueprint). */
export interface BlueprintCheck {
  /** Cells where world and blueprint agree, not counting cells where both are air. */
  matching: number;
  /** Cells where they differ (unknown cells are not counted, they are listed in `unknown`). */
  mismatches: CellDiff[];
  /** Cells whose block could not be read. */
  unknown: CellDiff[];
}

const AIR = new Set(['air', 'cave_air', 'void_air', '']);

/** A blueprint or world block name without the `minecraft:` prefix and block states; air-likes become 'air'. */
export function normalizeBlockName(name: string | null | undefined): string {
  const n = (name ?? '')
    .trim()
    .toLowerCase()
    .replace(/^minecraft:/, '')
    .replace(/\[.*$/, '');
  return AIR.has(n) ? 'air' : n;
}

/**
 * A blueprint cell or world block as a state: {@link normalizeBlockName}'s name with its
 * `[property=value,...]` kept as written (spaces dropped); air-likes become 'air'.
 *
 * @example normalizeBlockState('minecraft:Oak_Stairs[facing=west, half=bottom]') // 'oak_stairs[facing=west,half=bottom]'
 */
export function normalizeBlockState(text: string | null | undefined): string {
  const name = normalizeBlockName(text);
  const props = /\[([^\]]*)\]\s*$/
    .exec(text ?? '')?.[1]
    ?.replace(/\s+/g, '')
    .toLowerCase();
  return name !== 'air' && props ? `${name}[${props}]` : name;
}

/** The properties written in a state (`{facing: 'west'}` of `oak_stairs[facing=west]`); empty for a bare name. */
export function stateProperties(state: string): Record<string, string> {
  const props = /\[([^\]]*)\]\s*$/.exec(state)?.[1] ?? '';
  const out: Record<string, string> = {};
  for (const pair of props.split(',')) {
    const [key, value] = pair.split('=').map((p) => p.trim());
    if (key && value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * Whether the world's block (`actual`, a name or a state) is the cell's `wanted` one: the same
 * name, and each property `wanted` writes with the same value where `actual` gives that property.
 */
export function cellMatches(wanted: string, actual: string): boolean {
  if (normalizeBlockName(wanted) !== normalizeBlockName(actual)) return false;
  const have = stateProperties(actual);
  return Object.entries(stateProperties(wanted)).every(([key, value]) => have[key] === undefined || have[key] === value);
}

/** The level whose `level` number is `levelNum`, if any. */
export function findLevel(blueprint: Blueprint, levelNum: number): BlueprintLevel | undefined {
  return blueprint.levels.find((l) => l.level === levelNum);
}

/** One cell of a level: its position, the wanted block's name and, for a state cell, the wanted state. */
export interface LevelCell {
  x: number;
  y: number;
  z: number;
  block: string;
  /** The wanted state ({@link normalizeBlockState}), only for a cell written with properties. */
  state?: string;
}

/** Every cell of a level (see {@link LevelCell}), row by row. */
export function levelCells(level: BlueprintLevel): LevelCell[] {
  const [x0, y, z0] = level.coordinates;
  const cells: LevelCell[] = [];
  level.placement.forEach((row, r) =>
    row.forEach((text, c) => {
      const block = normalizeBlockName(text);
      const state = normalizeBlockState(text);
      cells.push(state === block ? { x: x0 + c, y, z: z0 + r, block } : { x: x0 + c, y, z: z0 + r, block, state });
    }),
  );
  return cells;
}

/**
 * Compares one level with the world as `lookup` sees it. A names-only cell compares names and
 * shows the world's block by name; a state cell compares states ({@link cellMatches}) and shows
 * both as states.
 */
export function checkLevel(level: BlueprintLevel, lookup: BlockLookup): BlueprintCheck {
  const result: BlueprintCheck = { matching: 0, mismatches: [], unknown: [] };
  for (const cell of levelCells(level)) {
    const raw = lookup(cell.x, cell.y, cell.z);
    const diff: CellDiff = { x: cell.x, y: cell.y, z: cell.z, expected: cell.state ?? cell.block, actual: undefined };
    if (raw === undefined || raw === null) {
      result.unknown.push(diff);
      continue;
    }
    const actual = cell.state ? normalizeBlockState(raw) : normalizeBlockName(raw);
    if (cell.state ? cellMatches(cell.state, actual) : actual === cell.block) {
      if (actual !== 'air') result.matching++;
    } else {
      result.mismatches.push({ ...diff, actual });
    }
  }
  return result;
}

/** Compares every level of a blueprint with the world; the counts and lists are summed. */
export function checkBlueprint(blueprint: Blueprint, lookup: BlockLookup): BlueprintCheck {
  const total: BlueprintCheck = { matching: 0, mismatches: [], unknown: [] };
  for (const level of blueprint.levels) {
    const c = checkLevel(level, lookup);
    total.matching += c.matching;
    total.mismatches.push(...c.mismatches);
    total.unknown.push(...c.unknown);
  }
  return total;
}

/**
 * The construction score: 100 × matching / (matching + mismatching), in [0, 100]. Cells where
 * both blueprint and world are air are skipped; with no cell left to count the score is 100
 * (nothing to build and nothing in the way).
 */
export function constructionScore(check: BlueprintCheck): number {
  const counted = check.matching + check.mismatches.length;
  return counted === 0 ? 100 : (100 * check.matching) / counted;
}

/** The score of a whole blueprint against the world ({@link constructionScore} of {@link checkBlueprint}). */
export function blueprintScore(blueprint: Blueprint, lookup: BlockLookup): number {
  return constructionScore(checkBlueprint(blueprint, lookup));
}

/**
 * One cell of a construction level that does not match the world, and what to do about it: the
 * data of one line of a blueprint check (re-exported as an outcome's facet by
 * `src/skills/outcome.ts`).
 */
export interface CellChange {
  /**
   * `place` into air, `remove` a block that should not be there, `replace` one block with another;
   * `unseen`: the cell's block is not known (its chunk is not loaded), `block` is what it should be.
   */
  action: 'place' | 'remove' | 'replace' | 'unseen';
  /** The cell, whole blocks. */
  position: { x: number; y: number; z: number };
  /** The block the blueprint wants (`place`, `replace`, `unseen`). */
  block?: string;
  /** The block there now (`remove`, `replace`). */
  current?: string;
}

/** The result of a blueprint check (`!checkBlueprintLevel`, `!checkBlueprint`): the data its text is written from. */
export interface BlueprintCheckData {
  /** The level checked; absent for the whole blueprint. */
  level?: number;
  /** Every cell matches (the whole blueprint: every level does). */
  complete: boolean;
  /** The cells still to change, in the order the text lists them (the whole blueprint: level by level). */
  changes: CellChange[];
  /** The whole blueprint only: each level's check, in the blueprint's order. */
  levels?: BlueprintCheckData[];
  /** The whole blueprint only: the construction score, in [0, 100] ({@link constructionScore}). */
  score?: number;
}

function at(d: { x: number; y: number; z: number }): string {
  return `(${d.x}, ${d.y}, ${d.z})`;
}

/** What to do about one differing cell (see {@link CellChange}). */
export function cellChange(d: CellDiff): CellChange {
  const position = { x: d.x, y: d.y, z: d.z };
  if (d.actual === undefined) return { action: 'unseen', position, block: d.expected };
  if (d.actual === 'air') return { action: 'place', position, block: d.expected };
  if (d.expected === 'air') return { action: 'remove', position, current: d.actual };
  return { action: 'replace', position, block: d.expected, current: d.actual };
}

/**
 * One change as a line: `Place X at (x, y, z)`, `Remove the Y at (x, y, z)`,
 * `Replace the Y at (x, y, z) with X`, or `Cannot see (x, y, z) (should be X)` for an unseen cell.
 */
export function changeLine(c: CellChange): string {
  const p = at(c.position);
  switch (c.action) {
    case 'unseen':
      return `Cannot see ${p} (should be ${c.block})`;
    case 'place':
      return `Place ${c.block} at ${p}`;
    case 'remove':
      return `Remove the ${c.current} at ${p}`;
    case 'replace':
      return `Replace the ${c.current} at ${p} with ${c.block}`;
  }
}

/** {@link changeLine} of {@link cellChange}: what to do about one mismatching or unknown cell. */
export function diffLine(d: CellDiff): string {
  return changeLine(cellChange(d));
}

/** The diff lines of a check: mismatches first, then unknown cells. */
export function diffLines(check: BlueprintCheck): string[] {
  return [...check.mismatches, ...check.unknown].map(diffLine);
}

/** The data of one level's check: its changes in the order {@link diffLines} lists them. */
export function levelCheckData(levelNum: number, check: BlueprintCheck): BlueprintCheckData {
  const changes = [...check.mismatches, ...check.unknown].map(cellChange);
  return { level: levelNum, complete: changes.length === 0, changes };
}

/** A level check as text, from its data: `Level 0 is complete.` or `Level 0 needs 2 changes:` followed by one line per change. */
export function formatLevelCheckData(data: BlueprintCheckData): string {
  const lines = data.changes.map(changeLine);
  if (lines.length === 0) return `Level ${data.level} is complete.`;
  return [`Level ${data.level} needs ${lines.length} change${lines.length === 1 ? '' : 's'}:`, ...lines].join('\n');
}

/** `Level 0 is complete.` or `Level 0 needs 2 changes:` followed by the diff lines. */
export function formatLevelCheck(levelNum: number, check: BlueprintCheck): string {
  return formatLevelCheckData(levelCheckData(levelNum, check));
}

/** The data of a whole blueprint's check: every level's, their changes in order, and the score. */
export function blueprintCheckData(blueprint: Blueprint, lookup: BlockLookup): BlueprintCheckData {
  const levels = blueprint.levels.map((l) => levelCheckData(l.level, checkLevel(l, lookup)));
  return {
    complete: levels.every((l) => l.complete),
    changes: levels.flatMap((l) => l.changes),
    levels,
    score: blueprintScore(blueprint, lookup),
  };
}

/** A whole blueprint's check as text, from its data: every level's {@link formatLevelCheckData}, then the construction score. */
export function formatBlueprintCheckData(data: BlueprintCheckData): string {
  const parts = (data.levels ?? []).map(formatLevelCheckData);
  parts.push(data.complete ? 'The blueprint is complete.' : `Construction score: ${Math.round((data.score ?? 0) * 10) / 10}%.`);
  return parts.join('\n');
}

/** Every level's {@link formatLevelCheck}, then the construction score. */
export function formatBlueprintCheck(blueprint: Blueprint, lookup: BlockLookup): string {
  return formatBlueprintCheckData(blueprintCheckData(blueprint, lookup));
}

/** One level as text: its origin, the mapping of cells to positions, and its rows. */
export function formatLevel(level: BlueprintLevel): string {
  const [x, y, z] = level.coordinates;
  const rows = level.placement.map((row, r) => `  row ${r} (z=${z + r}): ${row.map(normalizeBlockState).join(', ')}`);
  return [`Level ${level.level} at y=${y}, starting at (${x}, ${y}, ${z}); column c of a row is x=${x}+c:`, ...rows].join('\n');
}

/** The whole blueprint as text: the materials, then every level. */
export function formatBlueprint(blueprint: Blueprint): string {
  const materials = Object.entries(blueprint.materials ?? {})
    .map(([n, c]) => `${c} ${n}`)
    .join(', ');
  return [`Materials: ${materials || 'not listed'}`, ...blueprint.levels.map(formatLevel)].join('\n');
}
