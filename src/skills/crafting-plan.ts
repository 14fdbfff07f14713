/**
 * Crafting plans as `!getCraftingPlan` tells them to a model: the production plan of
 * `../game/production.ts` (the one the offline policy follows) for one target, and its text.
 * Pure functions: no bot, no server.
 */
import type { GameData } from '../game/data.ts';
import {
  type Counts,
  formatCounts,
  type PlanOptions,
  planProduction,
  type ProductionPlan,
  type ProductionSources,
  type ProductionStep,
  type SkillCall,
} from '../game/production.ts';

/** A {@link ProductionPlan} for `quantity` × `target`. */
export interface CraftingPlan extends ProductionPlan {
  /** The item planned for. */
  target: string;
  /** How many of it. */
  quantity: number;
  /**
   * True when a step needs a crafting table and none stands nearby or is held: the steps then
   * craft one first, or `missing` names it.
   */
  needsTable: boolean;
}

/** What {@link planCrafting} may use besides the inventory, and how it names what is missing. */
export interface CraftingPlanOptions {
  /** Gathering, smelting and a nearby table (none by default: crafting from the inventory only). */
  sources?: ProductionSources;
  /**
   * How far missing items are broken down (see {@link PlanOptions.expand}); `raw` by default:
   * down to raw materials, as the reference's `!getCraftingPlan` does.
   */
  expand?: PlanOptions['expand'];
}

/**
 * Plans making `quantity` × `target` from `inventory` with {@link planProduction}: the same
 * choice of ways and recipe variants as the offline policy, given the same sources.
 *
 * @param data minecraft-data of the bot's version.
 * @param inventory what the bot holds (item name → count); not modified.
 * @throws Error when `target` is not an item of this version.
 *
 * @example
 * planCrafting(data, { oak_log: 1, crafting_table: 1 }, 'wooden_pickaxe', 1, { expand: 'raw' }).missing
 * // { oak_log: 1 }
 */
export function planCrafting(
  data: GameData,
  inventory: Counts,
  target: string,
  quantity: number,
  options: CraftingPlanOptions = {},
): CraftingPlan {
  const sources = options.sources ?? {};
  const plan = planProduction(data, inventory, { [target]: quantity }, sources, { expand: options.expand ?? 'raw' });
  const needsTable =
    plan.steps.some((s) => s.kind === 'craft' && s.needsTable) && !sources.tableNearby && !((inventory.crafting_table ?? 0) > 0);
  return { ...plan, target, quantity, needsTable };
}

/** One step as a plan line: `Craft 1 oak_log -> 4 oak_planks`, `Smelt 1 raw_gold -> 1 gold_ingot`, `Get 3 wheat from the farm: !collectBlocks("wheat", 3)`. */
function formatStep(step: ProductionStep, writeCall: (call: SkillCall) => string): string {
  switch (step.kind) {
    case 'craft':
      return `Craft ${formatCounts(step.ingredients)} -> ${step.count} ${step.item}${step.needsTable ? ' (needs a crafting table)' : ''}`;
    case 'smelt':
      return `Smelt ${step.count} ${step.input} -> ${step.count} ${step.item} (in a furnace)`;
    case 'gather':
      return `Get ${step.count} ${step.item} from ${step.source.where}: ${writeCall(step.source.call(step.count))}`;
  }
}

/**
 * A short, model-readable rendering of a plan (what `!getCraftingPlan` prints): what is missing,
 * the steps in order, the crafting table and the leftovers.
 *
 * @param writeCall how the reader writes a gathering step's skill call (the command layer's
 *   `commandCall`: `!collectBlocks("wheat", 3)`).
 * @example
 * // To craft 1 wooden_pickaxe you are missing: 2 oak_log. Collect them or ask another player for them.
 * // Steps:
 * // - Craft 3 oak_log -> 12 oak_planks
 * // - Craft 4 oak_planks -> 1 crafting_table
 * // ...
 */
export function formatPlan(plan: CraftingPlan, writeCall: (call: SkillCall) => string): string {
  const lines: string[] = [];
  const what = `${plan.quantity} ${plan.target}`;
  if (Object.keys(plan.missing).length > 0) {
    lines.push(`To craft ${what} you are missing: ${formatCounts(plan.missing)}. Collect them or ask another player for them.`);
  } else if (plan.steps.some((s) => s.kind === 'gather')) {
    lines.push(`You can make ${what} with what you have and what is around you.`);
  } else {
    lines.push(`You can craft ${what} with what you have.`);
  }
  if (plan.steps.length > 0) {
    lines.push('Steps:');
    for (const s of plan.steps) lines.push(`- ${formatStep(s, writeCall)}`);
  }
  if (plan.needsTable) {
    lines.push(
      plan.missing.crafting_table
        ? 'You need a crafting_table: none is nearby; place one or get one.'
        : 'You need a crafting_table: none is nearby, so the steps craft one; place it.',
    );
  }
  if (Object.keys(plan.leftovers).length > 0) lines.push(`Leftovers: ${formatCounts(plan.leftovers)}.`);
  return lines.join('\n');
}
