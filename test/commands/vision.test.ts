/**
 * Vision (`allow_vision`): the bot's view rendered headlessly (prismarine-viewer's scene, drawn by
 * headless-gl, src/skills/camera.ts) shows a known scene, a red wall under a light-blue sky, at the
 * size asked; `!lookAtPosition` sends that image to the vision model (a fake OpenAI-protocol server
 * here) and answers with its description and the block at the centre of the view.
 *
 * Without `allow_vision` the look commands only turn the head (movement-commands.test.ts).
 * Skipped, saying why, where the renderer cannot run (gl not built for this Node: `npm run
 * setup:vision`; no X display and no Xvfb). .ci/run installs both.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { PNG } from 'pngjs';
import { Vec3 } from 'vec3';
import type { Agent } from '../../src/agent/agent.ts';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { parseCommand } from '../../src/commands/parser.ts';
import { nameResolver } from '../../src/game/names.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { captureView, rendererAvailable } from '../../src/skills/camera.ts';
import { startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';
import { testSettings } from '../helpers/version.ts';
import { connectBot, waitUntil } from '../helpers/world.ts';

const settings = testSettings({ chat_bot_messages: false, allow_vision: true });
const names = nameResolver(settings.minecraft_version);
let fake: FakeProviderServer;
let running: RunningBots;
let andy: Agent;
let steve: Bot;
let unavailable: string | undefined;
/** Where the wall stands: 3 blocks south (+z) of Andy, 5 wide, 3 high. */
let wallZ = 0;

type Pixel = [number, number, number];
function pixels(png: Buffer): { width: number; height: number; at: (x: number, y: number) => Pixel } {
  const image = PNG.sync.read(png);
  return {
    width: image.width,
    height: image.height,
    at: (x, y) => {
      const i = (y * image.width + x) * 4;
      return [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
    },
  };
}
/** red_wool's texture, lit: clearly red. */
const isRed = ([r, g, b]: Pixel) => r > 80 && r > 2.5 * g && r > 2.5 * b;
/** prismarine-viewer's sky: CSS lightblue, rgb(173, 216, 230), unlit. */
const isSky = ([r, g, b]: Pixel) => Math.abs(r - 173) <= 4 && Math.abs(g - 216) <= 4 && Math.abs(b - 230) <= 4;
/** Share of the pixels of a region (fractions of the image) that pass `test`. */
function share(img: ReturnType<typeof pixels>, [x0, y0, x1, y1]: [number, number, number, number], test: (p: Pixel) => boolean): number {
  let n = 0;
  let hits = 0;
  for (let y = Math.floor(y0 * img.height); y < Math.floor(y1 * img.height); y++) {
    for (let x = Math.floor(x0 * img.width); x < Math.floor(x1 * img.width); x++, n++) if (test(img.at(x, y))) hits++;
  }
  return hits / n;
}

async function run(text: string): Promise<string> {
  const parsed = parseCommand(text, andy.commands, names);
  if (parsed.kind !== 'command') throw new Error(`not a command: ${text}`);
  return andy.execute(parsed);
}

beforeAll(async () => {
  const available = await rendererAvailable();
  if (!available.ok) {
    unavailable = available.reason;
    console.warn(`vision tests skipped: ${unavailable}`);
    return;
  }
  fake = await startFakeProvider('openai', {
    handler: (call) =>
      call.body?.messages?.some((m: { content?: unknown }) => Array.isArray(m.content))
        ? 'A red wool wall in front of me under a blue sky.'
        : 'ok',
  });
  running = await startAgents({
    settings,
    profiles: [profileSchema.parse({ name: 'Andy', model: fake.spec('gpt-test', 'openai') })],
    port: 0,
    env: fake.env,
    log: () => {},
  });
  andy = running.agents[0]!;
  steve = await connectBot(running.server!, 'Steve');
  await waitUntil(() => !!andy.bot.players.Steve?.entity, 'Andy sees Steve');
  // Nothing but the scene in view: Steve out of sight, Andy's head still.
  await run('!setMode("idle_staring", false)');
  const o = andy.bot.entity.position.floored();
  steve.chat(`/tp Steve ${o.x - 20} ${o.y} ${o.z - 20}`);
  wallZ = o.z + 3;
  steve.chat(`/fill ${o.x - 2} ${o.y} ${wallZ} ${o.x + 2} ${o.y + 2} ${wallZ} red_wool`);
  await waitUntil(() => andy.bot.blockAt(new Vec3(o.x, o.y + 2, wallZ))?.name === 'red_wool', 'Andy sees the wall');
}, 60_000);

afterAll(async () => {
  steve?.quit();
  await running?.close();
  await fake?.close();
});

test('the rendered view has the asked size and shows the known scene: the red wall ahead, sky above it', async (ctx) => {
  if (unavailable) ctx.skip();
  await andy.bot.look(Math.PI, 0, true); // south, level: the wall fills the middle
  const view = await captureView(andy.bot, { width: 320, height: 240 });
  const img = pixels(view.png);
  expect([view.width, view.height, img.width, img.height]).toEqual([320, 240, 320, 240]);
  expect(share(img, [0.4, 0.4, 0.6, 0.6], isRed), 'red in the centre').toBeGreaterThan(0.9);
  expect(share(img, [0, 0, 1, 0.08], isSky), 'sky along the top').toBeGreaterThan(0.5);
  expect(share(img, [0, 0, 1, 1], isRed), 'red is not everywhere').toBeLessThan(0.8);

  // Turned round (north), the wall is behind: no red at all.
  await andy.bot.look(0, 0, true);
  const away = pixels((await captureView(andy.bot)).png);
  expect(share(away, [0, 0, 1, 1], isRed)).toBe(0);
}, 60_000);

test('!lookAtPosition sends the view to the vision model and answers with its description and the centre block', async (ctx) => {
  if (unavailable) ctx.skip();
  const o = andy.bot.entity.position.floored();
  const before = fake.requests.length;
  const out = await run(`!lookAtPosition(${o.x}, ${Math.floor(andy.bot.entity.position.y + 1.62)}, ${wallZ})`);
  expect(out).toContain('Image analysis: "A red wool wall in front of me under a blue sky."');
  expect(out).toContain(`Block at the centre of the view: red_wool at (${o.x}, `);
  const vision = fake.requests
    .slice(before)
    .map((r) => r.call!)
    .find((c) => c.body.messages.some((m: { content?: unknown }) => Array.isArray(m.content)))!;
  const last = vision.body.messages.at(-1) as {
    role: string;
    content: Array<{ type: string; text?: string; image_url?: { url: string } }>;
  };
  expect(last.role).toBe('user');
  expect(last.content[0]).toMatchObject({ type: 'text' });
  const url = last.content.find((p) => p.type === 'image_url')!.image_url!.url;
  expect(url.startsWith('data:image/png;base64,')).toBe(true);
  const img = pixels(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64'));
  expect(share(img, [0.4, 0.4, 0.6, 0.6], isRed)).toBeGreaterThan(0.5);
  expect(vision.system).toContain('screenshot of your current view');
}, 60_000);
