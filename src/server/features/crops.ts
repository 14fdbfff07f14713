/**
 * Crops (wheat, carrots, potatoes, beetroots) growing on random ticks, as vanilla `CropBlock`:
 * each random tick a crop with light grows one `age` step with chance 1 / (⌊25 / speed⌋ + 1),
 * where speed is 2 on dry farmland and 4 on moist farmland (vanilla `getGrowthSpeed`, without
 * the neighbouring-farmland bonus and the row penalty).
 *
 * Instead of scanning the world, the server keeps the positions where a crop block was set
 * (any `serv.setBlock` of a crop state: planting, `/setblock`, growth). Every
 * {@link CROP_CHECK_TICKS} ticks each tracked crop gets as many random ticks as the
 * `randomTickSpeed` setting gives a block in that time (3 / 4096 per tick in vanilla).
 */
import type { Vec3 } from 'vec3';
import type { SquidServer, SquidWorld } from '../types.ts';
import { blockAt, withProperties } from '../services/blocks.ts';
import { CROP_SEEDS, isCrop } from '../services/farming.ts';
import { mechanicsOptions } from '../services/game-rules.ts';
import { blockKey, blockPosition, vec, type Position } from '../services/geometry.ts';

/** Blocks in a 16×16×16 section (vanilla random ticks are per section). */
const SECTION_VOLUME = 4096;
/** How often the tracked crops are visited, in ticks. */
export const CROP_CHECK_TICKS = 20;

const tracked = new WeakMap<SquidServer, Map<SquidWorld, Map<string, Position>>>();

function cropsOf(serv: SquidServer, world: SquidWorld): Map<string, Position> {
  let byWorld = tracked.get(serv);
  if (!byWorld) {
    byWorld = new Map();
    tracked.set(serv, byWorld);
  }
  let crops = byWorld.get(world);
  if (!crops) {
    crops = new Map();
    byWorld.set(world, crops);
  }
  return crops;
}

/** Starts tracking a crop position for growth (done automatically for every crop `setBlock`). */
export function trackCrop(serv: SquidServer, world: SquidWorld, pos: Position): void {
  cropsOf(serv, world).set(blockKey(pos), blockPosition(pos));
}

/** Number of crops tracked in a world (for tests and diagnostics). */
export function trackedCropCount(serv: SquidServer, world: SquidWorld): number {
  return cropsOf(serv, world).size;
}

/** Random ticks a block gets in `ticks` game ticks at `randomTickSpeed` (an integer draw of the expectation). */
function randomTicks(ticks: number, randomTickSpeed: number): number {
  const expected = (ticks * randomTickSpeed) / SECTION_VOLUME;
  const whole = Math.floor(expected);
  return whole + (Math.random() < expected - whole ? 1 : 0);
}

/** One random tick of a crop (vanilla `CropBlock.randomTick`); returns false when it is no longer a crop. */
async function randomTickCrop(serv: SquidServer, world: SquidWorld, pos: Position, times: number): Promise<boolean> {
  const block = await blockAt(world, pos);
  if (!block || !isCrop(block.name)) return false;
  const maxAge = (serv.registry.blocksByName[block.name]?.states?.find((s) => s.name === 'age')?.num_values ?? 8) - 1;
  let age = Number(block.getProperties().age ?? 0);
  if (age >= maxAge) return true;
  const below = await blockAt(world, vec(pos.x, pos.y - 1, pos.z));
  if (below?.name !== 'farmland') return true;
  const moist = Number(below.getProperties().moisture ?? 0) > 0;
  const speed = moist ? 4 : 2;
  const chance = 1 / (Math.floor(25 / speed) + 1);
  const start = age;
  for (let i = 0; i < times && age < maxAge; i++) if (Math.random() < chance) age++;
  if (age !== start) await serv.setBlock(world, vec(pos.x, pos.y, pos.z), withProperties(serv, block, { age }));
  return true;
}

/** Installs crop tracking (a `serv.setBlock` wrapper) and the growth timer. */
export function installCrops(serv: SquidServer): void {
  const cropStates = new Map<number, true>();
  for (const name of Object.keys(CROP_SEEDS)) {
    const info = serv.registry.blocksByName[name];
    if (!info) continue;
    for (let s = info.minStateId; s <= info.maxStateId; s++) cropStates.set(s, true);
  }
  const setBlock = serv.setBlock;
  serv.setBlock = async (world: SquidWorld, position: Vec3, stateId: number) => {
    if (cropStates.has(stateId)) trackCrop(serv, world, position);
    return setBlock(world, position, stateId);
  };

  let busy = false;
  serv.on('tick', (_delta, tickCount) => {
    if (busy || tickCount % CROP_CHECK_TICKS !== 0) return;
    const speed = mechanicsOptions(serv).randomTickSpeed;
    if (speed <= 0) return;
    const byWorld = tracked.get(serv);
    if (!byWorld) return;
    busy = true;
    const work: Promise<void>[] = [];
    for (const [world, crops] of byWorld) {
      for (const [key, pos] of crops) {
        const times = randomTicks(CROP_CHECK_TICKS, speed);
        if (times === 0) continue;
        work.push(
          randomTickCrop(serv, world, pos, times).then((still) => {
            if (!still) crops.delete(key);
          }),
        );
      }
    }
    Promise.all(work)
      .catch((err: unknown) => serv.emit('error', err))
      .finally(() => {
        busy = false;
      });
  });
}
