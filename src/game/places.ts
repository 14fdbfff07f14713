/**
 * Named places: the vocabulary shared by the commands that save and use them (`!rememberHere`,
 * `!goToRememberedPlace`, `!savedPlaces`), the skills that walk there, and the agent's memory
 * file that persists them.
 */

/** One remembered place: block coordinates and the dimension it is in (e.g. `overworld`). */
export interface Place {
  x: number;
  y: number;
  z: number;
  dimension: string;
}

/** Longest place name accepted (characters). */
export const MAX_PLACE_NAME = 64;

/** Named places (`!rememberHere`, `!goToRememberedPlace`). Names are case-insensitive. */
export interface PlaceStore {
  /** The place called `name`, if remembered. */
  get(name: string): Place | undefined;
  /**
   * Remembers (or moves) `name` at `place`.
   *
   * @throws Error when the name is empty or longer than {@link MAX_PLACE_NAME}.
   */
  set(name: string, place: Place): void;
  /** Forgets `name`; returns whether it was remembered. */
  delete(name: string): boolean;
  /** All places, in the order they were first remembered. */
  list(): [string, Place][];
}
