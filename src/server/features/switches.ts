/**
 * Levers, buttons and pressure plates, as vanilla 1.21 (the kinds and delays are game facts from
 * minecraft-data: src/game/switches.ts):
 * - a lever flips `powered` on a right-click (`LeverBlock.useWithoutItem`);
 * - a button is pressed by a right-click (`ButtonBlock.useWithoutItem`): `powered` until its
 *   scheduled tick, 20 game ticks later for stone ones and 30 for wooden ones
 *   (`ButtonBlock.press`, `tick`); a click on a pressed button is used but does nothing;
 * - a pressure plate is pressed when an entity it senses overlaps its touch box
 *   (`BasePressurePlateBlock.entityInside`, only while it gives no signal): its signal is computed
 *   from the entities on it and, while it gives one, computed again at a scheduled tick every 20
 *   ticks (10 for weighted plates, whose `power` follows the count) until none is left
 *   (`BasePressurePlateBlock.tick`, `checkPressed`).
 * Every change of signal is announced with the server's `blockPowered` event.
 *
 * Cost: each game tick visits only the entities that moved since the last one, and for each reads
 * the few cells its box overlaps at plate height (`world.sync`, loaded chunks only), and the plates
 * set since the last tick (a plate set under an entity that stands still is pressed too); the
 * scheduled ticks are kept per position (at most one per switch, dropped when it fires, on `reset`
 * and on close). Nothing scans the world.
 *
 * Not modelled: the signal does not power other blocks (doors open by the judge's effects,
 * ../services/redstone.ts `setOpen`), and arrows do not press wooden buttons.
 */
import type { Vec3 } from 'vec3';
import type { BlockPoweredEvent, SquidEntity, SquidServer, SquidWorld } from '../types.ts';
import { blockAt, blockOfState, isTrue, withProperties, type PropertyValue } from '../services/blocks.ts';
import { blockKey, vec } from '../services/geometry.ts';
import { entitiesOnPlate, entitySize, triggersBlocks } from '../services/redstone.ts';
import { PLATE_TOUCH_BOX, plateSignal, signalOf as signalOfBlock, switchKinds, type PlateKind } from '../../game/switches.ts';

/** A block tick scheduled at a position (vanilla `scheduleTick`): a button's release, a plate's check. */
interface Scheduled {
  position: Vec3;
  /** The server tick (`serv.tickCount`) it runs at. */
  due: number;
}

interface SwitchState {
  scheduled: Map<SquidWorld, Map<string, Scheduled>>;
  /** Where each entity was at the last tick (to visit only those that moved). */
  lastSeen: WeakMap<SquidEntity, string>;
  /** The plate states of the registry (only these cells matter to a moving entity). */
  plateStates: Set<number>;
  /** Unpowered plates set since the last pass (`serv.setBlock`), to check for entities already on them. */
  newPlates: Map<SquidWorld, Map<string, Vec3>>;
}

const states = new WeakMap<SquidServer, SwitchState>();

function stateOf(serv: SquidServer): SwitchState {
  const state = states.get(serv);
  if (!state) throw new Error('the switches feature is not installed on this server');
  return state;
}

/** Schedules a block tick at `position` for game tick `due` (replacing one scheduled there). */
function schedule(serv: SquidServer, world: SquidWorld, position: Vec3, due: number): void {
  const { scheduled } = stateOf(serv);
  let inWorld = scheduled.get(world);
  if (!inWorld) scheduled.set(world, (inWorld = new Map()));
  inWorld.set(blockKey(position), { position, due });
}

/** The block ticks scheduled now, in every world (for tests and diagnostics). */
export function scheduledSwitchTicks(serv: SquidServer): number {
  let n = 0;
  for (const inWorld of stateOf(serv).scheduled.values()) n += inWorld.size;
  return n;
}

/** Sets a switch's new state and announces its signal. */
async function setSwitch(
  serv: SquidServer,
  world: SquidWorld,
  position: Vec3,
  name: string,
  stateId: number,
  change: { tick: number; by?: SquidEntity | undefined },
): Promise<void> {
  await serv.setBlock(world, position, stateId);
  const power = signalOfBlock(serv.registry, await blockAt(world, position));
  const { tick, by } = change;
  const event: BlockPoweredEvent = { world, position, name, powered: power > 0, power, tick, ...(by ? { by } : {}) };
  serv.emit('blockPowered', event);
}

/** vanilla `LeverBlock.pull`. */
async function flipLever(serv: SquidServer, world: SquidWorld, position: Vec3, by: SquidEntity): Promise<void> {
  const block = await blockAt(world, position);
  if (block?.name !== 'lever') return;
  await setSwitch(serv, world, position, block.name, withProperties(serv, block, { powered: !isTrue(block.getProperties().powered) }), {
    tick: serv.tickCount,
    by,
  });
}

/** vanilla `ButtonBlock.press`: powered, released by a tick `pressedTicks` later; nothing while powered. */
async function pressButton(serv: SquidServer, world: SquidWorld, position: Vec3, by: SquidEntity): Promise<void> {
  const block = await blockAt(world, position);
  const kind = block && switchKinds(serv.registry).get(block.name);
  if (kind?.kind !== 'button' || isTrue(block.getProperties().powered)) return;
  const tick = serv.tickCount;
  await setSwitch(serv, world, position, block.name, withProperties(serv, block, { powered: true }), { tick, by });
  schedule(serv, world, position, tick + kind.pressedTicks);
}

/**
 * A plate's signal from the entities on it now, set when it changed (vanilla `checkPressed`);
 * schedules the next check while it gives one. `by`: who pressed it, for the event.
 */
async function checkPlate(
  serv: SquidServer,
  world: SquidWorld,
  position: Vec3,
  kind: PlateKind,
  name: string,
  tick: number,
): Promise<void> {
  const block = await blockAt(world, position);
  if (block?.name !== name) return;
  const on = entitiesOnPlate(serv, world, position, kind.sensitivity);
  const signal = plateSignal(kind, on.length);
  const before = signalOfBlock(serv.registry, block);
  if (signal !== before) {
    const changes: Record<string, PropertyValue> = kind.maxWeight === undefined ? { powered: signal > 0 } : { power: signal };
    await setSwitch(serv, world, position, name, withProperties(serv, block, changes), { tick, by: signal > before ? on[0] : undefined });
  }
  if (signal > 0) schedule(serv, world, position, tick + kind.checkTicks);
}

/** Runs the scheduled block ticks that are due: buttons release, plates are checked again. */
async function runScheduled(serv: SquidServer): Promise<void> {
  for (const [world, inWorld] of stateOf(serv).scheduled) {
    for (const [key, entry] of inWorld) {
      if (entry.due > serv.tickCount) continue;
      inWorld.delete(key);
      const block = await blockAt(world, entry.position);
      const kind = block && switchKinds(serv.registry).get(block.name);
      if (kind?.kind === 'button' && isTrue(block.getProperties().powered)) {
        await setSwitch(serv, world, entry.position, block.name, withProperties(serv, block, { powered: false }), { tick: entry.due });
      } else if (kind?.kind === 'plate') {
        await checkPlate(serv, world, entry.position, kind, block.name, entry.due);
      }
    }
  }
}

/** The plate cells an entity's box overlaps at plate height, from the loaded chunks. */
function platesUnder(serv: SquidServer, state: SwitchState, entity: SquidEntity): Vec3[] {
  const { width, height } = entitySize(serv, entity);
  const p = entity.position;
  const half = width / 2;
  const found: Vec3[] = [];
  // A cell's touch box spans y to y + 4/16: cells above the feet minus that height, below the head.
  const y0 = Math.floor(p.y - PLATE_TOUCH_BOX.max.y) + 1;
  const y1 = Math.ceil(p.y + height) - 1;
  for (let x = Math.floor(p.x - half); x <= Math.floor(p.x + half); x++)
    for (let z = Math.floor(p.z - half); z <= Math.floor(p.z + half); z++)
      for (let y = y0; y <= y1; y++) {
        const cell = vec(x, y, z);
        let stateId: number;
        try {
          stateId = entity.world.sync.getBlockStateId(cell);
        } catch {
          continue; // not loaded
        }
        if (state.plateStates.has(stateId)) found.push(cell);
      }
  return found;
}

/** Presses the unpowered plates that entities that moved since the last tick now stand on. */
async function pressPlates(serv: SquidServer): Promise<void> {
  const state = stateOf(serv);
  for (const entity of Object.values(serv.entities)) {
    if (!entity.position || !entity.world?.sync) continue;
    const where = `${entity.position.x},${entity.position.y},${entity.position.z}`;
    if (state.lastSeen.get(entity) === where) continue;
    state.lastSeen.set(entity, where);
    if (!triggersBlocks(entity)) continue;
    for (const cell of platesUnder(serv, state, entity)) {
      if (state.scheduled.get(entity.world)?.has(blockKey(cell))) continue; // pressed: its own ticks check it
      const block = await blockAt(entity.world, cell);
      const kind = switchKinds(serv.registry).get(block.name);
      if (kind?.kind !== 'plate' || signalOfBlock(serv.registry, block) > 0) continue;
      await checkPlate(serv, entity.world, cell, kind, block.name, serv.tickCount);
    }
  }
}

/** Checks the unpowered plates set since the last pass for entities already on them. */
async function checkNewPlates(serv: SquidServer): Promise<void> {
  const state = stateOf(serv);
  const newPlates = [...state.newPlates];
  state.newPlates.clear();
  for (const [world, cells] of newPlates) {
    for (const [key, cell] of cells) {
      if (state.scheduled.get(world)?.has(key)) continue;
      const block = await blockAt(world, cell);
      const kind = switchKinds(serv.registry).get(block.name);
      if (kind?.kind !== 'plate' || signalOfBlock(serv.registry, block) > 0) continue;
      await checkPlate(serv, world, cell, kind, block.name, serv.tickCount);
    }
  }
}

/** Drops every scheduled block tick and plate to check (a reset world, a closed server). */
export function clearSwitchTicks(serv: SquidServer): void {
  states.get(serv)?.scheduled.clear();
  states.get(serv)?.newPlates.clear();
}

/** Installs levers, buttons and pressure plates (block interactions and the per-tick checks). */
export function installSwitches(serv: SquidServer): void {
  const plateStates = new Set<number>();
  const unpoweredPlates = new Set<number>();
  for (const [name, kind] of switchKinds(serv.registry)) {
    const info = serv.registry.blocksByName[name]!;
    if (kind.kind !== 'plate') continue;
    for (let s = info.minStateId; s <= info.maxStateId; s++) {
      plateStates.add(s);
      if (signalOfBlock(serv.registry, blockOfState(serv, s)) === 0) unpoweredPlates.add(s);
    }
  }
  const state: SwitchState = { scheduled: new Map(), lastSeen: new WeakMap(), plateStates, newPlates: new Map() };
  states.set(serv, state);
  const setBlock = serv.setBlock;
  serv.setBlock = async (world: SquidWorld, position: Vec3, stateId: number) => {
    await setBlock(world, position, stateId);
    if (!unpoweredPlates.has(stateId)) return;
    let cells = state.newPlates.get(world);
    if (!cells) state.newPlates.set(world, (cells = new Map()));
    cells.set(blockKey(position), position.clone());
  };

  serv.onBlockInteraction('lever', async ({ block, player }) => {
    await flipLever(serv, player.world, block.position, player);
    return true;
  });
  for (const [name, kind] of switchKinds(serv.registry)) {
    if (kind.kind !== 'button') continue;
    serv.onBlockInteraction(name, async ({ block, player }) => {
      await pressButton(serv, player.world, block.position, player);
      return true;
    });
  }

  // One pass at a time; a tick that comes during a pass gets one more pass after it (which runs
  // everything due by then), so no tick is skipped and nothing queues up.
  let running = false;
  let again = false;
  let closed = false;
  const pass = (): void => {
    running = true;
    again = false;
    runScheduled(serv)
      .then(() => checkNewPlates(serv))
      .then(() => pressPlates(serv))
      .catch((err: unknown) => serv.emit('error', err))
      .finally(() => {
        running = false;
        if (again && !closed) pass();
      });
  };
  serv.on('tick', () => {
    if (closed) return;
    if (running) again = true;
    else pass();
  });
  serv.on('close', () => {
    closed = true;
    clearSwitchTicks(serv);
  });
}
