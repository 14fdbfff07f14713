/**
 * What a bot remembers across restarts, in one file per bot (`bots/<name>/memory.json`): the
 * summarised memory, the recent turns, the goal loop's state, saved places, mode switches and
 * the last conversation partner.
 *
 * Writes are debounced (many changes in a burst cost one write) and atomic (a temporary file
 * renamed over the old one), so a crash never leaves half a file. The file is always written;
 * it is read at start-up only when the `load_memory` setting asks for it. Nothing is lost
 * quietly: a file that does not parse is kept beside it (`memory.json.corrupt-<time>`) and the
 * log says so; temporary files a crashed process left between write and rename are removed.
 */
import { readdirSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MAX_PLACE_NAME, type Place, type PlaceStore } from '../game/places.ts';
import type { ChatTurn } from '../models/types.ts';

/** The goal loop's persisted state. */
export interface SavedGoal {
  text: string;
  state: 'active' | 'paused' | 'stopped';
}

/** The content of `memory.json`. */
export interface SavedMemory {
  /** The summarised memory (at most 500 characters). */
  memory: string;
  /** The history not yet summarised, oldest first. */
  turns: ChatTurn[];
  goal?: SavedGoal;
  places: Record<string, Place>;
  /** Mode switches as the mode controller last set them (mode name → on). */
  modes: Record<string, boolean>;
  lastPartner?: string;
  /** ISO time of the write. */
  savedAt?: string;
}

/** The agent-owned part of a snapshot, read at write time. */
export type AgentSnapshot = Pick<SavedMemory, 'memory' | 'turns' | 'goal' | 'lastPartner'>;

/** Default debounce of writes (ms). */
export const MEMORY_WRITE_DEBOUNCE_MS = 500;

/** A temporary file older than this is stale whoever wrote it (ms): a write takes milliseconds. */
const STALE_TEMP_MS = 10 * 60_000;

/** True while a process of that id runs (on this machine). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // someone else's process: it exists
  }
}

/**
 * Removes the temporary files (`memory.json.<pid>.<n>.tmp`) a process left when it died between
 * writing one and renaming it: those of a process no longer running, and any older than
 * {@link STALE_TEMP_MS} (a reused pid). This process's own are left alone.
 *
 * @returns the files removed.
 */
export function removeStaleTemporaryFiles(file: string): string[] {
  const dir = path.dirname(file);
  const base = path.basename(file);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = /^(.*)\.(\d+)\.\d+\.tmp$/.exec(name);
    if (!m || m[1] !== base) continue;
    const pid = Number(m[2]);
    if (pid === process.pid) continue;
    const tmp = path.join(dir, name);
    try {
      if (running(pid) && Date.now() - statSync(tmp).mtimeMs < STALE_TEMP_MS) continue;
      unlinkSync(tmp);
      removed.push(tmp);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

const isFiniteNumber = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** A `memory.json` that exists but cannot be used; the message says why. */
export class CorruptMemoryError extends Error {
  override name = 'CorruptMemoryError';
}

/**
 * Reads and sanitises a `memory.json`; undefined when the file is missing.
 *
 * @throws CorruptMemoryError when it cannot be read or is not a JSON object (a truncated write,
 *   a hand edit): the caller decides what to keep (see {@link MemoryStore}).
 */
export function readMemoryFile(file: string): SavedMemory | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CorruptMemoryError((err as Error).message);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new CorruptMemoryError('not a JSON object');
  const r = raw as Record<string, unknown>;
  const turns = Array.isArray(r.turns)
    ? r.turns
        .filter((t): t is ChatTurn => !!t && (t.role === 'user' || t.role === 'assistant') && typeof t.content === 'string')
        .map((t) => ({ role: t.role, content: t.content }))
    : [];
  // Names are the user's (`!rememberHere("__proto__")`): collect them in objects without a
  // prototype, where every name is an ordinary key.
  const places: Record<string, Place> = Object.create(null);
  if (r.places && typeof r.places === 'object') {
    for (const [name, p] of Object.entries(r.places as Record<string, Partial<Place>>)) {
      if (p && isFiniteNumber(p.x) && isFiniteNumber(p.y) && isFiniteNumber(p.z)) {
        places[name] = { x: p.x, y: p.y, z: p.z, dimension: typeof p.dimension === 'string' ? p.dimension : 'overworld' };
      }
    }
  }
  const modes: Record<string, boolean> = Object.create(null);
  if (r.modes && typeof r.modes === 'object') {
    for (const [name, on] of Object.entries(r.modes as Record<string, unknown>)) if (typeof on === 'boolean') modes[name] = on;
  }
  const g = r.goal as Partial<SavedGoal> | undefined;
  const goal =
    g && typeof g.text === 'string' && (g.state === 'active' || g.state === 'paused' || g.state === 'stopped')
      ? { text: g.text, state: g.state }
      : undefined;
  return {
    memory: typeof r.memory === 'string' ? r.memory : '',
    turns,
    goal,
    places,
    modes,
    lastPartner: typeof r.lastPartner === 'string' ? r.lastPartner : undefined,
  };
}

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** `memory.json` to write (and read when `load`); undefined keeps everything in memory. */
  file?: string;
  /** Read the file at construction (the `load_memory` setting). */
  load?: boolean;
  /** Wait after a change before writing (ms); default {@link MEMORY_WRITE_DEBOUNCE_MS}. */
  debounceMs?: number;
  log?: (line: string) => void;
}

/**
 * One bot's persisted memory. The agent supplies its part ({@link AgentSnapshot}) through
 * {@link snapshot}; places and modes live here. Call {@link changed} after any change.
 */
export class MemoryStore {
  /** What was read at start-up (only with `load`), for the agent to restore. */
  readonly loaded: SavedMemory | undefined;
  /** Named places, persisted with the rest. */
  readonly places: PlaceStore;
  /** Supplies the agent's part at write time. */
  snapshot: () => AgentSnapshot = () => ({ memory: '', turns: [] });
  readonly #file: string | undefined;
  readonly #debounceMs: number;
  readonly #log: (line: string) => void;
  readonly #places = new Map<string, Place>();
  #modes: Record<string, boolean> = {};
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();
  #seq = 0;
  #closed = false;

  constructor(options: MemoryStoreOptions = {}) {
    this.#file = options.file;
    this.#debounceMs = options.debounceMs ?? MEMORY_WRITE_DEBOUNCE_MS;
    this.#log = options.log ?? (() => {});
    if (options.file) {
      const removed = removeStaleTemporaryFiles(options.file);
      if (removed.length)
        this.#log(`removed ${removed.length} stale temporary memory file(s) a stopped process left: ${removed.join(', ')}`);
    }
    this.loaded = options.load && options.file ? this.#read(options.file) : undefined;
    if (this.loaded) {
      for (const [name, p] of Object.entries(this.loaded.places)) this.#places.set(name, p);
      this.#modes = { ...this.loaded.modes };
    }
    const key = (name: string): string => name.trim().toLowerCase();
    this.places = {
      get: (name) => {
        const p = this.#places.get(key(name));
        return p && { ...p };
      },
      set: (name, place) => {
        const k = key(name);
        if (!k) throw new Error('A place needs a name.');
        if (k.length > MAX_PLACE_NAME) throw new Error(`Place names are at most ${MAX_PLACE_NAME} characters.`);
        this.#places.set(k, { x: place.x, y: place.y, z: place.z, dimension: place.dimension });
        this.changed();
      },
      delete: (name) => {
        const had = this.#places.delete(key(name));
        if (had) this.changed();
        return had;
      },
      list: () => [...this.#places.entries()].map(([n, p]) => [n, { ...p }]),
    };
  }

  /**
   * Reads the file at start-up. One that does not parse is kept beside it as
   * `memory.json.corrupt-<time>` (the next save would overwrite it) and the log says so; the bot
   * starts with an empty memory.
   */
  #read(file: string): SavedMemory | undefined {
    try {
      return readMemoryFile(file);
    } catch (err) {
      if (!(err instanceof CorruptMemoryError)) throw err;
      const kept = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      try {
        renameSync(file, kept);
        this.#log(`${file} does not parse (${err.message}): kept as ${kept}; starting with an empty memory`);
      } catch (renameErr) {
        this.#log(
          `${file} does not parse (${err.message}) and could not be kept aside (${(renameErr as Error).message}): the next save replaces it`,
        );
      }
      return undefined;
    }
  }

  /** The store of bot `name`: `<dir>/<name>/memory.json`. */
  static forBot(name: string, dir: string, options: Omit<MemoryStoreOptions, 'file'> = {}): MemoryStore {
    return new MemoryStore({ ...options, file: path.join(dir, name, 'memory.json') });
  }

  /** The file written, if any. */
  get file(): string | undefined {
    return this.#file;
  }

  /** Mode switches as last saved (mode name → on); a copy. */
  get modes(): Record<string, boolean> {
    return { ...this.#modes };
  }

  /** Records the mode switches (the mode controller calls this when one changes). */
  setModes(modes: Record<string, boolean>): void {
    this.#modes = { ...modes };
    this.changed();
  }

  /** Something persisted changed: write soon (debounced). */
  changed(): void {
    if (!this.#file || this.#closed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#write();
    }, this.#debounceMs);
    this.#timer.unref?.();
  }

  /** Writes now if a write is pending, and resolves when every write has finished. */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      void this.#write();
    }
    await this.#writing;
  }

  /** Flushes, then ignores further changes. */
  async close(): Promise<void> {
    await this.flush();
    this.#closed = true;
  }

  /**
   * The whole content as it would be written now. `places` is built with Object.fromEntries,
   * which defines every name as an own key (`__proto__` included), so JSON keeps them all.
   */
  content(): SavedMemory {
    return {
      ...this.snapshot(),
      places: Object.fromEntries(this.#places),
      modes: { ...this.#modes },
      savedAt: new Date().toISOString(),
    };
  }

  #write(): Promise<void> {
    const file = this.#file!;
    const text = JSON.stringify(this.content(), null, 1);
    const tmp = `${file}.${process.pid}.${++this.#seq}.tmp`;
    this.#writing = this.#writing.then(async () => {
      try {
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(tmp, text);
        await rename(tmp, file);
      } catch (err) {
        this.#log(`could not save memory to ${file}: ${(err as Error).message}`);
      }
    });
    return this.#writing;
  }
}
