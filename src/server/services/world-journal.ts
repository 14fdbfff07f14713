/**
 * The overworld's block writes since the last checkpoint, and the reset that undoes them: every
 * block write is journalled (prismarine-world's `blockUpdate` event, which every write path
 * emits) with the state the position had before its first write; the reset replaces every chunk
 * column that was written to with a newly generated one (the world is generated: superflat, or
 * survival from its seed) and sends it again to every player who has it loaded. Writing the old
 * states back would not do: a chunk section keeps every block state it ever held in its palette,
 * and what reads palettes (mineflayer's `findBlocks`) would still see a table placed and broken.
 */
import type { Vec3 } from 'vec3';
import type { SquidPlayer, SquidServer } from '../types.ts';

/** A column as prismarine-chunk has it: it can be serialised (to compare two copies). */
export interface DumpableColumn {
  dump(): Buffer;
}

/** A world whose columns come from a generator (flying-squid's `World` with one). */
interface GeneratedWorld {
  chunkGenerator(chunkX: number, chunkZ: number): DumpableColumn;
  columns: Record<string, DumpableColumn | undefined>;
  setColumn(chunkX: number, chunkZ: number, column: DumpableColumn): Promise<void>;
}

/** A position written since the checkpoint, with the state it had before. */
export interface JournalledBlock {
  position: Vec3;
  stateId: number;
}

/** What the last reset put back: the positions (with their states again) and the columns it regenerated (in chunks). */
export interface WorldRestore {
  restored: JournalledBlock[];
  columns: { x: number; z: number }[];
}

interface JournalState {
  journal: Map<string, JournalledBlock>;
  /** The reset's own writes are not journalled. */
  paused: boolean;
  last: WorldRestore;
}

const states = new WeakMap<SquidServer, JournalState>();

const key = (p: Vec3): string => `${p.x},${p.y},${p.z}`;

/** Journals the overworld's block writes from now on (the first checkpoint is the world as it starts). */
export function installWorldJournal(serv: SquidServer): void {
  const state: JournalState = { journal: new Map(), paused: false, last: { restored: [], columns: [] } };
  states.set(serv, state);
  const world = serv.overworld as unknown as NodeJS.EventEmitter;
  world.on('blockUpdate', (oldBlock: { position: Vec3; stateId?: number }) => {
    if (state.paused || oldBlock.stateId === undefined) return;
    const k = key(oldBlock.position);
    if (!state.journal.has(k)) state.journal.set(k, { position: oldBlock.position.clone(), stateId: oldBlock.stateId });
  });
}

function stateOf(serv: SquidServer): JournalState {
  const state = states.get(serv);
  if (!state) throw new Error('the world journal is not installed on this server');
  return state;
}

/** Forgets the writes so far: the world as it is now is what {@link resetWorldBlocks} goes back to. */
export function checkpointWorld(serv: SquidServer): void {
  stateOf(serv).journal.clear();
}

/** How many positions were written since the checkpoint (or the last reset). */
export function worldChanges(serv: SquidServer): number {
  return stateOf(serv).journal.size;
}

/** What the last reset put back (see {@link WorldRestore}). */
export function lastRestore(serv: SquidServer): WorldRestore {
  return stateOf(serv).last;
}

/** The server's copy of a column (to compare a client's with), if it is loaded. */
export function serverColumn(serv: SquidServer, x: number, z: number): DumpableColumn | undefined {
  return (serv.overworld as unknown as GeneratedWorld).columns[`${x},${z}`];
}

/**
 * Regenerates every column written to since the checkpoint and sends it again to the players who
 * have it loaded (flying-squid's `player.loadedChunks`).
 */
export async function resetWorldBlocks(serv: SquidServer): Promise<void> {
  const state = stateOf(serv);
  const world = serv.overworld as unknown as GeneratedWorld;
  state.paused = true;
  try {
    const restored = [...state.journal.values()];
    const columns = new Map(
      restored.map(({ position }) => {
        const x = Math.floor(position.x / 16);
        const z = Math.floor(position.z / 16);
        return [`${x},${z}`, { x, z }];
      }),
    );
    state.last = { restored, columns: [...columns.values()] };
    for (const { x, z } of state.last.columns) {
      const column = world.chunkGenerator(x, z);
      await world.setColumn(x, z, column);
      for (const player of serv.players as Array<SquidPlayer & { loadedChunks?: Record<string, number> }>) {
        if (player.loadedChunks?.[`${x},${z}`] !== undefined) await player.sendChunk(x, z, column);
      }
    }
    state.journal.clear();
  } finally {
    state.paused = false;
  }
}
