/**
 * What a bot remembers across restarts, in one file per bot (`bots/<name>/memory.json`): the
 * summarised memory, the recent turns, the goal loop's state, saved places, mode switches and
 * the last conversation partner.
 *
 * Writes are debounced (many changes in a burst cost one write) and atomic (a temporary file
 * renamed over the old one), so a crash never leaves half a file. The file is always written;
 * it is read at start-up only when the `load_memory` setting asks for it.
 */
import { readFileSync } from 'node:fs';
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

const isFiniteNumber = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/**
 * Reads and sanitises a `memory.json`; undefined when the file is missing or unreadable
 * (a corrupt file starts a fresh memory rather than stopping the bot).
 */
export function readMemoryFile(file: string): SavedMemory | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== 'object') return undefined;
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
    this.loaded = options.load && options.file ? readMemoryFile(options.file) : undefined;
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
