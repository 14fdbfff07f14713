/**
 * Block commands as on vanilla Java 1.21 (Minecraft wiki "Commands/fill", "Commands/setblock",
 * "Argument types" → block_state): `/fill` with its replace/destroy/keep/hollow/outline modes and
 * the 32768-block volume limit, `/setblock` with replace/destroy/keep, and the
 * `name[property=value,...]` block-state syntax. Block facts (ids, states, loot) come from
 * minecraft-data (`serv.registry`).
 */
import { createRequire } from 'node:module';
import { Vec3 } from 'vec3';
import type { SquidServer } from '../embedded.ts';
import { spawnItemEntity } from './drops.ts';
import { commandAction, CommandError } from './targets.ts';
import { sendFeedback, translatable } from './text.ts';
import type { CommandContext, SquidPlayer } from './types.ts';

const require = createRequire(import.meta.url);

/** vanilla `commandModificationBlockLimit` game rule default: most blocks one /fill may change. */
export const FILL_VOLUME_LIMIT = 32_768;
/** vanilla (Block.popResource): drops of a broken block wait 10 ticks before anyone can pick them up. */
const BLOCK_DROP_PICKUP_DELAY_TICKS = 10;

/** One minecraft-data block state description (`blocks[].states[]`). */
interface StateInfo { name: string; type: 'bool' | 'int' | 'enum' | string; num_values: number; values?: string[] }
/** The minecraft-data block fields we use. */
interface BlockInfo { id: number; name: string; minStateId: number; defaultState: number; states: StateInfo[] }

/** A parsed block argument: the block, the full property set and the resulting state id. */
export interface BlockArgument {
  name: string;
  stateId: number;
  /** Every property of the state (unspecified ones at the block's defaults), as strings. */
  properties: Record<string, string>;
  /** The `{...}` block-entity data written after the state, raw SNBT (not applied by /fill). */
  nbt?: string;
}

/**
 * Splits a command's argument string on whitespace, keeping `[...]`, `{...}` and quoted strings
 * (which may contain spaces) inside one argument.
 */
export function splitBracketedArguments(raw: string | undefined): string[] {
  const out: string[] = [];
  let current = '';
  let depth = 0;
  let quote: string | null = null;
  for (const ch of (raw ?? '').trim()) {
    if (quote) {
      current += ch;
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") { quote = ch; current += ch; continue; }
    if (ch === '[' || ch === '{') depth++;
    if (ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
    if (/\s/.test(ch) && depth === 0) {
      if (current) out.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  if (current) out.push(current);
  return out;
}

/** Index of `value` among a state's values, in minecraft-data order (bool: true = 0, false = 1). */
function stateValueIndex(state: StateInfo, value: string): number {
  if (state.type === 'bool') return value === 'true' ? 0 : value === 'false' ? 1 : -1;
  return state.values?.indexOf(value) ?? -1;
}

/**
 * State id of `block` with `properties` (all of them): minecraft-data orders states so that the
 * last property varies fastest (`stateId = minStateId + Σ index · Π later num_values`).
 */
function stateIdOf(block: BlockInfo, properties: Record<string, string>): number {
  let data = 0;
  for (const state of block.states) data = data * state.num_values + stateValueIndex(state, properties[state.name]!);
  return block.minStateId + data;
}

/** The properties of a state id as strings (`{facing: 'east', half: 'bottom', waterlogged: 'false'}`). */
export function propertiesOfState(serv: SquidServer, stateId: number): Record<string, string> {
  const Block = require('prismarine-block')(serv.registry);
  const props: Record<string, unknown> = Block.fromStateId(stateId, 0).getProperties();
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, String(v)]));
}

/**
 * Parses a vanilla block argument `[minecraft:]name[prop=value,...][{nbt}]`. Unspecified
 * properties take the block's default state.
 *
 * @throws CommandError `argument.block.id.invalid` for an unknown block,
 *   `argument.block.property.unknown` / `.invalid` / `.duplicate` for bad properties.
 */
export function parseBlockArgument(serv: SquidServer, token: string): BlockArgument {
  const match = /^(?:minecraft:)?([a-z0-9_./-]+)(?:\[([^\]]*)\])?(\{.*\})?$/.exec(token);
  if (!match) throw new CommandError(translatable('argument.block.id.invalid', [token]));
  const [, name, propertyList, nbt] = match as unknown as [string, string, string | undefined, string | undefined];
  const block = serv.registry.blocksByName[name] as BlockInfo | undefined;
  if (!block) throw new CommandError(translatable('argument.block.id.invalid', [name]));
  const properties = propertiesOfState(serv, block.defaultState);
  const given = new Set<string>();
  for (const pair of (propertyList ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const [key, value] = pair.split('=').map((p) => p.trim()) as [string, string | undefined];
    const state = block.states.find((s) => s.name === key);
    if (!state) throw new CommandError(translatable('argument.block.property.unknown', [name, key]));
    if (given.has(key)) throw new CommandError(translatable('argument.block.property.duplicate', [key, name]));
    if (value === undefined || stateValueIndex(state, value) < 0) {
      throw new CommandError(translatable('argument.block.property.invalid', [name, value ?? '', key]));
    }
    given.add(key);
    properties[key] = value;
  }
  return { name, stateId: block.states.length ? stateIdOf(block, properties) : block.defaultState, properties, nbt };
}

/** An integer block coordinate token (`12`, `~`, `~-3`) relative to `base` (the caller's block position). */
function parseBlockCoordinate(token: string, base: number): number {
  const match = /^(~)?([-+]?\d+(?:\.\d+)?)?$/.exec(token);
  if (!match || (!match[1] && match[2] === undefined)) throw new CommandError(translatable('argument.pos.missing.int'));
  const value = match[2] === undefined ? 0 : Number(match[2]);
  return Math.floor(match[1] ? base + value : value);
}

/** Resolves three coordinate tokens to a block position; `~` is relative to the caller's feet block. */
export function parseBlockPos(tokens: string[], ctx: CommandContext): Vec3 {
  if (tokens.length < 3) throw new CommandError(translatable('argument.pos3d.incomplete'));
  const origin: Vec3 = ctx.player?.position?.floored?.() ?? new Vec3(0, 0, 0);
  return new Vec3(parseBlockCoordinate(tokens[0]!, origin.x), parseBlockCoordinate(tokens[1]!, origin.y), parseBlockCoordinate(tokens[2]!, origin.z));
}

/** One block write. */
export interface BlockWrite { position: Vec3; stateId: number }

/**
 * Writes many blocks to `world` and shows them to every player in that world: one
 * `multi_block_change` per 16³ chunk section (one `block_change` for a single block), as vanilla
 * sends section updates. Neighbour updates (flying-squid's `updateBlock`) are not triggered.
 */
export async function writeBlocks(serv: SquidServer, world: unknown, writes: BlockWrite[]): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const w = world as any;
  const sections = new Map<string, { x: number; y: number; z: number; records: number[]; last: BlockWrite }>();
  for (const write of writes) {
    await w.setBlockStateId(write.position, write.stateId);
    const sx = Math.floor(write.position.x / 16), sy = Math.floor(write.position.y / 16), sz = Math.floor(write.position.z / 16);
    const key = `${sx},${sy},${sz}`;
    let section = sections.get(key);
    if (!section) sections.set(key, (section = { x: sx, y: sy, z: sz, records: [], last: write }));
    const lx = write.position.x - sx * 16, ly = write.position.y - sy * 16, lz = write.position.z - sz * 16;
    // Protocol record: stateId << 12 | x << 8 | z << 4 | y (section-local).
    section.records.push(write.stateId * 4096 + ((lx << 8) | (lz << 4) | ly));
    section.last = write;
  }
  const players = (serv.players as SquidPlayer[]).filter((p) => p.world === world && !p.disconnected);
  for (const section of sections.values()) {
    for (const player of players) {
      if (section.records.length === 1) player.sendBlock(section.last.position, section.last.stateId);
      else player._client.write('multi_block_change', { chunkCoordinates: { x: section.x, y: section.y, z: section.z }, records: section.records });
    }
  }
}

/**
 * The items a block drops when broken without a tool or entity, as `/fill … destroy` and
 * `/setblock … destroy` do (vanilla `Level.destroyBlock(pos, true)`), from minecraft-data
 * `blockLoot`. minecraft-data flattens loot alternatives: silk-touch entries are skipped, the
 * non-silk-touch alternative is certain, age-bound entries need the block's `age`.
 */
export function blockDropsWithoutTool(serv: SquidServer, name: string, properties: Record<string, string>): Array<{ item: string; count: number }> {
  const loot = serv.registry.blockLoot?.[name]?.drops as Array<{ item: string; dropChance: number; stackSizeRange: [number, number?]; silkTouch?: boolean; noSilkTouch?: boolean; blockAge?: number }> | undefined;
  if (!loot) return [];
  const drops: Array<{ item: string; count: number }> = [];
  for (const entry of loot) {
    if (entry.silkTouch) continue;
    if (entry.blockAge !== undefined && Number(properties.age) !== entry.blockAge) continue;
    const chance = entry.noSilkTouch ? 1 : entry.dropChance;
    if (Math.random() >= chance) continue;
    const [min, max = min] = entry.stackSizeRange;
    const count = min + Math.floor(Math.random() * (max - min + 1));
    if (count > 0 && serv.registry.itemsByName[entry.item]) drops.push({ item: entry.item, count });
  }
  return drops;
}

/** Spawns the no-tool drops of the block (`name`, `properties`) broken at `position` as item entities. */
export function dropBlockLoot(serv: SquidServer, world: unknown, position: Vec3, name: string, properties: Record<string, string>): void {
  const Item = require('prismarine-item')(serv.registry);
  for (const drop of blockDropsWithoutTool(serv, name, properties)) {
    spawnItemEntity(serv, {
      world,
      // vanilla Block.popResource: the block centre ± 0.25 blocks, a small random toss.
      position: { x: position.x + 0.25 + Math.random() * 0.5, y: position.y + 0.25 + Math.random() * 0.5, z: position.z + 0.25 + Math.random() * 0.5 },
      velocity: { x: (Math.random() - 0.5) * 2, y: 2, z: (Math.random() - 0.5) * 2 },
      item: new Item(serv.registry.itemsByName[drop.item].id, drop.count),
      pickupDelayTicks: BLOCK_DROP_PICKUP_DELAY_TICKS,
    });
  }
}

/** `/fill` modes (vanilla `FillCommand.Mode`). */
export type FillMode = 'replace' | 'destroy' | 'keep' | 'hollow' | 'outline';

export interface FillOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  world: any;
  /** Two opposite corners, inclusive, in block coordinates (any order). */
  from: Vec3;
  to: Vec3;
  block: BlockArgument;
  mode: FillMode;
  /** `replace` mode only: change only blocks matching this block (and the properties given). */
  filter?: { name: string; properties: Record<string, string> };
}

/**
 * Fills a box as vanilla `/fill` does:
 * - `replace` (default): every block, or only those matching `filter`;
 * - `destroy`: every block, the old ones dropping their no-tool loot as item entities;
 * - `keep`: only air blocks;
 * - `hollow`: the shell gets the block, the inside becomes air;
 * - `outline`: only the shell, the inside is untouched.
 * Blocks already in the target state are not counted (vanilla counts changed blocks only).
 *
 * @returns the number of blocks changed.
 * @throws CommandError `commands.fill.toobig` when the box exceeds {@link FILL_VOLUME_LIMIT} blocks.
 */
export async function fillRegion(serv: SquidServer, options: FillOptions): Promise<number> {
  const { world, from, to, block, mode, filter } = options;
  const min = new Vec3(Math.min(from.x, to.x), Math.min(from.y, to.y), Math.min(from.z, to.z));
  const max = new Vec3(Math.max(from.x, to.x), Math.max(from.y, to.y), Math.max(from.z, to.z));
  const volume = (max.x - min.x + 1) * (max.y - min.y + 1) * (max.z - min.z + 1);
  if (volume > FILL_VOLUME_LIMIT) throw new CommandError(translatable('commands.fill.toobig', [FILL_VOLUME_LIMIT, volume]));
  const airStates = new Set(['air', 'cave_air', 'void_air'].map((n) => serv.registry.blocksByName[n]?.defaultState).filter((s) => s !== undefined));
  const air = serv.registry.blocksByName.air.defaultState as number;
  const writes: BlockWrite[] = [];
  const destroyed: Array<{ position: Vec3; name: string; properties: Record<string, string> }> = [];
  for (let x = min.x; x <= max.x; x++) {
    for (let y = min.y; y <= max.y; y++) {
      for (let z = min.z; z <= max.z; z++) {
        const position = new Vec3(x, y, z);
        const shell = x === min.x || x === max.x || y === min.y || y === max.y || z === min.z || z === max.z;
        if (mode === 'outline' && !shell) continue;
        const current: number = await world.getBlockStateId(position);
        let target = block.stateId;
        if (mode === 'hollow' && !shell) target = air;
        if (mode === 'keep' && !airStates.has(current)) continue;
        if (filter) {
          const currentBlock = serv.registry.blocksByStateId[current];
          if (currentBlock?.name !== filter.name) continue;
          const props = propertiesOfState(serv, current);
          if (Object.entries(filter.properties).some(([k, v]) => props[k] !== v)) continue;
        }
        if (current === target) continue;
        if (mode === 'destroy' && !airStates.has(current)) {
          destroyed.push({ position, name: serv.registry.blocksByStateId[current]?.name, properties: propertiesOfState(serv, current) });
        }
        writes.push({ position, stateId: target });
      }
    }
  }
  await writeBlocks(serv, world, writes);
  for (const d of destroyed) dropBlockLoot(serv, world, d.position, d.name, d.properties);
  return writes.length;
}

/** The caller's world, or the overworld for the console. */
function worldOf(serv: SquidServer, ctx: CommandContext): unknown {
  return ctx.player?.world ?? serv.overworld;
}

/** Registers `/fill` and `/setblock` (both op-only, as in vanilla), replacing flying-squid's `/setblock`. */
export function installBlockCommands(serv: SquidServer): void {
  const fillUsage = '/fill <from> <to> <block> [replace [<filter>]|destroy|keep|hollow|outline]';
  serv.commands.add({
    base: 'fill',
    info: 'Fills a region with a block',
    usage: fillUsage,
    op: true,
    action: commandAction(serv, async (_args, ctx, raw) => {
      const args = splitBracketedArguments(raw);
      if (args.length < 7 || args.length > 9) throw new CommandError({ text: `Usage: ${fillUsage}` });
      const from = parseBlockPos(args.slice(0, 3), ctx);
      const to = parseBlockPos(args.slice(3, 6), ctx);
      const block = parseBlockArgument(serv, args[6]!);
      const mode = (args[7] ?? 'replace') as FillMode;
      if (!['replace', 'destroy', 'keep', 'hollow', 'outline'].includes(mode)) throw new CommandError({ text: `Usage: ${fillUsage}` });
      if (args[8] !== undefined && mode !== 'replace') throw new CommandError({ text: `Usage: ${fillUsage}` });
      let filter: FillOptions['filter'];
      if (args[8] !== undefined) {
        const parsed = parseBlockArgument(serv, args[8]);
        // Only the properties written in the filter must match (vanilla BlockPredicateArgument).
        const written = /\[([^\]]*)\]/.exec(args[8])?.[1] ?? '';
        const keys = written.split(',').map((p) => p.split('=')[0]!.trim()).filter(Boolean);
        filter = { name: parsed.name, properties: Object.fromEntries(keys.map((k) => [k, parsed.properties[k]!])) };
      }
      const count = await fillRegion(serv, { world: worldOf(serv, ctx), from, to, block, mode, filter });
      if (count === 0) throw new CommandError(translatable('commands.fill.failed'));
      sendFeedback(serv, ctx.player, translatable('commands.fill.success', [count]));
    }),
  });

  const setblockUsage = '/setblock <pos> <block> [destroy|keep|replace]';
  serv.commands.add({
    base: 'setblock',
    info: 'Changes a block',
    usage: setblockUsage,
    op: true,
    action: commandAction(serv, async (_args, ctx, raw) => {
      const args = splitBracketedArguments(raw);
      if (args.length < 4 || args.length > 5) throw new CommandError({ text: `Usage: ${setblockUsage}` });
      const position = parseBlockPos(args.slice(0, 3), ctx);
      const block = parseBlockArgument(serv, args[3]!);
      const mode = args[4] ?? 'replace';
      if (!['replace', 'destroy', 'keep'].includes(mode)) throw new CommandError({ text: `Usage: ${setblockUsage}` });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const world = worldOf(serv, ctx) as any;
      const current: number = await world.getBlockStateId(position);
      const currentName: string | undefined = serv.registry.blocksByStateId[current]?.name;
      const isAir = currentName === 'air' || currentName === 'cave_air' || currentName === 'void_air';
      if ((mode === 'keep' && !isAir) || current === block.stateId) throw new CommandError(translatable('commands.setblock.failed'));
      const oldProperties = propertiesOfState(serv, current);
      await serv.setBlock(world, position, block.stateId);
      if (mode === 'destroy' && !isAir && currentName) dropBlockLoot(serv, world, position, currentName, oldProperties);
      sendFeedback(serv, ctx.player, translatable('commands.setblock.success', [position.x, position.y, position.z]));
    }),
  });
}
