/**
 * Checking a construction blueprint against the world as the bot sees it (`!checkBlueprintLevel`,
 * `!checkBlueprint`): oriented blocks read with their orientation, so that a blueprint's state
 * cells (`oak_stairs[facing=west]`) are compared by state; names-only cells by name.
 */
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import {
  blueprintCheckData,
  checkLevel,
  findLevel,
  formatBlueprintCheckData,
  formatLevelCheckData,
  levelCheckData,
  type BlockLookup,
} from '../tasks/blueprint.ts';
import type { Blueprint } from '../tasks/schema.ts';
import { describeOriented } from '../game/block-state.ts';
import { done, failure, type Outcome } from './outcome.ts';

/** What the blueprint queries answer an agent without a blueprint. */
export const NO_BLUEPRINT = 'You have no blueprint: this is not a construction task.';

/** The world as the bot sees it; undefined for blocks in chunks it has not loaded. */
export function botLookup(bot: Bot): BlockLookup {
  return (x, y, z) => bot.blockAt(new Vec3(x, y, z))?.name;
}

/**
 * The world as the bot sees it, oriented blocks with their orientation
 * (`oak_stairs[facing=west,half=bottom,shape=straight]`, `oak_log[axis=x]`; others by name, see
 * `describeOriented` in src/game/block-state.ts): for the queries of blueprints whose blocks have
 * a `facing` or `axis`. undefined for blocks in chunks the bot has not loaded.
 */
export function botOrientedLookup(bot: Bot): BlockLookup {
  return (x, y, z) => {
    const block = bot.blockAt(new Vec3(x, y, z));
    return block ? describeOriented(block) : undefined;
  };
}

/** The answer for an agent without a blueprint: `unavailable`. */
export function noBlueprint(): Outcome {
  return failure('unavailable', NO_BLUEPRINT);
}

/** The answer for a level number the blueprint does not have: `invalid`, naming its levels. */
export function noSuchLevel(blueprint: Blueprint, levelNum: number): Outcome {
  return failure('invalid', `The blueprint has no level ${levelNum}; its levels are ${blueprint.levels.map((l) => l.level).join(', ')}.`);
}

/**
 * What to place, remove or replace on one level: `ok` with `data.blueprint` (the level, whether it
 * is complete, its changes in the order the text lists them); `unavailable` without a blueprint,
 * `invalid` for a level it does not have.
 */
export function checkBlueprintLevel(bot: Bot, blueprint: Blueprint | undefined, levelNum: number): Outcome {
  if (!blueprint) return noBlueprint();
  const level = findLevel(blueprint, levelNum);
  if (!level) return noSuchLevel(blueprint, levelNum);
  const data = levelCheckData(levelNum, checkLevel(level, botOrientedLookup(bot)));
  return done(formatLevelCheckData(data), { blueprint: data });
}

/**
 * What is left of the whole blueprint, level by level, and the construction score: `ok` with
 * `data.blueprint` (every level's check, all changes in text order, the score); `unavailable`
 * without a blueprint.
 */
export function checkWholeBlueprint(bot: Bot, blueprint: Blueprint | undefined): Outcome {
  if (!blueprint) return noBlueprint();
  const data = blueprintCheckData(blueprint, botOrientedLookup(bot));
  return done(formatBlueprintCheckData(data), { blueprint: data });
}
