/**
 * The bot's view, rendered headlessly: prismarine-viewer's scene (three.js meshes of the chunks
 * the bot has loaded, and its entities) drawn by headless-gl into an offscreen WebGL context,
 * read back and encoded as PNG with pngjs. What the reference's `!lookAtPlayer` /
 * `!lookAtPosition` send to a vision model.
 *
 * Needs, beyond the npm packages (optional dependencies: `gl`, `pngjs`, `prismarine-viewer`):
 * - `gl` built for this Node.js: `npm run setup:vision` (scripts/setup-vision.ts) builds it
 *   against this Node's headers (npm does not run its install script);
 * - an X display for headless-gl's GL context: `DISPLAY` when set, else an `Xvfb` (Debian's
 *   `xvfb`) this module starts once per process on a free display and ends at exit.
 * When one is missing, {@link captureView} throws a {@link RendererUnavailableError} saying which
 * and how to install it.
 *
 * One camera per bot, made on first use and kept (its 4 meshing workers and GL context) until the
 * bot ends or {@link closeCamera}. Limits, from prismarine-viewer: block textures of its newest
 * supported version (1.21.4) for later versions, no biome tint, no lighting.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { abortError, throwIfAborted } from '../util/abort.ts';
import { ViewerWorld } from './viewer-world.ts';

/** Default image size, in pixels (the reference's camera: 512×512). */
export const VIEW_WIDTH = 512;
export const VIEW_HEIGHT = 512;
/** Default view distance, in chunks around the bot. */
export const VIEW_DISTANCE = 4;
/** How long a capture waits for the chunks around the bot to be meshed, in ms. */
const MESH_WAIT_MS = 15_000;
/** How long starting Xvfb may take, in ms. */
const XVFB_START_MS = 10_000;

/** A rendered view. */
export interface ViewImage {
  /** The image, PNG-encoded (8-bit RGBA). */
  png: Buffer;
  width: number;
  height: number;
}

/** Options of {@link captureView}; used when the bot's camera is first made. */
export interface CameraOptions {
  /** Image width in pixels (default {@link VIEW_WIDTH}). */
  width?: number;
  /** Image height in pixels (default {@link VIEW_HEIGHT}). */
  height?: number;
  /** Chunks rendered around the bot (default {@link VIEW_DISTANCE}). */
  viewDistance?: number;
}

/** A piece the renderer needs is missing; the message says which and how to install it. */
export class RendererUnavailableError extends Error {
  override readonly name = 'RendererUnavailableError';
}

/* eslint-disable @typescript-eslint/no-explicit-any -- gl, three and prismarine-viewer are CommonJS without types we load */
const require = createRequire(import.meta.url);

interface Renderer {
  createGL: (width: number, height: number, options: object) => any;
  THREE: any;
  Viewer: new (renderer: any) => any;
  WorldView: new (world: any, viewDistance: number, position: any) => any;
  PNG: any;
}

let loaded: Renderer | undefined;
let xvfb: ChildProcess | undefined;

/**
 * Loads the renderer's modules once: headless-gl, three, pngjs, and prismarine-viewer's Viewer and
 * WorldView with two modules replaced for Node (the browser-only pieces it would otherwise need):
 * its texture loader (reads the texture atlas PNG with pngjs instead of node-canvas-webgl) and
 * `canvas` for entity name tags (a blank stand-in).
 */
function loadRenderer(): Renderer {
  if (loaded) return loaded;
  let createGL: Renderer['createGL'];
  try {
    createGL = require('gl');
  } catch (err) {
    const why = (err as Error).message.split('\n')[0];
    throw new RendererUnavailableError(
      `Rendering the bot's view needs the gl package built for this Node.js (${why}). Run \`npm run setup:vision\` (needs python3, g++ and Debian's libxi-dev libglu1-mesa-dev libglew-dev pkg-config).`,
    );
  }
  let viewerRoot: string;
  let PNG: any;
  try {
    viewerRoot = path.dirname(require.resolve('prismarine-viewer/package.json'));
    PNG = require('pngjs').PNG;
  } catch (err) {
    throw new RendererUnavailableError(
      `Rendering the bot's view needs the optional dependencies prismarine-viewer and pngjs: run \`npm install\` without --omit=optional (${(err as Error).message.split('\n')[0]}).`,
    );
  }
  const THREE = require('three');
  const lib = path.join(viewerRoot, 'viewer', 'lib');
  const publicDir = path.join(viewerRoot, 'public');

  // prismarine-viewer's texture loader for Node needs node-canvas-webgl; this one decodes the PNG.
  const textureCache = new Map<string, any>();
  const utils = {
    loadTexture(texture: string, cb: (t: any) => void) {
      let t = textureCache.get(texture);
      if (!t) {
        const png = PNG.sync.read(readFileSync(path.join(publicDir, texture)));
        t = new THREE.DataTexture(new Uint8Array(png.data), png.width, png.height, THREE.RGBAFormat);
        t.needsUpdate = true;
        textureCache.set(texture, t);
      }
      cb(t);
    },
    loadJSON(json: string, cb: (data: unknown) => void) {
      cb(JSON.parse(readFileSync(path.join(publicDir, json), 'utf8')));
    },
  };
  preload(path.join(lib, 'utils.js'), utils);
  // entities.js draws name tags on a node-canvas; a blank stand-in keeps the rest of the entity models.
  const canvasStandIn = path.join(lib, '__canvas_stand_in__.js');
  const blank2d = new Proxy(
    {},
    {
      get: (target: any, key) => (key in target ? target[key] : () => ({ width: 0 })),
      set: (target: any, key, value) => {
        target[key] = value;
        return true;
      },
    },
  );
  preload(canvasStandIn, { createCanvas: (width: number, height: number) => ({ width, height, getContext: () => blank2d }) });
  const Module = require('node:module');
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request: string, parent: { filename?: string } | undefined, ...rest: unknown[]) {
    if (request === 'canvas' && parent?.filename?.startsWith(lib)) return canvasStandIn;
    return resolve.call(this, request, parent, ...rest);
  };
  // Its entity models use a global THREE (its own headless renderer sets it too).
  (globalThis as any).THREE ??= THREE;
  // Its meshing workers are `new Worker(file)` on a global Worker (a browser's, or worker_threads' in Node).
  (globalThis as any).Worker ??= require('node:worker_threads').Worker;
  const { Viewer } = require(path.join(lib, 'viewer.js'));
  const { WorldView } = require(path.join(lib, 'worldView.js'));
  loaded = { createGL, THREE, Viewer, WorldView, PNG };
  return loaded;
}

/** Puts `exports` in the CommonJS cache as the module at `file`, so requiring `file` gets them. */
function preload(file: string, exports: unknown): void {
  const Module = require('node:module');
  const m = new Module(file);
  m.filename = file;
  m.loaded = true;
  m.exports = exports;
  require.cache[file] = m;
}

/**
 * Makes sure headless-gl has an X display: `DISPLAY` when set, else a private Xvfb started once
 * for the process (ended when the process exits).
 *
 * @throws RendererUnavailableError when there is no display and Xvfb is not installed or fails.
 */
async function ensureDisplay(): Promise<void> {
  if (process.env.DISPLAY) return;
  const binary = ['/usr/bin/Xvfb', '/usr/local/bin/Xvfb'].find((p) => existsSync(p));
  if (!binary)
    throw new RendererUnavailableError(
      "Rendering the bot's view needs an X display for headless-gl: set DISPLAY, or install Xvfb (Debian: apt-get install xvfb).",
    );
  const child = spawn(binary, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2_000);
  });
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new RendererUnavailableError(`Xvfb did not start within ${XVFB_START_MS / 1000} s: ${stderr.trim()}`));
    }, XVFB_START_MS);
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${out.trim()}`);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new RendererUnavailableError(`Xvfb exited (code ${code}): ${stderr.trim()}`));
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new RendererUnavailableError(`Xvfb could not start: ${err.message}`));
    });
  });
  child.removeAllListeners('exit');
  child.unref();
  (child.stdio[3] as any).unref?.();
  (child.stderr as any).unref?.();
  process.once('exit', () => child.kill());
  xvfb = child;
  process.env.DISPLAY = display;
}

/** One bot's renderer: a GL context, a three.js renderer, prismarine-viewer's scene and world view. */
class BotCamera {
  readonly width: number;
  readonly height: number;
  readonly #r: Renderer;
  readonly #gl: any;
  readonly #renderer: any;
  readonly #viewer: any;
  readonly #worldView: any;
  readonly #bot: Bot;

  constructor(bot: Bot, r: Renderer, options: CameraOptions) {
    this.#bot = bot;
    this.#r = r;
    this.width = options.width ?? VIEW_WIDTH;
    this.height = options.height ?? VIEW_HEIGHT;
    const gl = r.createGL(this.width, this.height, { preserveDrawingBuffer: true });
    if (!gl)
      throw new RendererUnavailableError(
        `headless-gl could not create a WebGL context on display ${process.env.DISPLAY ?? '(none)'}${xvfb ? ' (our Xvfb)' : ''}.`,
      );
    const canvas = {
      width: this.width,
      height: this.height,
      style: {},
      addEventListener() {},
      removeEventListener() {},
      getContext: () => gl,
    };
    Object.defineProperty(gl, 'canvas', { value: canvas, configurable: true });
    this.#gl = gl;
    this.#renderer = new r.THREE.WebGLRenderer({ canvas, context: gl });
    this.#renderer.setSize(this.width, this.height, false);
    const viewer = new r.Viewer(this.#renderer);
    if (!viewer.setVersion(bot.version)) throw new RendererUnavailableError(`prismarine-viewer cannot render Minecraft ${bot.version}.`);
    this.#viewer = viewer;
    // The world as the viewer draws it: shifted up to y >= 0, in its version's state ids.
    const world = new ViewerWorld(bot, viewer.version);
    this.#world = world;
    // The viewer marks y 0..255 (shifted) of a new column for meshing; the rest of a 1.18+ world's
    // height too.
    const height = (bot.game as { height?: number }).height ?? 256; // from the dimension codec (1.18+); not in mineflayer's types
    const addColumn = viewer.world.addColumn.bind(viewer.world);
    viewer.world.addColumn = (x: number, z: number, chunk: unknown) => {
      addColumn(x, z, chunk);
      for (let y = 256; y < height; y += 16) {
        for (const [dx, dz] of [
          [0, 0],
          [-16, 0],
          [16, 0],
          [0, -16],
          [0, 16],
        ] as const)
          viewer.world.setSectionDirty(new Vec3(x + dx, y, z + dz));
      }
    };
    this.#worldView = new r.WorldView(world, options.viewDistance ?? VIEW_DISTANCE, bot.entity.position);
    viewer.listen(this.#worldView);
    this.#unlisten = world.listen(
      (event, data) => this.#worldView.emit(event, data),
      (pos) => void this.#worldView.loadChunk(pos),
    );
  }

  readonly #world: ViewerWorld;
  readonly #unlisten: () => void;

  /** Starts loading the chunks around the bot; call once before the first capture. */
  async init(): Promise<void> {
    await this.#worldView.init(this.#bot.entity.position);
  }

  /**
   * Renders what the bot sees now (its eye position, yaw and pitch) once the chunks around it are
   * meshed and the textures are loaded.
   */
  async capture(signal?: AbortSignal): Promise<ViewImage> {
    const bot = this.#bot;
    await this.#worldView.updatePosition(bot.entity.position);
    await this.#meshed(signal);
    const camera = this.#viewer.camera;
    const p = bot.entity.position;
    camera.position.set(p.x, p.y + this.#world.shift + (bot.entity.height ?? 1.62), p.z);
    camera.rotation.set(bot.entity.pitch, bot.entity.yaw, 0, 'ZYX');
    this.#renderer.render(this.#viewer.scene, camera);
    const { width: w, height: h } = this;
    const gl = this.#gl;
    const pixels = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    const png = new this.#r.PNG({ width: w, height: h });
    // GL rows run bottom-up; PNG rows top-down.
    for (let y = 0; y < h; y++) png.data.set(pixels.subarray((h - 1 - y) * w * 4, (h - y) * w * 4), y * w * 4);
    return { png: this.#r.PNG.sync.write(png), width: w, height: h };
  }

  /** Waits until no section is being meshed and the texture atlas is set. */
  async #meshed(signal?: AbortSignal): Promise<void> {
    const world = this.#viewer.world;
    const deadline = Date.now() + MESH_WAIT_MS;
    // A dirty section is queued on the next turn of the loop; give it one before the first look.
    await new Promise<void>((r) => setImmediate(r));
    while (world.sectionsOutstanding.size > 0 || !world.material.map) {
      throwIfAborted(signal);
      if (Date.now() > deadline) break; // render what is there rather than nothing
      await new Promise<void>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          world.renderUpdateEmitter.off('update', done);
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          done();
          reject(abortError(signal));
        };
        const timer = setTimeout(done, 100);
        world.renderUpdateEmitter.once('update', done);
        signal?.addEventListener('abort', abort, { once: true });
      });
    }
  }

  /** Ends the meshing workers and frees the GL context. */
  close(): void {
    this.#unlisten();
    for (const worker of this.#viewer.world.workers) void worker.terminate();
    // three's dispose() also stops its animation loop, which needs a browser's requestAnimationFrame.
    try {
      this.#renderer.dispose();
    } catch {
      /* nothing else to free in Node */
    }
    this.#gl.getExtension('STACKGL_destroy_context')?.destroy();
  }
}

const cameras = new WeakMap<Bot, Promise<BotCamera>>();

/**
 * Renders the bot's current view (from its eyes, with its yaw and pitch) as a PNG. The first call
 * for a bot makes its camera (loading the modules, maybe starting Xvfb, meshing the chunks around
 * it: a second or two); later calls re-mesh only what changed.
 *
 * @param options image size and view distance, used when the bot's camera is made.
 * @throws RendererUnavailableError when gl, prismarine-viewer, pngjs or an X display is missing;
 *   AbortError when `signal` aborts.
 */
export async function captureView(bot: Bot, options: CameraOptions = {}, signal?: AbortSignal): Promise<ViewImage> {
  throwIfAborted(signal);
  let camera = cameras.get(bot);
  if (!camera) {
    camera = (async () => {
      const r = loadRenderer();
      await ensureDisplay();
      const c = new BotCamera(bot, r, options);
      bot.once('end', () => closeCamera(bot));
      await c.init();
      return c;
    })();
    cameras.set(bot, camera);
    camera.catch(() => cameras.delete(bot));
  }
  return (await camera).capture(signal);
}

/** Frees the bot's camera, if it has one (done by itself when the bot ends). */
export function closeCamera(bot: Bot): void {
  const camera = cameras.get(bot);
  cameras.delete(bot);
  void camera?.then(
    (c) => c.close(),
    () => {},
  );
}

/**
 * Whether the renderer can run here (gl built for this Node, the optional packages, and a display
 * or Xvfb), without making a camera; the reason when it cannot.
 */
export async function rendererAvailable(): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    loadRenderer();
    await ensureDisplay();
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}
