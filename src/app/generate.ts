/**
 * `npm run generate -- crafting|cooking|construction|collection [--agents N] [--count K] [--seed S] [--depth D]
 * [--missing M] [--blocked !cmd,...] [--hells-kitchen] [--size N] [--levels N] [--version V] --out FILE`:
 * writes a MineCollab-format task file made by the generators of `../tasks/generate.ts`;
 * `villager-construction | villager-cooking | escape` write VillagerBench's formats
 * (`../tasks/villager/generate.ts`).
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { gameData } from '../game/data.ts';
import { DEFAULT_MINECRAFT_VERSION } from '../game/versions.ts';
import {
  generateCollectionTasks,
  generateConstructionTasks,
  generateCookingTasks,
  generateCraftingTasks,
  generateShelterTasks,
} from '../tasks/generate.ts';
import type { Task } from '../tasks/schema.ts';
import { generateVillagerConstruction, generateVillagerCooking, generateVillagerEscape } from '../tasks/villager/generate.ts';

/** The VillagerBench kinds: their files are lists (or our escape file), not MineCollab's id → task maps. */
const VILLAGER_KINDS = ['villager-construction', 'villager-cooking', 'escape'];

export const GENERATE_USAGE = `npm run generate -- crafting|cooking|construction|shelter|collection --out <file.json> [--agents <1-8>] [--count <n>] [--seed <n>]
      crafting: [--depth <0-3>] [--missing <n>] [--blocked <!cmd,...>] [--targets <item,...>]
      cooking: [--dishes <n>] [--hells-kitchen] [--targets <dish,...>]
      construction: [--size <3-9>] [--levels <1-4>]
      shelter (S-Agents' stone foundation, wooden walls, stone roof): [--size <3-9>] [--levels <wall height 2-3>]
      collection: --targets <item:count,...> (one task per entry, e.g. oak_log:50,oak_log:100,iron_ingot:20)
      all: [--timeout <s>] [--version <minecraft version>]
  npm run generate -- villager-construction|villager-cooking|escape --out <file.json> [--agents <1-8>] [--count <n>] [--seed <n>] [--version <v>]
      VillagerBench: blueprints, farm tasks, or escape atoms with --count runs escape_<rooms>_<seed> (--agents: written into the tasks)`;

/** A bad argument of `generate`; the CLI prints it with the usage. */
export class GenerateUsageError extends Error {
  override name = 'GenerateUsageError';
}

function int(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new GenerateUsageError(`--${name} expects a whole number, got "${value}"`);
  return n;
}

const list = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** `item:count` of `--targets` for collection. */
function countedItem(entry: string): [string, number] {
  const [item, count, ...rest] = entry.split(':');
  const n = Number(count);
  if (!item || rest.length || !Number.isInteger(n) || n < 1)
    throw new GenerateUsageError(`collection --targets expects item:count entries such as oak_log:50, got "${entry}"`);
  return [item, n];
}

/**
 * Runs `generate` with command-line `args` (after the word `generate`).
 *
 * @returns the file written and how many tasks it has.
 * @throws GenerateUsageError for bad arguments; RangeError from the generators.
 */
export async function generate(args: string[]): Promise<{ file: string; tasks: number }> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      agents: { type: 'string' },
      count: { type: 'string' },
      seed: { type: 'string' },
      depth: { type: 'string' },
      missing: { type: 'string' },
      blocked: { type: 'string' },
      targets: { type: 'string' },
      dishes: { type: 'string' },
      'hells-kitchen': { type: 'boolean' },
      size: { type: 'string' },
      levels: { type: 'string' },
      timeout: { type: 'string' },
      version: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const [kind] = positionals;
  if (
    !kind ||
    ![...['crafting', 'cooking', 'construction', 'shelter', 'collection'], ...VILLAGER_KINDS].includes(kind) ||
    positionals.length > 1
  ) {
    throw new GenerateUsageError(
      `generate expects one of crafting, cooking, construction, shelter, collection, ${VILLAGER_KINDS.join(', ')}, got ${positionals.join(' ') || 'nothing'}`,
    );
  }
  if (!values.out) throw new GenerateUsageError('generate needs --out <file.json>');
  const data = gameData(values.version ?? DEFAULT_MINECRAFT_VERSION);
  if (VILLAGER_KINDS.includes(kind)) {
    const options = {
      count: int(values.count, 'count', 10),
      seed: int(values.seed, 'seed', 1),
      ...(values.agents !== undefined ? { agents: int(values.agents, 'agents', 2) } : {}),
    };
    const file =
      kind === 'escape'
        ? generateVillagerEscape(data, options)
        : kind === 'villager-cooking'
          ? generateVillagerCooking(data, options)
          : generateVillagerConstruction(data, options);
    await writeFile(values.out, `${JSON.stringify(file, null, 2)}\n`);
    return { file: values.out, tasks: Array.isArray(file) ? file.length : file.runs.length };
  }
  const common = {
    agents: int(values.agents, 'agents', 2),
    count: int(values.count, 'count', 10),
    seed: int(values.seed, 'seed', 1),
    ...(values.timeout ? { timeout: int(values.timeout, 'timeout', 300) } : {}),
  };
  let tasks: Record<string, Task>;
  if (kind === 'crafting') {
    tasks = generateCraftingTasks(data, {
      ...common,
      depth: int(values.depth, 'depth', 0),
      missing: int(values.missing, 'missing', 0),
      blocked: list(values.blocked),
      targets: list(values.targets),
    });
  } else if (kind === 'cooking') {
    tasks = generateCookingTasks(data, {
      ...common,
      dishes: int(values.dishes, 'dishes', 2),
      hellsKitchen: values['hells-kitchen'] ?? false,
      targets: list(values.targets),
    });
  } else if (kind === 'shelter') {
    tasks = generateShelterTasks(data, { ...common, size: int(values.size, 'size', 5), walls: int(values.levels, 'levels', 2) });
  } else if (kind === 'collection') {
    tasks = generateCollectionTasks(data, {
      agents: common.agents,
      targets: list(values.targets).map(countedItem),
      ...(common.timeout ? { timeout: common.timeout } : {}),
    });
  } else {
    tasks = generateConstructionTasks(data, { ...common, size: int(values.size, 'size', 6), levels: int(values.levels, 'levels', 3) });
  }
  await writeFile(values.out, `${JSON.stringify(tasks, null, 2)}\n`);
  return { file: values.out, tasks: Object.keys(tasks).length };
}
