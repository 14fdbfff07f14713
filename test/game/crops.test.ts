/** The crops and their seed items, as src/game/crops.ts reads them from minecraft-data. */
import { describe, expect, test } from 'vitest';
import { cropOf, cropPlantedBy } from '../../src/game/crops.ts';
import { gameData } from '../../src/game/data.ts';

describe.each(['1.21.1', '1.21.4'])('crops of %s', (version) => {
  const data = gameData(version);

  test("the cooking world's seeds plant their crops, which are full-grown at vanilla's last age", () => {
    expect(['wheat_seeds', 'carrot', 'potato', 'beetroot_seeds'].map((s) => cropPlantedBy(data, s))).toEqual([
      'wheat',
      'carrots',
      'potatoes',
      'beetroots',
    ]);
    expect(['wheat', 'carrots', 'potatoes', 'beetroots'].map((c) => cropOf(data, c)?.maxAge)).toEqual([7, 7, 7, 3]);
    expect(cropPlantedBy(data, 'melon_seeds')).toBe('melon_stem');
  });

  test('items placed as their own block, or grown elsewhere than on farmland, plant no crop', () => {
    for (const item of [
      'wheat',
      'beetroot',
      'sugar_cane',
      'cactus',
      'nether_wart',
      'cocoa_beans',
      'sweet_berries',
      'kelp',
      'bamboo',
      'oak_sapling',
    ]) {
      expect(cropPlantedBy(data, item), item).toBeUndefined();
    }
    expect(cropOf(data, 'sugar_cane')).toBeUndefined();
  });
});
