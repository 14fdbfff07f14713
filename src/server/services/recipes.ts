/**
 * Crafting-grid recipe matching from minecraft-data (`registry.recipes`).
 *
 * minecraft-data lists each recipe with its tag variants already expanded (one entry per wood
 * type, and so on), shaped ones as `inShape` (rows of item ids, `null` = empty cell) and
 * shapeless ones as `ingredients` (item ids). Vanilla matches a shaped recipe anywhere in the
 * grid, as is or mirrored left-to-right; a shapeless one matches any arrangement of exactly its
 * ingredients. Both are reduced here to a lookup key of the grid's trimmed contents.
 */
import type { Registry } from '../types.ts';
import { completeDyeingRecipes } from '../../game/dyeing.ts';

/** What a matched recipe produces. */
export interface CraftingResult {
  /** Item id (minecraft-data). */
  id: number;
  /** Number of items one craft yields. */
  count: number;
}

interface RawRecipe {
  inShape?: (number | null)[][];
  ingredients?: number[];
  result: { id: number; count: number };
}

/** Item ids laid out row by row, `null` for an empty cell. */
type Cells = (number | null)[];

/** Trims a `width`-wide grid to the bounding box of its non-empty cells; null when all empty. */
function trim(cells: Cells, width: number): { width: number; height: number; cells: Cells } | null {
  const height = Math.ceil(cells.length / width);
  let minX = width,
    maxX = -1,
    minY = height,
    maxY = -1;
  for (let i = 0; i < cells.length; i++) {
    if (cells[i] == null) continue;
    const x = i % width,
      y = Math.floor(i / width);
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  if (maxX < 0) return null;
  const out: Cells = [];
  for (let y = minY; y <= maxY; y++) for (let x = minX; x <= maxX; x++) out.push(cells[y * width + x] ?? null);
  return { width: maxX - minX + 1, height: maxY - minY + 1, cells: out };
}

function shapedKey(width: number, height: number, cells: Cells): string {
  return `${width}x${height}:${cells.map((c) => c ?? '_').join(',')}`;
}

function shapelessKey(ids: number[]): string {
  return `S:${[...ids].sort((a, b) => a - b).join(',')}`;
}

function mirror(width: number, cells: Cells): Cells {
  const out: Cells = [];
  for (let i = 0; i < cells.length; i += width) out.push(...cells.slice(i, i + width).reverse());
  return out;
}

/**
 * All crafting recipes of one Minecraft version, indexed for O(1) matching of a grid.
 * Build it once per registry (see {@link recipeBookFor}).
 */
export class RecipeBook {
  private readonly byKey = new Map<string, CraftingResult>();

  /** @param registry prismarine-registry / minecraft-data of the server's version. */
  constructor(registry: Pick<Registry, 'recipes'>) {
    const all = Object.values(registry.recipes ?? {}) as unknown as RawRecipe[][];
    for (const recipes of all) {
      for (const recipe of recipes) {
        const result = { id: recipe.result.id, count: recipe.result.count ?? 1 };
        if (recipe.inShape) {
          const width = Math.max(...recipe.inShape.map((row) => row.length));
          const padded = recipe.inShape.flatMap((row) => [...row, ...Array(width - row.length).fill(null)] as Cells);
          const shape = trim(padded, width);
          if (!shape) continue;
          this.add(shapedKey(shape.width, shape.height, shape.cells), result);
          this.add(shapedKey(shape.width, shape.height, mirror(shape.width, shape.cells)), result);
        } else if (recipe.ingredients?.length) {
          this.add(shapelessKey(recipe.ingredients), result);
        }
      }
    }
  }

  private add(key: string, result: CraftingResult): void {
    // The first recipe listed for a pattern wins, as vanilla picks the first matching recipe.
    if (!this.byKey.has(key)) this.byKey.set(key, result);
  }

  /**
   * The result of a crafting grid, or null when no recipe matches.
   *
   * @param cells item ids of the grid, row by row (`null` = empty), e.g. 4 cells for the 2x2
   *   player grid or 9 for a crafting table.
   * @param width grid width in cells (2 or 3).
   */
  match(cells: Cells, width: number): CraftingResult | null {
    const grid = trim(cells, width);
    if (!grid) return null;
    const shaped = this.byKey.get(shapedKey(grid.width, grid.height, grid.cells));
    if (shaped) return { ...shaped };
    const shapeless = this.byKey.get(shapelessKey(grid.cells.filter((c): c is number => c != null)));
    return shapeless ? { ...shapeless } : null;
  }
}

const books = new WeakMap<object, RecipeBook>();

/**
 * The (cached) {@link RecipeBook} for a registry, with the dyeing recipes minecraft-data lacks
 * added first (../../game/dyeing.ts: a wool, carpet or bed of any colour is dyed, as in vanilla).
 */
export function recipeBookFor(registry: Registry): RecipeBook {
  let book = books.get(registry);
  if (!book) {
    completeDyeingRecipes(registry);
    book = new RecipeBook(registry);
    books.set(registry, book);
  }
  return book;
}
