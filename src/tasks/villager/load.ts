/**
 * VillagerBench task files as the project's tasks (`LoadedTask`), so that they run through
 * `npm run task` and `npm run eval` like MineCollab's (`../loader.ts` dispatches here by shape):
 * - a construction file (a list of blueprints): one task per blueprint, id `task_<index>` (its
 *   `name` finds it too), type `villager_construction`;
 * - a farm file (a list of farm tasks): one task per entry, id its `name`, type `villager_cooking`;
 * - an atom file (a list of atoms): VillagerBench's 25 runs `escape_<rooms>_<seed>`, and any other
 *   such id on demand; or our escape file `{ atoms, runs, agents }` with its own runs; type
 *   `villager_escape`.
 *
 * The team size is a run parameter: `agents` (`--agents`), else the task's own `agents`
 * (generated tasks), else {@link DEFAULT_AGENTS}. Each task's `timeout` is its scenario's
 * whole-run budget; `villager.budget` keeps both budgets.
 *
 * Every file is checked strictly: a field of the wrong type or value is refused with its path.
 */
import { validate } from '../../settings/index.ts';
import type { Blueprint, LoadedTask } from '../schema.ts';
import type { VillagerScenario, VillagerSpec } from './spec.ts';
import {
  constructionBudget,
  constructionComplexity,
  constructionFileSchema,
  blocksBox,
  describeBlocks,
  placeBlueprint,
  type PlacedBlock,
} from './construction.ts';
import { stateText } from './states.ts';
import { cookingBudget, cookingComplexity, farmFileSchema, ingredientSources } from './cooking.ts';
import { atomFileSchema, chainRooms, DEFAULT_ESCAPE_RUNS, escapeBudget, escapeFileSchema, MAX_ROOMS, parseEscapeId } from './escape.ts';

export type { VillagerScenario, VillagerSpec };

/** Task types of the scenarios (a result line's `type`). */
export const VILLAGER_TYPES = {
  construction: 'villager_construction',
  cooking: 'villager_cooking',
  escape: 'villager_escape',
} as const satisfies Record<VillagerScenario, string>;

/** Agents per run when neither the run nor the task says (the papers' tables: 2). */
export const DEFAULT_AGENTS = 2;

/** A task with its VillagerBench data. */
export type VillagerTask = LoadedTask & { villager: VillagerSpec };

/** Options of {@link loadVillagerFile}. */
export interface VillagerLoadOptions {
  /** Agents per run (`--agents`), over the tasks' own. */
  agents?: number;
  /** Escape files: these runs (`escape_<rooms>_<seed>`) as well as the file's own. */
  runs?: readonly string[];
}

/** Which scenario a parsed JSON file holds, by its shape; undefined for none. */
export function villagerKind(raw: unknown): VillagerScenario | undefined {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return 'atoms' in raw ? 'escape' : undefined;
  if (!Array.isArray(raw)) return undefined;
  const first: unknown = raw[0];
  if (!first || typeof first !== 'object') return undefined;
  if ('blocks' in first) return 'construction';
  if ('check_point' in first || 'target' in first) return 'cooking';
  if ('condition' in first || 'init' in first || 'effect' in first) return 'escape';
  return undefined;
}

/**
 * The blocks as a MineCollab blueprint (levels bottom up, rows along z, `air` where no block
 * goes): what the blueprint queries (`!getBlueprint`, `!checkBlueprintLevel`) show the agents and
 * the set-up clears. A cell is the block's state (`oak_stairs[facing=west]`, `oak_log[axis=x]`),
 * the name alone for a block with no wanted property.
 *
 * @param propertiesOf the properties a block has (minecraft-data's `states`): wanted properties
 *   the block lacks (a `facing` on glass, which the judge does not ask) are left out. Without it
 *   every wanted property is written.
 * @example levelsBlueprint(blocks, (n) => data.blocksByName[n]?.states?.map((s) => s.name)).levels[0].placement[0]
 *   // ['oak_planks', 'oak_stairs[facing=west]', 'oak_log[axis=y]']
 */
export function levelsBlueprint(blocks: readonly PlacedBlock[], propertiesOf?: (name: string) => readonly string[] | undefined): Blueprint {
  const box = blocksBox(blocks);
  const cell = (b: PlacedBlock) => {
    const has = propertiesOf?.(b.state.name);
    const properties = Object.fromEntries(Object.entries(b.state.properties).filter(([k]) => !propertiesOf || has?.includes(k)));
    return stateText(b.state.name, properties);
  };
  const at = new Map(blocks.map((b) => [`${b.x},${b.y},${b.z}`, cell(b)]));
  const levels: Blueprint['levels'] = [];
  for (let y = box.min.y; y <= box.max.y; y++) {
    const placement: string[][] = [];
    for (let z = box.min.z; z <= box.max.z; z++) {
      const row: string[] = [];
      for (let x = box.min.x; x <= box.max.x; x++) row.push(at.get(`${x},${y},${z}`) ?? 'air');
      placement.push(row);
    }
    levels.push({ level: y - box.min.y, coordinates: [box.min.x, y, box.min.z], placement });
  }
  return { levels };
}

function task(
  id: string,
  file: string,
  agents: number,
  goal: string,
  villager: VillagerSpec,
  extra: Partial<LoadedTask> = {},
): VillagerTask {
  return {
    id,
    file,
    type: VILLAGER_TYPES[villager.scenario],
    goal,
    agent_count: agents,
    initial_inventory: {},
    timeout: villager.budget.totalS,
    blocked_actions: {},
    villager,
    ...extra,
  };
}

/**
 * Loads a parsed VillagerBench file (see the module comment).
 *
 * @returns the file's tasks by id, in file order.
 * @throws ConfigError naming the file and the path of each bad field; Error for a file of no
 *   VillagerBench format, two farm tasks of one name, a bad run id or atoms no team of that size
 *   can play.
 */
export function loadVillagerFile(raw: unknown, file: string, options: VillagerLoadOptions = {}): Map<string, VillagerTask> {
  const kind = villagerKind(raw);
  const tasks = new Map<string, VillagerTask>();
  if (kind === 'construction') {
    validate(constructionFileSchema, raw, file).forEach((blueprint, index) => {
      const blocks = placeBlueprint(blueprint);
      if (blocks.length === 0)
        throw new Error(`${file}: blueprint ${index} ("${blueprint.name}") has only air, water or lava: give it blocks to build`);
      const description = blueprint.description ?? describeBlocks(blueprint.name, blocks);
      const id = `task_${index}`;
      tasks.set(
        id,
        task(
          id,
          file,
          options.agents ?? blueprint.agents ?? DEFAULT_AGENTS,
          Array.isArray(description) ? description.join('\n') : description,
          { scenario: 'construction', blueprint, blocks, budget: constructionBudget(constructionComplexity(blueprint)) },
          { blueprint: levelsBlueprint(blocks) },
        ),
      );
    });
  } else if (kind === 'cooking') {
    for (const farm of validate(farmFileSchema, raw, file)) {
      if (tasks.has(farm.name))
        throw new Error(`${file}: two farm tasks are named "${farm.name}"; a task's name is its id, give each its own`);
      const sources = ingredientSources(farm)
        .map((s) => `${s.ingredient}: ${s.item} in the ${s.place}`)
        .join('; ');
      const goal = `Make ${farm.target} together.${sources ? ` Ingredients: ${sources}.` : ''}${farm.description ? ` ${farm.description}` : ''}`;
      tasks.set(
        farm.name,
        task(farm.name, file, options.agents ?? farm.agents ?? DEFAULT_AGENTS, goal, {
          scenario: 'cooking',
          farm,
          budget: cookingBudget(cookingComplexity(farm)),
        }),
      );
    }
  } else if (kind === 'escape') {
    const parsed = Array.isArray(raw)
      ? { atoms: validate(atomFileSchema, raw, file), runs: DEFAULT_ESCAPE_RUNS, agents: undefined }
      : validate(escapeFileSchema, raw, file);
    const agents = options.agents ?? parsed.agents ?? DEFAULT_AGENTS;
    for (const id of new Set([...parsed.runs, ...(options.runs ?? [])])) {
      const run = parseEscapeId(id);
      if (!run) throw new Error(`${file}: "${id}" is not an escape run id: write escape_<rooms>_<seed>, e.g. escape_3_7`);
      if (run.rooms < 1 || run.rooms > MAX_ROOMS)
        throw new Error(`${file}: run "${id}" has ${run.rooms} rooms; a run has 1 to ${MAX_ROOMS}`);
      // The chain's shape (not its place) gives the budget and the items to carry.
      const chain = chainRooms(parsed.atoms, run.rooms, run.seed, agents, { x: 0, y: 0, z: 0 });
      const inventory = Object.fromEntries(Array.from({ length: agents }, (_, i) => [String(i), { ...chain.inventory }]));
      tasks.set(
        id,
        task(
          id,
          file,
          agents,
          `Escape through ${run.rooms} room(s) together.`,
          { scenario: 'escape', atoms: parsed.atoms, rooms: run.rooms, seed: run.seed, budget: escapeBudget(chain) },
          { initial_inventory: inventory },
        ),
      );
    }
  } else {
    throw new Error(`${file}: not a VillagerBench file: expected a list of blueprints, of farm tasks or of escape atoms`);
  }
  return tasks;
}

/** The task `id` names: a key of `tasks`, or a construction blueprint's `name`. */
export function findVillagerTask(tasks: ReadonlyMap<string, LoadedTask>, id: string): LoadedTask | undefined {
  const direct = tasks.get(id);
  if (direct) return direct;
  for (const t of tasks.values()) if (t.villager?.scenario === 'construction' && t.villager.blueprint.name === id) return t;
  return undefined;
}
