/**
 * The survival world's chunk generator, pure and version-independent: {@link SurvivalGenerator.generate}
 * turns a seed and a chunk position into the chunk's block codes (./blocks.ts) and biome cells,
 * the same on every machine and in any order. ./chunk.ts makes a prismarine-chunk column of them.
 *
 * Layers, bottom up (vanilla 1.18+ overworld, `NoiseGeneratorSettings.overworld` surface rules):
 * bedrock at y −64 and, thinning out, up to −60 (vanilla's `bedrock_floor` gradient: at y the
 * chance is (−59 − y) / 5); deepslate below y 0 and, thinning out, up to 7 (the `deepslate`
 * gradient from 0 to 8); stone above; then the surface of ./surface.ts: grass_block over 3–4 dirt,
 * sand over sandstone on shores and in deserts, bare stone on steep slopes, and gravel, sand or
 * clay on lake and river beds under water up to y 62. Then caves (./caves.ts), ores (./ores.ts),
 * trees (./trees.ts) and plants (./plants.ts).
 */
import {
  AIR,
  BEDROCK,
  CLAY,
  DEEPSLATE,
  DIRT,
  GRASS_BLOCK,
  GRAVEL,
  LEAVES,
  LOGS,
  PUMPKIN,
  SAND,
  SANDSTONE,
  SPECIES,
  STONE,
  WATER,
  type Species,
} from './blocks.ts';
import { Caves } from './caves.ts';
import { placeOres } from './ores.ts';
import { growsOnSand, plantAt, sugarCaneAt, type Plant } from './plants.ts';
import { chunkRandom, hashAt, nextInt, SALT, unitAt } from './random.ts';
import { AREA, MARGIN, SURFACE, Surfaces } from './surface.ts';
import { Terrain, MIN_Y, WATER_TOP, WORLD_HEIGHT } from './terrain.ts';
import { growTree, treesOfChunk, type TreeSpot } from './trees.ts';

/** One generated chunk column. */
export interface GeneratedChunk {
  chunkX: number;
  chunkZ: number;
  /** Block codes, indexed `((y − MIN_Y) << 8) | (z << 4) | x` (x, z chunk-local). */
  blocks: Uint8Array;
  /** Biome code of each 4×4 column cell (the same at every height), indexed `(z >> 2) * 4 + (x >> 2)`. */
  cells: Uint8Array;
  /** y of the top ground block of each column (before trees and plants), indexed `z * 16 + x`. */
  heights: Int16Array;
  /** No block above this y is anything but air. */
  top: number;
}

/** Index of block (x, y, z) of a chunk (chunk-local x, z). */
export function blockIndex(x: number, y: number, z: number): number {
  return ((y - MIN_Y) << 8) | (z << 4) | x;
}

/** Pumpkin patches: one chunk in this many has one. */
const PUMPKIN_RARITY = 24;
/** How far beyond the chunk trees are drawn for their leaves' distances (leaves reach 7). */
const TREE_MARGIN = 10;
/** The widest tree's leaves reach this far from its trunk (spruce radius 3). */
const TREE_REACH = 3;

/** The survival generator of one seed (noise tables built once; a bounded cache of chunk surfaces). */
export class SurvivalGenerator {
  readonly seed: number;
  readonly terrain: Terrain;
  readonly surfaces: Surfaces;
  readonly #caves: Caves;
  // Scratch space of the tree drawing, kept between chunks.
  #cells = new Uint8Array(0);
  #distance = new Uint8Array(0);
  #queue = new Int32Array(0);

  constructor(seed: number) {
    this.seed = seed;
    this.terrain = new Terrain(seed);
    this.surfaces = new Surfaces(this.terrain);
    this.#caves = new Caves(seed);
  }

  /** Generates chunk (chunkX, chunkZ). */
  generate(chunkX: number, chunkZ: number): GeneratedChunk {
    const seed = this.seed;
    const s = this.surfaces.of(chunkX, chunkZ);
    const x0 = chunkX * 16;
    const z0 = chunkZ * 16;
    const blocks = new Uint8Array(WORLD_HEIGHT * 256);
    const tops = new Int16Array(256);
    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) {
        const i = z * 16 + x;
        const h = s.height[i]!;
        const kind = s.kind[i]!;
        this.#fillColumn(blocks, x, z, x0 + x, z0 + z, h, kind);
        tops[i] = s.entrance[i] ? h : kind === SURFACE.bed ? h - 4 : h - 3;
      }
    }
    this.#caves.carve(blocks, x0, z0, tops);
    placeOres(seed, blocks, chunkX, chunkZ);
    const treeTop = this.#placeTrees(blocks, chunkX, chunkZ);
    this.#placePlants(blocks, chunkX, chunkZ);
    let top = Math.max(WATER_TOP, treeTop);
    for (let i = 0; i < 256; i++) top = Math.max(top, s.height[i]! + 4); // the tallest plant: sugar cane 4
    return { chunkX, chunkZ, blocks, cells: s.cells.slice(), heights: s.height.slice(), top: Math.min(top, MIN_Y + WORLD_HEIGHT - 1) };
  }

  /** Stone, deepslate and bedrock, the surface layers, and water up to the sea surface. */
  #fillColumn(blocks: Uint8Array, x: number, z: number, wx: number, wz: number, h: number, kind: number): void {
    const seed = this.seed;
    const col = (z << 4) | x;
    blocks[col] = BEDROCK;
    for (let y = MIN_Y + 1; y <= h; y++) {
      let code = STONE;
      if (y < 8) {
        code = y < 0 || unitAt(seed, SALT.deepslate, wx, wz, y) < (8 - y) / 8 ? DEEPSLATE : STONE;
        if (y <= -60 && unitAt(seed, SALT.bedrock, wx, wz, y) < (-59 - y) / 5) code = BEDROCK;
      }
      blocks[((y - MIN_Y) << 8) | col] = code;
    }
    const soil = 3 + (hashAt(seed, SALT.soil, wx, wz) & 1);
    const layer = (from: number, depth: number, code: number): number => {
      for (let y = from; y > from - depth && y > MIN_Y + 5; y--) blocks[((y - MIN_Y) << 8) | col] = code;
      return from - depth;
    };
    if (kind === SURFACE.grass) {
      layer(layer(h, 1, GRASS_BLOCK), soil, DIRT);
    } else if (kind === SURFACE.shore) {
      layer(layer(h, soil, SAND), 2, SANDSTONE);
    } else if (kind === SURFACE.desert) {
      layer(layer(h, soil + 1, SAND), 3, SANDSTONE);
    } else if (kind === SURFACE.bed) {
      // vanilla's disk_sand / disk_clay / disk_gravel on lake and river beds, drawn per 4×4 patch.
      const u = unitAt(seed, SALT.disk, wx >> 2, wz >> 2);
      const floor = h >= WATER_TOP - 1 ? SAND : u < 0.25 ? CLAY : u < 0.55 ? SAND : GRAVEL;
      layer(h, 2, floor);
      for (let y = h + 1; y <= WATER_TOP; y++) blocks[((y - MIN_Y) << 8) | col] = WATER;
    }
  }

  /**
   * Draws the trees of this chunk and its neighbours that reach it, with their leaves' distances.
   *
   * @returns the highest y a tree may have reached (MIN_Y when none did).
   */
  #placeTrees(blocks: Uint8Array, chunkX: number, chunkZ: number): number {
    const x0 = chunkX * 16;
    const z0 = chunkZ * 16;
    const reach = TREE_MARGIN + TREE_REACH;
    const spots: TreeSpot[] = [];
    for (let dz = -1; dz <= 1; dz++) {
      for (let dx = -1; dx <= 1; dx++) {
        for (const spot of treesOfChunk(this.surfaces, chunkX + dx, chunkZ + dz)) {
          if (spot.x >= x0 - reach && spot.x < x0 + 16 + reach && spot.z >= z0 - reach && spot.z < z0 + 16 + reach) spots.push(spot);
        }
      }
    }
    if (spots.length === 0) return MIN_Y;
    // A canonical order, so overlapping leaves come out the same whoever draws them.
    spots.sort((a, b) => b.priority - a.priority || a.x - b.x || a.z - b.z);
    const W = 16 + 2 * TREE_MARGIN;
    let minY = Infinity;
    let maxY = -Infinity;
    for (const spot of spots) {
      minY = Math.min(minY, spot.ground + 1);
      maxY = Math.max(maxY, spot.ground + 14);
    }
    const H = maxY - minY + 1;
    // Cell codes: 0 empty, 1 ground, 2 + 2·species a log, 3 + 2·species leaves.
    const size = W * W * H;
    if (this.#cells.length < size) {
      this.#cells = new Uint8Array(size);
      this.#distance = new Uint8Array(size);
      this.#queue = new Int32Array(size);
    }
    const cells = this.#cells.subarray(0, size).fill(0);
    const cell = (rx: number, y: number, rz: number) => ((y - minY) * W + rz) * W + rx;
    const around: Int16Array[] = [];
    for (let dz = -1; dz <= 1; dz++) for (let dx = -1; dx <= 1; dx++) around.push(this.surfaces.of(chunkX + dx, chunkZ + dz).height);
    for (let rz = 0; rz < W; rz++) {
      for (let rx = 0; rx < W; rx++) {
        const lx = rx - TREE_MARGIN + 16; // 0–47 across the 3×3 chunks
        const lz = rz - TREE_MARGIN + 16;
        const ground = around[(lz >> 4) * 3 + (lx >> 4)]![(lz & 15) * 16 + (lx & 15)]!;
        for (let y = minY; y <= Math.min(ground, maxY); y++) cells[cell(rx, y, rz)] = 1;
      }
    }
    for (const spot of spots) {
      const species = SPECIES.indexOf(spot.species);
      growTree(this.seed, spot, (dx, dy, dz, log) => {
        const rx = spot.x + dx - x0 + TREE_MARGIN;
        const rz = spot.z + dz - z0 + TREE_MARGIN;
        const y = spot.ground + dy;
        if (rx < 0 || rx >= W || rz < 0 || rz >= W || y < minY || y > maxY) return;
        const c = cell(rx, y, rz);
        const here = cells[c]!;
        if (log) {
          if (here !== 1) cells[c] = 2 + 2 * species;
        } else if (here === 0) {
          cells[c] = 3 + 2 * species;
        }
      });
    }
    // Leaves' distance to the nearest log through leaves (vanilla LeavesBlock.updateDistance), 1–7.
    const distance = this.#distance.subarray(0, size).fill(7);
    const queue = this.#queue;
    let head = 0;
    let tail = 0;
    for (let c = 0; c < cells.length; c++) {
      if (cells[c]! >= 2 && (cells[c]! & 1) === 0) {
        distance[c] = 0;
        queue[tail++] = c;
      }
    }
    const layer = W * W;
    while (head < tail) {
      const c = queue[head++]!;
      const d = distance[c]! + 1;
      if (d >= 7) continue;
      const rx = c % W;
      const rz = Math.floor(c / W) % W;
      const visit = (n: number) => {
        const code = cells[n]!;
        if (code >= 3 && (code & 1) === 1 && distance[n]! > d) {
          distance[n] = d;
          queue[tail++] = n;
        }
      };
      if (rx > 0) visit(c - 1);
      if (rx < W - 1) visit(c + 1);
      if (rz > 0) visit(c - W);
      if (rz < W - 1) visit(c + W);
      if (c >= layer) visit(c - layer);
      if (c + layer < cells.length) visit(c + layer);
    }
    for (let y = minY; y <= maxY; y++) {
      if (y >= MIN_Y + WORLD_HEIGHT) break;
      for (let z = 0; z < 16; z++) {
        for (let x = 0; x < 16; x++) {
          const c = cell(x + TREE_MARGIN, y, z + TREE_MARGIN);
          const code = cells[c]!;
          if (code < 2) continue;
          const species: Species = SPECIES[(code - 2) >> 1]!;
          const i = blockIndex(x, y, z);
          if ((code & 1) === 0) blocks[i] = LOGS[species];
          else if (blocks[i] === AIR) blocks[i] = LEAVES[species][distance[c]! - 1]!;
        }
      }
    }
    // vanilla TreeFeature sets the block under the trunk to dirt.
    for (const spot of spots) {
      const x = spot.x - x0;
      const z = spot.z - z0;
      if (x < 0 || x > 15 || z < 0 || z > 15) continue;
      const i = blockIndex(x, spot.ground, z);
      if (blocks[i] === GRASS_BLOCK) blocks[i] = DIRT;
    }
    return maxY;
  }

  /** Grass, flowers, ferns, bushes, cacti, sugar cane and pumpkins on free ground. */
  #placePlants(blocks: Uint8Array, chunkX: number, chunkZ: number): void {
    const seed = this.seed;
    const s = this.surfaces.of(chunkX, chunkZ);
    const x0 = chunkX * 16;
    const z0 = chunkZ * 16;
    const areaAt = (x: number, z: number) => s.area[(z + MARGIN) * AREA + (x + MARGIN)]!;
    const place = (x: number, z: number, ground: number, plant: Plant): void => {
      const top = ground + plant.length;
      if (top >= MIN_Y + WORLD_HEIGHT) return;
      for (let y = ground + 1; y <= top; y++) if (blocks[blockIndex(x, y, z)] !== AIR) return;
      plant.forEach((code, k) => (blocks[blockIndex(x, ground + 1 + k, z)] = code));
    };
    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) {
        const i = z * 16 + x;
        const h = s.height[i]!;
        const kind = s.kind[i]!;
        if (kind === SURFACE.bed || kind === SURFACE.outcrop) continue;
        const ground = blocks[blockIndex(x, h, z)];
        const wx = x0 + x;
        const wz = z0 + z;
        // Sugar cane: ground at the water's level with water beside it.
        if (h === WATER_TOP && (ground === GRASS_BLOCK || ground === SAND || ground === DIRT)) {
          const wet =
            areaAt(x - 1, z) < WATER_TOP || areaAt(x + 1, z) < WATER_TOP || areaAt(x, z - 1) < WATER_TOP || areaAt(x, z + 1) < WATER_TOP;
          const cane = wet ? sugarCaneAt(seed, wx, wz) : undefined;
          if (cane) {
            place(x, z, h, cane);
            continue;
          }
        }
        const plant = plantAt(seed, s.biome[i]!, wx, wz);
        if (!plant) continue;
        if (growsOnSand(plant)) {
          if (ground !== SAND) continue;
          // A cactus needs free sides: no higher ground beside it.
          if (Math.max(areaAt(x - 1, z), areaAt(x + 1, z), areaAt(x, z - 1), areaAt(x, z + 1)) > h) continue;
        } else if (ground !== GRASS_BLOCK) {
          continue;
        }
        place(x, z, h, plant);
      }
    }
    // A pumpkin patch: up to 8 pumpkins around a point, on free grass.
    const random = chunkRandom(seed, SALT.pumpkins, chunkX, chunkZ);
    if (nextInt(random, PUMPKIN_RARITY) !== 0) return;
    const px = 3 + nextInt(random, 10);
    const pz = 3 + nextInt(random, 10);
    for (let k = 0; k < 8; k++) {
      const x = px + nextInt(random, 7) - 3;
      const z = pz + nextInt(random, 7) - 3;
      const h = s.height[z * 16 + x]!;
      if (blocks[blockIndex(x, h, z)] !== GRASS_BLOCK || h + 1 >= MIN_Y + WORLD_HEIGHT) continue;
      const above = blockIndex(x, h + 1, z);
      if (blocks[above] === AIR) blocks[above] = PUMPKIN;
    }
  }
}
