/**
 * Checks a VillagerBench task against the Minecraft version it will run on: every block and item
 * it names exists (minecraft-data), every farm structure is one this project builds.
 */
import type { GameData } from '../../game/data.ts';
import { closestNames } from '../../util/closest.ts';
import { itemForBlock } from '../../game/production.ts';
import type { VillagerSpec } from './spec.ts';
import { structurePlan } from './structures.ts';

/**
 * The problems of `spec` on `data`'s version, one line each (none when it can be played); each
 * names the field, the unknown name and the closest valid names.
 */
export function checkVillagerForVersion(spec: VillagerSpec, data: GameData): string[] {
  const problems = new Set<string>();
  const version = data.version.minecraftVersion;
  const closest = (name: string, names: string[]) =>
    closestNames(name, names)
      .map((c) => `"${c}"`)
      .join(', ');
  const item = (name: string, where: string) => {
    if (!data.itemsByName[name])
      problems.add(`${where}: "${name}" is not an item in Minecraft ${version} (closest: ${closest(name, Object.keys(data.itemsByName))})`);
  };
  const block = (name: string, where: string) => {
    if (!data.blocksByName[name])
      problems.add(
        `${where}: "${name}" is not a block in Minecraft ${version} (closest: ${closest(name, Object.keys(data.blocksByName))})`,
      );
  };
  switch (spec.scenario) {
    case 'construction':
      spec.blocks.forEach((b) => {
        block(b.state.name, 'blocks');
        if (data.blocksByName[b.state.name] && !itemForBlock(data, b.state.name))
          problems.add(`blocks: no item places "${b.state.name}"; leave it out of the blueprint`);
      });
      break;
    case 'cooking': {
      const { farm } = spec;
      item(farm.target, 'target');
      farm.check_point.forEach((c, i) => item(c.name, `check_point[${i}]`));
      farm.component.forEach((c, i) => {
        if (c.type === 'structure') {
          try {
            structurePlan(c.name);
          } catch (err) {
            problems.add(`component[${i}]: ${(err as Error).message}`);
          }
        } else block(c.name, `component[${i}]`);
        (c.items ?? []).forEach((s) => item(s.name, `component[${i}].items`));
      });
      break;
    }
    case 'escape':
      spec.atoms.forEach((a, i) => {
        for (const [field, list] of [
          ['init', a.init],
          ['condition', a.condition],
          ['effect', a.effect],
        ] as const)
          list.forEach((b) => {
            if (!b.name.startsWith('summon_')) block(b.name.replace(/^minecraft:/, ''), `atom ${i} ${field}`);
          });
        for (const name of [...Object.keys(a.in), ...Object.keys(a.out)]) item(name, `atom ${i} in/out`);
      });
      break;
  }
  return [...problems];
}
