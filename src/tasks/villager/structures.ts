/**
 * The named buildings of VillagerBench's farm tasks, built our own way: farms of crops
 * (`wheat_farm`, `potato_and_carrot_farm`, `sugar_cane_farm`, ...: any `<crops>_farm` of the crops
 * below), pastures (`<animal>_pasture` of the animals below), a `house` with a crafting table and a
 * furnace, and a `material_factory` (coal ore, logs and a chest of tools). Each stands from its
 * position towards +x and +z: farms and pastures 5 × 9 blocks, the house 7 × 7, the factory 8 × 9.
 *
 * Vanilla facts used (Minecraft wiki: Farmland, Sugar Cane, Mushroom): crops need farmland within
 * 4 blocks of water to stay moist; sugar cane grows on dirt beside water; mushrooms keep on podzol
 * in any light.
 */

/** A block of a structure, relative to its position, as `/setblock` takes it. */
export interface StructureBlock {
  dx: number;
  dy: number;
  dz: number;
  state: string;
}

/** What a structure is made of. */
export interface StructurePlan {
  /** Footprint from the position, towards +x and +z (blocks). */
  size: { x: number; z: number };
  /** Blocks in the order to set them (the ground under a crop first). */
  blocks: StructureBlock[];
  /** Animals to summon, relative to the position (they stand at the cells' centres). */
  animals: { name: string; dx: number; dz: number }[];
  /** Chests and what they hold. */
  chests: { dx: number; dy: number; dz: number; items: Record<string, number> }[];
  /** The items it gives (harvest, drops, chest), for the agents' goal. */
  gives: string[];
}

/** The crops a farm grows, by the word(s) in its name: the plant, the ground it needs, what a harvest gives. */
const CROPS: Readonly<Record<string, { block: string; ground: string; item: string; tall?: boolean; nearWater?: boolean }>> = {
  wheat: { block: 'wheat[age=7]', ground: 'farmland[moisture=7]', item: 'wheat' },
  potato: { block: 'potatoes[age=7]', ground: 'farmland[moisture=7]', item: 'potato' },
  carrot: { block: 'carrots[age=7]', ground: 'farmland[moisture=7]', item: 'carrot' },
  beetroot: { block: 'beetroots[age=3]', ground: 'farmland[moisture=7]', item: 'beetroot' },
  mushroom: { block: 'brown_mushroom', ground: 'podzol', item: 'brown_mushroom' },
  sugar_cane: { block: 'sugar_cane', ground: 'dirt', item: 'sugar_cane', tall: true, nearWater: true },
  hay: { block: 'hay_block', ground: 'grass_block', item: 'hay_block' },
  pumpkin: { block: 'pumpkin', ground: 'grass_block', item: 'pumpkin' },
  melon: { block: 'melon', ground: 'grass_block', item: 'melon' },
};

/** What each pasture animal drops (Minecraft wiki, each mob's page). */
const ANIMAL_DROPS: Readonly<Record<string, string[]>> = {
  cow: ['beef', 'leather', 'milk_bucket'],
  pig: ['porkchop'],
  chicken: ['chicken', 'feather', 'egg'],
  sheep: ['mutton', 'white_wool'],
  rabbit: ['rabbit', 'rabbit_hide'],
};

/** Animals in a pasture. */
const HERD = 4;

/** The crops of a farm's name (`potato_carrot_and_mushroom_farm` → potato, carrot, mushroom); undefined for another name. */
export function farmCrops(name: string): string[] | undefined {
  const m = /^(.+)_farm$/.exec(name);
  if (!m) return undefined;
  const words = m[1]!.replace(/_and_/g, '_').split('_');
  const crops: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const two = `${words[i]}_${words[i + 1]}`;
    if (i + 1 < words.length && CROPS[two]) {
      crops.push(two);
      i++;
    } else if (CROPS[words[i]!]) crops.push(words[i]!);
    else return undefined;
  }
  return crops.length ? crops : undefined;
}

/** The structure names this module builds, for messages. */
export const STRUCTURE_KINDS = [
  `<crops>_farm (crops: ${Object.keys(CROPS).join(', ')})`,
  `<animal>_pasture (animals: ${Object.keys(ANIMAL_DROPS).join(', ')})`,
  'house',
  'material_factory',
];

/** Farm: a water channel along z at dx = 2, crops in the columns beside it (dx 0, 1, 3, 4), 9 long. */
function farm(crops: string[]): StructurePlan {
  const blocks: StructureBlock[] = [];
  // Sugar cane needs a column beside the water (dx 1 or 3): it gets those first.
  const order = [...crops].sort((a, b) => Number(!!CROPS[b]!.nearWater) - Number(!!CROPS[a]!.nearWater));
  const slots =
    order.length === 1
      ? [[1, 3, 0, 4]]
      : order.length === 2
        ? [
            [1, 0],
            [3, 4],
          ]
        : [[1, 0], [3], [4]];
  const columns = new Map<number, string>();
  order.forEach((crop, i) => {
    for (const dx of slots[Math.min(i, slots.length - 1)] ?? []) if (!columns.has(dx)) columns.set(dx, crop);
  });
  for (let dz = 0; dz < 9; dz++) blocks.push({ dx: 2, dy: -1, dz, state: 'water' });
  for (const [dx, crop] of columns) {
    const c = CROPS[crop]!;
    for (let dz = 0; dz < 9; dz++) {
      if (c.nearWater && dx !== 1 && dx !== 3) continue;
      blocks.push({ dx, dy: -1, dz, state: c.ground }, { dx, dy: 0, dz, state: c.block });
      if (c.tall) blocks.push({ dx, dy: 1, dz, state: c.block });
    }
  }
  return { size: { x: 5, z: 9 }, blocks, animals: [], chests: [], gives: order.map((c) => CROPS[c]!.item) };
}

/** Pasture: an oak fence around 5 × 9 with a gate in its −z side, the animals inside, two acacia logs. */
function pasture(animal: string): StructurePlan {
  const blocks: StructureBlock[] = [];
  for (let dx = 0; dx < 5; dx++)
    for (let dz = 0; dz < 9; dz++) {
      if (dx !== 0 && dx !== 4 && dz !== 0 && dz !== 8) continue;
      blocks.push({ dx, dy: 0, dz, state: dx === 2 && dz === 0 ? 'oak_fence_gate[facing=north]' : 'oak_fence' });
    }
  blocks.push({ dx: 1, dy: 0, dz: 7, state: 'acacia_log[axis=y]' }, { dx: 3, dy: 0, dz: 7, state: 'acacia_log[axis=y]' });
  const animals = Array.from({ length: HERD }, (_, i) => ({ name: animal, dx: 1 + (i % 3), dz: 2 + 2 * Math.floor(i / 3) }));
  return { size: { x: 5, z: 9 }, blocks, animals, chests: [], gives: [...(ANIMAL_DROPS[animal] ?? []), 'acacia_log'] };
}

/** House: 7 × 7, plank walls two high with a doorway on each side, a slab roof; a crafting table and a furnace inside. */
function house(): StructurePlan {
  const blocks: StructureBlock[] = [];
  for (let dx = 0; dx < 7; dx++)
    for (let dz = 0; dz < 7; dz++) {
      const wall = dx === 0 || dx === 6 || dz === 0 || dz === 6;
      const door = (dx === 3 && (dz === 0 || dz === 6)) || (dz === 3 && (dx === 0 || dx === 6));
      if (wall && !door) for (const dy of [0, 1]) blocks.push({ dx, dy, dz, state: 'spruce_planks' });
      blocks.push({ dx, dy: 2, dz, state: 'spruce_slab[type=bottom]' });
    }
  blocks.push({ dx: 1, dy: 0, dz: 1, state: 'crafting_table' }, { dx: 5, dy: 0, dz: 1, state: 'furnace[facing=south]' });
  return { size: { x: 7, z: 7 }, blocks, animals: [], chests: [], gives: [] };
}

/** Material factory: a fenced 8 × 9 yard with coal ore and acacia logs, a crafting table and a chest of tools. */
function factory(): StructurePlan {
  const blocks: StructureBlock[] = [];
  for (let dx = 0; dx < 8; dx++)
    for (let dz = 0; dz < 9; dz++)
      if ((dx === 0 || dx === 7 || dz === 0 || dz === 8) && !(dz === 0 && (dx === 3 || dx === 4)))
        blocks.push({ dx, dy: 0, dz, state: 'spruce_fence' });
  for (const dz of [2, 3, 4, 5]) blocks.push({ dx: 2, dy: 0, dz, state: 'coal_ore' }, { dx: 5, dy: 0, dz, state: 'acacia_log[axis=y]' });
  blocks.push({ dx: 1, dy: 0, dz: 7, state: 'crafting_table' }, { dx: 6, dy: 0, dz: 7, state: 'chest[facing=north]' });
  return {
    size: { x: 8, z: 9 },
    blocks,
    animals: [],
    chests: [{ dx: 6, dy: 0, dz: 7, items: { wooden_pickaxe: 2, wooden_axe: 1 } }],
    gives: ['coal', 'acacia_log', 'wooden_pickaxe', 'wooden_axe'],
  };
}

/**
 * The plan of a named structure.
 *
 * @throws Error for a name this module does not build, listing the kinds it does.
 */
export function structurePlan(name: string): StructurePlan {
  if (name === 'house') return house();
  if (name === 'material_factory' || name === 'mine') return factory();
  const crops = farmCrops(name);
  if (crops) return farm(crops);
  const animal = /^([a-z_]+)_pasture$/.exec(name)?.[1];
  if (animal && ANIMAL_DROPS[animal]) return pasture(animal);
  throw new Error(`no structure "${name}": the structures are ${STRUCTURE_KINDS.join('; ')}`);
}
