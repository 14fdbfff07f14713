/**
 * VillagerBench's view hit rate (VHR): a construction seen from five sides compared with its
 * blueprint seen from the same sides. VillagerAgent (Dong et al. 2024, §4.1 eq. 3) and CausalMACE
 * (Appendix C.1) define it as the mean over the views of the intersection over union of the
 * expected view and the built one.
 *
 * A view is a grid of rays through the blueprint's bounding box; each ray keeps the first block
 * that is not air (nor water or lava) as seen from that side. Per view: intersection = rays whose
 * two pixels are the same block name; union = rays where either pixel is a block; IoU =
 * intersection / union (1 when both views are empty). The five views:
 * - `front`: from the south (+z) looking north; columns x west to east, rows y top down;
 * - `back`: from the north looking south; columns x east to west;
 * - `left`: from the west looking east; columns z north to south;
 * - `right`: from the east looking west; columns z south to north;
 * - `top`: from above looking down; columns x, rows z north to south.
 * Pixels compare names, not orientations (completion checks those).
 */

/** An inclusive box of block positions. */
export interface Box {
  min: { x: number; y: number; z: number };
  max: { x: number; y: number; z: number };
}

/** The five views, in the order they are reported. */
export const VIEW_NAMES = ['front', 'back', 'left', 'right', 'top'] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

/** The pixel at a position: a block name, or undefined where a ray passes through (air, water, lava). */
export type PixelAt = (x: number, y: number, z: number) => string | undefined;

/** Blocks a ray passes through. */
const SEE_THROUGH = new Set(['air', 'cave_air', 'void_air', 'water', 'lava']);

/** A block name as a pixel: undefined for what rays pass through. */
export function pixelOf(name: string | undefined): string | undefined {
  return name === undefined || SEE_THROUGH.has(name) ? undefined : name;
}

interface Rays {
  rows: number;
  cols: number;
  start(r: number, c: number): [number, number, number];
  step: [number, number, number];
  depth: number;
}

function raysOf(view: ViewName, { min, max }: Box): Rays {
  const sx = max.x - min.x + 1;
  const sy = max.y - min.y + 1;
  const sz = max.z - min.z + 1;
  switch (view) {
    case 'front':
      return { rows: sy, cols: sx, start: (r, c) => [min.x + c, max.y - r, max.z], step: [0, 0, -1], depth: sz };
    case 'back':
      return { rows: sy, cols: sx, start: (r, c) => [max.x - c, max.y - r, min.z], step: [0, 0, 1], depth: sz };
    case 'left':
      return { rows: sy, cols: sz, start: (r, c) => [min.x, max.y - r, min.z + c], step: [1, 0, 0], depth: sx };
    case 'right':
      return { rows: sy, cols: sz, start: (r, c) => [max.x, max.y - r, max.z - c], step: [-1, 0, 0], depth: sx };
    case 'top':
      return { rows: sz, cols: sx, start: (r, c) => [min.x + c, max.y, min.z + r], step: [0, -1, 0], depth: sy };
  }
}

/** One view's pixels, `rows[r][c]`: a block name, or '' where the ray meets nothing. */
export function viewOf(view: ViewName, box: Box, at: PixelAt): string[][] {
  const rays = raysOf(view, box);
  const rows: string[][] = [];
  for (let r = 0; r < rays.rows; r++) {
    const row: string[] = [];
    for (let c = 0; c < rays.cols; c++) {
      let [x, y, z] = rays.start(r, c);
      let seen = '';
      for (let d = 0; d < rays.depth && !seen; d++) {
        seen = at(x, y, z) ?? '';
        x += rays.step[0];
        y += rays.step[1];
        z += rays.step[2];
      }
      row.push(seen);
    }
    rows.push(row);
  }
  return rows;
}

/** Intersection over union of two views of the same size; 1 when neither shows anything. */
export function viewIou(expected: readonly (readonly string[])[], built: readonly (readonly string[])[]): number {
  let inter = 0;
  let union = 0;
  expected.forEach((row, r) =>
    row.forEach((e, c) => {
      const b = built[r]?.[c] ?? '';
      if (e || b) union++;
      if (e && e === b) inter++;
    }),
  );
  return union === 0 ? 1 : inter / union;
}

/** One view of both sides and their IoU. */
export interface ViewComparison {
  name: ViewName;
  expected: string[][];
  built: string[][];
  iou: number;
}

/** The five views of the blueprint (`expected`) and of the world (`built`) in `box`, and their mean IoU: the VHR, in [0, 1]. */
export function compareViews(box: Box, expected: PixelAt, built: PixelAt): { views: ViewComparison[]; vhr: number } {
  const views = VIEW_NAMES.map((name) => {
    const e = viewOf(name, box, expected);
    const b = viewOf(name, box, built);
    return { name, expected: e, built: b, iou: viewIou(e, b) };
  });
  return { views, vhr: views.reduce((s, v) => s + v.iou, 0) / views.length };
}

/**
 * Views packed small for a result line: a legend of block names, and each view's rows as text,
 * one character a pixel: `.` for nothing, else the legend index in {@link PALETTE} (blocks past
 * its 62 characters share the last).
 */
export interface PackedViews {
  legend: string[];
  views: { name: ViewName; iou: number; expected: string[]; built: string[] }[];
}

/** The characters of packed pixels, by legend index. */
export const PALETTE = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Packs compared views (see {@link PackedViews}); IoUs rounded to 4 places. */
export function packViews(views: readonly ViewComparison[]): PackedViews {
  const legend: string[] = [];
  const char = (name: string): string => {
    if (!name) return '.';
    let i = legend.indexOf(name);
    if (i < 0) i = legend.push(name) - 1;
    return PALETTE[Math.min(i, PALETTE.length - 1)]!;
  };
  const pack = (rows: string[][]) => rows.map((row) => row.map(char).join(''));
  return {
    legend,
    views: views.map((v) => ({ name: v.name, iou: Math.round(v.iou * 1e4) / 1e4, expected: pack(v.expected), built: pack(v.built) })),
  };
}
