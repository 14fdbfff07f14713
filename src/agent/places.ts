/**
 * Named places a bot remembers (`!rememberHere`, `!goToRememberedPlace`), kept in memory and
 * written to a JSON file (by default `bots/<name>/places.json`) after every change, so they
 * survive a restart.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One remembered place: block coordinates and the dimension it is in. */
export interface Place {
  x: number;
  y: number;
  z: number;
  dimension: string;
}

/** Longest place name accepted (characters). */
export const MAX_PLACE_NAME = 64;

export class SavedPlaces {
  readonly #file: string | undefined;
  readonly #places = new Map<string, Place>();

  /**
   * @param file JSON file to load from (if it exists) and save to; undefined = memory only.
   *   A missing or unreadable file starts an empty set.
   */
  constructor(file?: string) {
    this.#file = file;
    if (!file) return;
    try {
      const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Place>;
      for (const [name, p] of Object.entries(raw)) {
        if ([p?.x, p?.y, p?.z].every((n) => typeof n === 'number' && Number.isFinite(n))) {
          this.#places.set(name, { x: p.x, y: p.y, z: p.z, dimension: typeof p.dimension === 'string' ? p.dimension : 'overworld' });
        }
      }
    } catch {
      // no file yet, or a corrupt one: start empty (the next save rewrites it)
    }
  }

  /** The store of bot `name` under `dir` (default `bots`): `<dir>/<name>/places.json`. */
  static forBot(name: string, dir = 'bots'): SavedPlaces {
    return new SavedPlaces(join(dir, name, 'places.json'));
  }

  /** The place called `name` (exact, case-insensitive), if remembered. */
  get(name: string): Place | undefined {
    return this.#places.get(this.#key(name));
  }

  /**
   * Remembers (or moves) `name` at `place` and saves the file.
   *
   * @throws Error when the name is empty or longer than {@link MAX_PLACE_NAME}, or the file cannot be written.
   */
  set(name: string, place: Place): void {
    const key = this.#key(name);
    if (!key) throw new Error('A place needs a name.');
    if (key.length > MAX_PLACE_NAME) throw new Error(`Place names are at most ${MAX_PLACE_NAME} characters.`);
    this.#places.set(key, { ...place });
    this.#save();
  }

  /** Forgets `name`; returns whether it was remembered. */
  delete(name: string): boolean {
    const had = this.#places.delete(this.#key(name));
    if (had) this.#save();
    return had;
  }

  /** All places, in the order they were first remembered. */
  list(): [string, Place][] {
    return [...this.#places.entries()].map(([n, p]) => [n, { ...p }]);
  }

  #key(name: string): string {
    return name.trim().toLowerCase();
  }

  #save(): void {
    if (!this.#file) return;
    mkdirSync(dirname(this.#file), { recursive: true });
    writeFileSync(this.#file, JSON.stringify(Object.fromEntries(this.#places), null, 2) + '\n');
  }
}

const fallback = new Map<string, SavedPlaces>();

/**
 * The places of a bot whose agent has no `places` member yet: one store per bot name per
 * process, persisted to `bots/<name>/places.json`.
 */
export function defaultPlaces(botName: string): SavedPlaces {
  let places = fallback.get(botName);
  if (!places) fallback.set(botName, (places = SavedPlaces.forBot(botName)));
  return places;
}
