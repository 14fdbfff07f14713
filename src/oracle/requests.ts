/**
 * What a player may ask of a bot with no model, in plain words: the requests that map one-to-one
 * onto a command. This reads a player's words (a request), never the game's reports; anything it
 * does not understand gets the offline answer instead.
 *
 * Understood (any case, with or without the bot's name, a greeting or `please` around it):
 * - `come here`, `come to me`, `come` → `!goToPlayer(<player>, 2)`
 * - `follow me` → `!followPlayer(<player>, 3)`
 * - `stop` → `!stop`
 * - `collect 3 oak logs`, `get oak_log`, `mine 5 stone`, `chop 4 birch logs`, `dig 2 dirt`,
 *   `gather some sand` → `!collectBlocks(<block>, <n>)` (one when no number is said)
 * - `craft a wooden pickaxe`, `craft 8 sticks`, `make a crafting table` → `!craftRecipe(<item>,
 *   <crafts>)` (the crafts that make at least that many)
 * - `give me 2 bread`, `hand me a torch` → `!givePlayer(<player>, <item>, <n>)`
 * - `what do you have`, `inventory`, `show me your inventory` → `!inventory`
 */
import { type GameData, recipeResultCount } from '../game/data.ts';
import type { NameResolver } from '../game/names.ts';
import { usableRecipes } from '../game/production.ts';

/** Words around a request that change nothing: greetings, politeness, the bot's own name. */
const FILLER =
  /^(?:(?:hey|hi|hello|ok|okay|please|pls|can you|could you|would you|will you|go)\b[\s,]*)+|[\s,]*(?:\bplease|\bpls|\bnow|\bthanks|\bthank you)*[\s.!?]*$/gi;

/** A count: a number, or `a`, `an`, `one`, `some` (one). */
const COUNT = String.raw`(?:(\d+)|a|an|one|some)\s+`;

/**
 * The command a plain request from `player` maps onto, or undefined when it is not one of the
 * requests this module knows (see the module comment). Game names are resolved with minecraft-data
 * (`oak logs` → `oak_log`); an unknown name is not understood.
 *
 * @param bot the bot's name (removed wherever the player wrote it).
 */
export function understandRequest(text: string, player: string, bot: string, data: GameData, names: NameResolver): string | undefined {
  const said = text
    .replace(new RegExp(`\\b${bot}\\b[,:]?`, 'gi'), ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(FILLER, '')
    .trim()
    .toLowerCase();
  if (/^(?:come(?: here| over| to me| back)?|over here)$/.test(said)) return `!goToPlayer(${JSON.stringify(player)}, 2)`;
  if (/^follow(?: me)?$/.test(said)) return `!followPlayer(${JSON.stringify(player)}, 3)`;
  if (/^(?:stop|halt|stop it|stop that)$/.test(said)) return '!stop';
  if (/^(?:what do you have|what have you got|inventory|show me your inventory|what(?:'s| is) in your inventory)$/.test(said))
    return '!inventory';
  const count = (n: string | undefined) => (n ? Math.max(1, Number(n)) : 1);
  let m = new RegExp(`^(?:collect|get|mine|chop|dig|gather)(?: me)?\\s+(?:${COUNT})?(.+)$`).exec(said);
  if (m) {
    const block = names.block(m[2]!);
    return block.ok ? `!collectBlocks(${JSON.stringify(block.name)}, ${count(m[1])})` : undefined;
  }
  m = new RegExp(`^(?:craft|make)(?: me)?\\s+(?:${COUNT})?(.+)$`).exec(said);
  if (m) {
    const item = names.item(m[2]!);
    if (!item.ok) return undefined;
    const recipe = usableRecipes(data, data.itemsByName[item.name]!.id)[0];
    const perCraft = recipe ? recipeResultCount(recipe) : 1;
    return `!craftRecipe(${JSON.stringify(item.name)}, ${Math.ceil(count(m[1]) / perCraft)})`;
  }
  m = new RegExp(`^(?:give|hand|pass|bring)\\s+me\\s+(?:${COUNT})?(.+)$`).exec(said);
  if (m) {
    const item = names.item(m[2]!);
    return item.ok ? `!givePlayer(${JSON.stringify(player)}, ${JSON.stringify(item.name)}, ${count(m[1])})` : undefined;
  }
  return undefined;
}
