/** `!searchWiki`'s offline answers, straight from minecraft-data (no server). */
import { describe, expect, test } from 'vitest';
import { gameData } from '../../src/game/data.ts';
import { searchWiki } from '../../src/skills/wiki.ts';

const data = gameData('1.21.4');

describe('searchWiki', () => {
  test('a block: hardness, harvest tools and drops', () => {
    const out = searchWiki(data, 'Iron Ore').text;
    expect(out).toMatch(/^Iron Ore \(iron_ore\): item, block\./);
    expect(out).toContain('hardness 3');
    expect(out).toMatch(/one of stone_pickaxe/);
    expect(out).not.toContain('wooden_pickaxe');
    expect(out).toContain('Drops when mined: 1 iron_ore with Silk Touch; 1-2 raw_iron.');
  });

  test('an item: recipe, food value, what it crafts and what drops it', () => {
    const bread = searchWiki(data, 'bread').text;
    expect(bread).toContain('Craft: 3 wheat -> 1 bread (crafting table)');
    expect(bread).toContain('restores 5 hunger');
    expect(searchWiki(data, 'stick').text).toMatch(/Used to craft: .*wooden_pickaxe|Used to craft: .*torch/);
    expect(searchWiki(data, 'leather').text).toMatch(/Dropped by mobs: .*cow/);
    expect(searchWiki(data, 'raw_iron').text).toMatch(/Dropped by blocks: .*iron_ore/);
  });

  test('a mob: size and loot; plurals and display names resolve', () => {
    const cow = searchWiki(data, 'cows').text;
    expect(cow).toMatch(/^Cow \(cow\): Passive mobs\./);
    expect(cow).toMatch(/Drops when killed: .*beef/);
    expect(searchWiki(data, 'Crafting Table').text).toMatch(/^Crafting Table \(crafting_table\)/);
  });

  test('an unknown name lists related names, or says there is none', () => {
    expect(searchWiki(data, 'diamond thing').text).toMatch(/Nothing is called "diamond thing". Related names: .*diamond/);
    expect(searchWiki(data, 'qqqqzzz')).toEqual({
      ok: false,
      code: 'not_found',
      text: 'Nothing in Minecraft 1.21.4 is called "qqqqzzz".',
      data: { sought: { kind: 'item', name: 'qqqqzzz' } },
    });
    expect(searchWiki(data, 'bread')).toMatchObject({ ok: true, code: 'ok' });
  });
});
