/**
 * mineflayer-tool's `equipForBlock` without an endless retrieval when there are no chests.
 *
 * With `getFromChest` (mineflayer-collectblock asks for it on every block it mines:
 * `{ requireHarvest: true, getFromChest: true, maxTools: 2 }`), a bot that holds no tool that
 * harvests the block goes to `retrieveTools`, which walks the tool's `chestLocations`. With none
 * (the default, and ours: the bots keep no tool chests) it returns at once, having found nothing,
 * and `equipForBlock` calls itself again with the same options: an async recursion without end,
 * in microtasks, so the event loop starves and the heap fills to its limit within a minute or two
 * (a bot whose stone pickaxe broke while it mined iron ore took its whole process down, 4 GB).
 * With no chest locations the patch leaves `getFromChest` out, so the call ends as it does without
 * it: `NoItem`, "Bot does not have a harvestable tool!".
 *
 * Upstream: docs/upstream/mineflayer-tool.md. The patch checks first, on a bot-less probe, whether
 * the installed `equipForBlock` still calls itself again after a retrieval from no chests, and
 * leaves a library that does not alone.
 */
import { createRequire } from 'node:module';
import type { FixStatus } from './minecraft-data.ts';

const require = createRequire(import.meta.url);

interface EquipOptions {
  requireHarvest?: boolean;
  getFromChest?: boolean;
  maxTools?: number;
}
interface ToolLike {
  chestLocations: unknown[];
  equipForBlock(block: unknown, options?: EquipOptions, cb?: unknown): Promise<void>;
}
type ToolClass = { new (bot: unknown): ToolLike; prototype: ToolLike };

const PATCHED = Symbol.for('mindcraft-ts.toolWithoutChests');

/**
 * Whether `equipForBlock` calls itself again after a retrieval from no chests: a probe bot holding
 * nothing, a block nothing harvests, the second call stopped by a throw.
 */
async function retriesWithoutEnd(Tool: ToolClass): Promise<boolean> {
  const probe = new Tool({
    inventory: { items: () => [], emptySlotCount: () => 0 },
    entity: { effects: {} },
  });
  const equip = Tool.prototype.equipForBlock;
  let calls = 0;
  probe.equipForBlock = function (this: ToolLike, ...args: Parameters<ToolLike['equipForBlock']>) {
    if (++calls > 1) return Promise.reject(new Error('called again'));
    return equip.apply(this, args);
  };
  await probe
    .equipForBlock({ canHarvest: () => false, digTime: () => Infinity }, { requireHarvest: true, getFromChest: true })
    .catch(() => {});
  return calls > 1;
}

/**
 * Makes `equipForBlock` leave `getFromChest` out when the tool has no chest locations (see the
 * module comment), where the installed mineflayer-tool still retries without end.
 */
export async function toolWithoutChests(): Promise<FixStatus> {
  const { Tool } = require('mineflayer-tool/lib/Tool') as { Tool: ToolClass };
  const proto = Tool.prototype as ToolLike & { [PATCHED]?: true };
  if (proto[PATCHED]) return 'applied before';
  if (!(await retriesWithoutEnd(Tool))) return 'not needed';
  if (proto[PATCHED]) return 'applied before';
  const equip = proto.equipForBlock;
  proto.equipForBlock = function (this: ToolLike, block: unknown, options: EquipOptions = {}, cb?: unknown) {
    const without = options.getFromChest && this.chestLocations.length === 0 ? { ...options, getFromChest: false } : options;
    return equip.call(this, block, without, cb);
  };
  proto[PATCHED] = true;
  return 'applied';
}
