/**
 * A bot's world as prismarine-viewer can draw it, for the headless camera (./camera.ts) and the
 * dashboard's 3D view: prismarine-viewer meshes y >= 0 only (its worker indexes sections by
 * y / 16), and draws a version it lacks with the data of the newest it has of that minor (1.21.4
 * for 1.21.11), whose block state ids differ. So the world it gets is shifted up by -minY (chunks,
 * block updates, entities and the camera alike) and its state ids are carried to the viewer's
 * version by name and properties (../game/state-ids.ts).
 */
import { createRequire } from 'node:module';
import type { Bot } from 'mineflayer';
import type { Vec3 } from 'vec3';
import { stateIdTable } from '../game/state-ids.ts';

const require = createRequire(import.meta.url);

/** The JSON forms of prismarine-chunk's 1.18+ column, section and palette container. */
interface ColumnJson {
  minY?: number;
  sections?: string[];
  [key: string]: unknown;
}
type ContainerJson =
  { type: 'single'; value: number } | { type: 'indirect'; palette: number[] } | { type: 'direct'; data: string } | { type?: undefined };
interface BitArray {
  readonly capacity: number;
  get(index: number): number;
  set(index: number, value: number): void;
  toJson(): string;
}
interface BitArrayClass {
  new (options: { bitsPerValue: number; capacity: number }): BitArray;
  fromJson(j: string): BitArray;
}

/** What prismarine-viewer's WorldView sends on: the events of its `listenToBot`, shifted and carried. */
export type ViewerEvent =
  | [
      'entity',
      {
        id: number;
        name?: string;
        pos?: Vec3;
        width?: number;
        height?: number;
        username?: string;
        pitch?: number;
        yaw?: number;
        delete?: true;
      },
    ]
  | ['blockUpdate', { pos: Vec3; stateId: number }];

/** A bot's world for a prismarine-viewer of `viewerVersion`. */
export class ViewerWorld {
  /** Blocks the world is shifted up by: -minY (64 on 1.18+, 0 before). */
  readonly shift: number;
  readonly #bot: Bot;
  readonly #table: Uint32Array | undefined;

  /**
   * @param viewerVersion the version prismarine-viewer draws the bot's version as (its
   *   `getVersion(bot.version)`).
   */
  constructor(bot: Bot, viewerVersion: string) {
    this.#bot = bot;
    const game = bot.game as { minY?: number }; // set from the dimension codec (1.18+); not in mineflayer's types
    this.shift = -(game.minY ?? 0);
    this.#table = stateIdTable(bot.version, viewerVersion);
  }

  /** `p` in the viewer's coordinates. */
  up(p: Vec3): Vec3 {
    return p.offset(0, this.shift, 0);
  }

  /** A state id of the bot's version as the viewer's version numbers it. */
  stateId(id: number): number {
    return this.#table?.[id] ?? id;
  }

  /** The column at `pos` (world coordinates) as the viewer reads it: `toJson()` only. */
  async getColumnAt(pos: Vec3): Promise<{ toJson(): string } | null> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- prismarine-world's columns are untyped
    const column = await (this.#bot.world as any).getColumnAt(pos);
    if (!column) return null;
    return { toJson: () => this.#columnJson(column.toJson()) };
  }

  #columnJson(json: string): string {
    const column = JSON.parse(json) as ColumnJson;
    if (!column.sections) return json; // a pre-1.18 column: no minY, no palette containers
    column.minY = 0;
    column.sections = column.sections.map((s) => this.#sectionJson(s));
    return JSON.stringify(column);
  }

  /**
   * A section's states in the viewer's ids. A direct container (more distinct states than a
   * palette holds) goes out as a palette container with as many entries: prismarine-chunk's
   * `DirectPaletteContainer.fromJson` drops its data (1.41: its constructor ignores `data`), so
   * the viewer would draw the section as air.
   */
  #sectionJson(json: string): string {
    const section = JSON.parse(json) as { data?: string };
    if (typeof section.data !== 'string') return json;
    const container = JSON.parse(section.data) as ContainerJson;
    const map = (id: number) => this.stateId(id);
    if (container.type === 'single') container.value = map(container.value);
    else if (container.type === 'indirect') container.palette = container.palette.map(map);
    else if (container.type === 'direct') {
      const BitArray = require('prismarine-chunk/src/pc/common/BitArrayNoSpan') as BitArrayClass;
      const direct = BitArray.fromJson(container.data);
      const palette: number[] = [];
      const index = new Map<number, number>();
      const indices: number[] = [];
      for (let i = 0; i < direct.capacity; i++) {
        const id = map(direct.get(i));
        let at = index.get(id);
        if (at === undefined) {
          at = palette.push(id) - 1;
          index.set(id, at);
        }
        indices.push(at);
      }
      const data = new BitArray({ bitsPerValue: Math.max(4, Math.ceil(Math.log2(palette.length))), capacity: direct.capacity });
      indices.forEach((at, i) => data.set(i, at));
      section.data = JSON.stringify({ type: 'indirect', palette, data: data.toJson() });
      return JSON.stringify(section);
    } else return json;
    section.data = JSON.stringify(container);
    return JSON.stringify(section);
  }

  /**
   * Sends what prismarine-viewer's `listenToBot` sends (entities, block updates), shifted and
   * carried, to `emit`; calls `onChunk` with each column the bot loads.
   *
   * @returns a function that removes the listeners.
   */
  listen(emit: (...event: ViewerEvent) => void, onChunk: (pos: Vec3) => void): () => void {
    const bot = this.#bot;
    const entity = (e: Bot['entity']) => ({
      id: e.id,
      name: e.name,
      pos: this.up(e.position),
      width: e.width,
      height: e.height,
      username: e.username,
    });
    const listeners: Record<string, (...args: never[]) => void> = {
      entitySpawn: (e: Bot['entity']) => {
        if (e !== bot.entity) emit('entity', entity(e));
      },
      entityMoved: (e: Bot['entity']) => {
        if (e !== bot.entity) emit('entity', { id: e.id, pos: this.up(e.position), pitch: e.pitch, yaw: e.yaw });
      },
      entityGone: (e: Bot['entity']) => emit('entity', { id: e.id, delete: true }),
      chunkColumnLoad: (pos: Vec3) => onChunk(pos),
      blockUpdate: (old: { position: Vec3 }, now: { stateId?: number; type: number; metadata: number }) =>
        emit('blockUpdate', { pos: this.up(old.position), stateId: this.stateId(now.stateId ?? (now.type << 4) | now.metadata) }),
    };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- mineflayer's event map is typed per event
    for (const [event, listener] of Object.entries(listeners)) bot.on(event as any, listener);
    for (const e of Object.values(bot.entities)) if (e !== bot.entity) emit('entity', entity(e));
    return () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
      for (const [event, listener] of Object.entries(listeners)) bot.removeListener(event as any, listener);
    };
  }
}
