/**
 * The MineCollab task format (the JSON files of the benchmark, `../shared/minecollab/`), as zod
 * schemas. Field names are the benchmark's own. Generator metadata we do not use is kept as-is.
 */
import { z } from 'zod';
import type { VillagerSpec } from './villager/spec.ts';

const count = z.number().int().min(0);
/** Item name → count. */
const inventorySchema = z.record(z.string(), count);
/** Keys of per-agent maps are agent indexes written as strings: "0", "1", ... */
const agentIndex = z.string().regex(/^\d+$/, 'an agent index such as "0"');

export const blueprintSchema = z.looseObject({
  materials: z.record(z.string(), count).optional(),
  levels: z.array(
    z.looseObject({
      level: z.number().int(),
      coordinates: z.tuple([z.number(), z.number(), z.number()]),
      placement: z.array(z.array(z.string())),
    }),
  ),
});
/** A construction blueprint: `placement[r][c]` of a level is the block at `(x + c, y, z + r)`. */
export type Blueprint = z.infer<typeof blueprintSchema>;
/** One level of a {@link Blueprint}. */
export type BlueprintLevel = Blueprint['levels'][number];

export const taskSchema = z.looseObject({
  /** `techtree` (crafting), `cooking`, `construction`, `collection` (ours: the team's inventories together hold the targets); anything else has no validator (e.g. `debug`). */
  type: z.string().min(1),
  /** One goal for every agent, or a goal per agent index. */
  goal: z.union([z.string(), z.record(agentIndex, z.string())]),
  /** Message agent 0 opens the conversation with. */
  conversation: z.string().optional(),
  agent_count: z.number().int().min(1).max(20).default(1),
  human_count: z.number().int().min(0).optional(),
  usernames: z.array(z.string()).optional(),
  /** Per agent index: the inventory it starts with. */
  initial_inventory: z.record(agentIndex, inventorySchema).default({}),
  /**
   * Item(s) to hold: one name, a list, an item → count map (cooking), or, for Hell's Kitchen, a
   * list with one item per agent (id ending `hells_kitchen`) or an agent index → item map.
   */
  target: z
    .union([z.string(), z.array(z.string()), z.record(z.string(), count), z.record(agentIndex, z.string())], {
      error: 'an item name, a list of item names, an item → count map or an agent index → item map',
    })
    .optional(),
  /** How many of the target (or a count per target item). */
  number_of_target: z.union([count, z.record(z.string(), count)]).optional(),
  /** Time limit in seconds. */
  timeout: z.number().positive().default(300),
  /** Per agent index: commands removed for that agent, e.g. `["!getCraftingPlan"]`. */
  blocked_actions: z.record(agentIndex, z.array(z.string().startsWith('!', 'a command name starting with "!"'))).default({}),
  restrict_to_inventory: z.boolean().optional(),
  blueprint: blueprintSchema.optional(),
});
export type Task = z.infer<typeof taskSchema>;
/**
 * A task with its id and the file it came from; a VillagerBench task also carries its scenario's
 * data (`villager`, see `./villager/spec.ts`).
 */
export type LoadedTask = Task & { id: string; file: string; villager?: VillagerSpec };
