/**
 * What a farm task's world supplies to the agents' plans (`farmSupplies`): chest items taken,
 * crops harvested by their block's loot, pasture animals hunted.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { gameData } from '../../../src/game/data.ts';
import { farmFileSchema } from '../../../src/tasks/villager/cooking.ts';
import { farmSupplies } from '../../../src/tasks/villager/supplies.ts';
import { TEST_VERSION } from '../../helpers/version.ts';

const data = gameData(TEST_VERSION);

describe('farm supplies', () => {
  test("the cake fixture: the chest's items taken, the sugar cane cut", async () => {
    const [cake] = farmFileSchema.parse(JSON.parse(await readFile('test/fixtures/villagerbench/cooking.json', 'utf8')));
    const supplies = farmSupplies(data, cake!);
    expect(supplies.egg).toMatchObject({ kind: 'chest' });
    expect(supplies.milk_bucket).toMatchObject({ kind: 'chest' });
    expect(supplies.hay_block).toMatchObject({ kind: 'chest' });
    expect(supplies.sugar_cane).toMatchObject({ kind: 'block', block: 'sugar_cane' });
  });

  test("a wheat farm gives wheat and seeds from the crop's loot; a rabbit pasture rabbits and hides; a chicken's egg and the pasture's logs are not gathered", () => {
    const supplies = farmSupplies(data, {
      name: 't',
      target: 'bread',
      component: [
        { name: 'wheat_farm', type: 'structure', position: [3, 0, 4] },
        { name: 'rabbit_pasture', type: 'structure', position: [-8, 0, 4] },
        { name: 'chicken_pasture', type: 'structure', position: [3, 0, 14] },
      ],
      check_point: [{ name: 'bread', count: 1, score: 100, sub_check_point: [] }],
    });
    expect(supplies.wheat).toMatchObject({ kind: 'block', block: 'wheat' });
    expect(supplies.wheat_seeds).toMatchObject({ kind: 'block', block: 'wheat' });
    expect(supplies.rabbit).toMatchObject({ kind: 'hunt', mob: 'rabbit' });
    expect(supplies.rabbit_hide).toMatchObject({ kind: 'hunt', mob: 'rabbit' });
    expect(supplies.chicken).toMatchObject({ kind: 'hunt', mob: 'chicken' });
    expect(supplies.egg).toBeUndefined();
    // The pasture's logs stand inside its fence: not a source.
    expect(supplies.acacia_log).toBeUndefined();
  });
});
