/**
 * The dashboard in a real browser: Playwright (playwright-core) drives Debian's Chromium against
 * the page of real bots on the embedded server, with a real client acting as a person (Steve).
 * The page's live fields follow the bot when it moves and when its inventory changes; a message
 * and a command sent from the page reach the bot and change the world; goal, stop, memory, stop
 * and restart, and the add-bot form work; bad input gets a clear error on the page and nothing
 * breaks. A page of another site (another port) in the same browser, which has the dashboard's
 * cookie, cannot open its socket, and a rebound host name gets 403. A screenshot is kept in
 * test-results/dashboard.png.
 *
 * Needs `chromium` on the PATH (`apt-get install chromium`; `.ci/run` installs it): without it
 * the tests are skipped, and the skip says so.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { chromium, type Browser, type Page } from 'playwright-core';
import { BotEventBus, type BotEvent } from '../../src/agent/events.ts';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { CampaignBoard } from '../../src/app/dashboard/campaign.ts';
import { startDashboard, type Dashboard } from '../../src/app/dashboard/server.ts';
import { profileSchema } from '../../src/settings/index.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { CHROMIUM_ARGS, findChromium, newTestPage, shows } from '../helpers/browser.ts';
import { connectBot, settingsFor, give, serverPlayer, startTestServer, waitUntil } from '../helpers/world.ts';

const CHROMIUM = findChromium();
/** prismarine-viewer is an optional dependency (`npm install --omit=optional` leaves it out). */
const VIEWER_INSTALLED = (() => {
  try {
    createRequire(import.meta.url).resolve('prismarine-viewer');
    return true;
  } catch {
    return false;
  }
})();
const SCREENSHOT = path.resolve('test-results/dashboard.png');

const botsDir = mkdtempSync(path.join(tmpdir(), 'dashboard-'));
const events: BotEvent[] = [];
const whispers: string[] = [];
/** The page's console lines (the 3D view's frame included). */
const pageLines: string[] = [];
let server: EmbeddedServer;
let running: RunningBots;
let dashboard: Dashboard;
let steve: Bot;
let browser: Browser;
let page: Page;
/** An evaluation's progress beside the bots (its runs are reported by the tests). */
const board = new CampaignBoard('coordination strategies');

const andy = () => running.agents.find((a) => a.name === 'Andy')!;
const card = (name: string) => page.locator(`[data-bot=${name}]`);
const field = (name: string, key: string) => card(name).locator(`[data-field=${key}]`);

/** Fills a bot card's one-line form and submits it; resolves with the outcome line's text. */
async function submit(bot: string, form: string, text: string, from?: string): Promise<string> {
  const f = card(bot).locator(`form[data-form=${form}]`);
  if (from) await f.locator('input[name=from]').fill(from);
  await f.locator('input[name=text]').fill(text);
  const outcome = f.locator('[data-role=outcome]');
  const before = Number((await outcome.count()) ? await outcome.getAttribute('data-seq') : 0);
  await f.locator('button[type=submit]').click();
  await shows(
    async () => Number(await outcome.getAttribute('data-seq')),
    (seq) => Number(seq) > before,
  );
  return (await outcome.textContent()) ?? '';
}

describe.skipIf(!CHROMIUM)(
  `the dashboard in Chromium${CHROMIUM ? '' : ' (skipped: no chromium on the PATH; apt-get install chromium)'}`,
  () => {
    beforeAll(async () => {
      server = await startTestServer();
      const bus = new BotEventBus();
      bus.subscribe((e) => {
        events.push(e);
      });
      const settings = settingsFor(server, { dashboard_port: 0 });
      running = await startAgents({ settings, profiles: [profileSchema.parse({ name: 'Andy' })], botsDir, bus });
      dashboard = await startDashboard({ port: 0, bots: running, botsDir, viewer: true, campaign: board });
      steve = await connectBot(server, 'Steve');
      steve.on('whisper', (from, text) => {
        whispers.push(`${from}: ${text}`);
      });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      page = await newTestPage(browser, { viewport: { width: 1280, height: 960 } });
      page.on('console', (message) => {
        pageLines.push(message.text());
      });
      await page.goto(dashboard.url);
      await shows(() => page.locator('[data-role=connection]').textContent(), 'open');
    });

    afterAll(async () => {
      await browser?.close();
      await dashboard?.close();
      steve?.quit();
      await running?.close();
      await server?.close();
      rmSync(botsDir, { recursive: true, force: true });
    });

    test('the page shows the bot live: position and inventory follow the world, the players are listed', async () => {
      await shows(() => field('Andy', 'status').textContent(), 'online');
      await shows(() => field('Andy', 'model').textContent(), 'oracle');
      await shows(() => field('Andy', 'health').textContent(), '20');
      await shows(() => page.locator('[data-player=Steve]').count(), 1);
      const before = await field('Andy', 'position').textContent();
      const { x, y, z } = steve.entity.position.floored();
      steve.chat(`/tp Andy ${x + 3} ${y} ${z}`);
      await waitUntil(() => andy().bot.entity.position.distanceTo(steve.entity.position) < 4, 'Andy is teleported next to Steve');
      await shows(() => field('Andy', 'position').textContent(), `${x + 3.5}, ${y}, ${z + 0.5}`);
      expect(before).not.toBe(`${x + 3.5}, ${y}, ${z + 0.5}`);
      await give(server, andy().bot, 'oak_log', 3);
      await shows(() => card('Andy').locator('[data-item=oak_log]').textContent(), 'oak_log × 3');
    });

    test("a running graph strategy's run shows its strategy and its graph as a tree, changing as it changes", async () => {
      board.plan([{ runId: 'c/cake/dag/1', taskId: 'cake', file: 'c.json', coordination: 'dag' }]);
      board.started('c/cake/dag/1', { agents: ['Andy', 'Jill'], timeoutS: 300 });
      const node = (id: string, status: 'unknown' | 'running' | 'success', predecessors: string[], assigned: string[] = []) => ({
        id,
        description: `subtask ${id}`,
        status,
        candidates: ['Andy', 'Jill'],
        assigned,
        number: 1,
        predecessors,
      });
      const graph = (version: number, status: 'running' | 'success') => ({
        type: 'graph' as const,
        t: 0,
        strategy: 'dag',
        version,
        change: `1.1 ${status}`,
        nodes: [node('1.1', status, [], ['Jill']), node('1.2', 'unknown', ['1.1'])],
        edges: [{ from: '1.1', to: '1.2', origin: 'rule_added' as const }],
      });
      board.graph('c/cake/dag/1', graph(3, 'running'));
      const live = page.locator('[data-graph="c/cake/dag/1"]');
      await shows(() => page.locator('[data-run="c/cake/dag/1"] [data-field=coordination]').textContent(), 'dag');
      await shows(() => live.locator('h4').textContent(), 'cake: graph v3 · edges 1 rule_added');
      // 1.2 waits on 1.1: it is drawn under it.
      await shows(() => live.locator('li[data-node="1.1"] li[data-node="1.2"]').count(), 1);
      await shows(() => live.locator('li[data-node="1.1"]').getAttribute('class'), 'node running');
      board.graph('c/cake/dag/1', graph(4, 'success'));
      await shows(() => live.locator('li[data-node="1.1"]').getAttribute('class'), 'node success');
      board.finished('c/cake/dag/1', { success: true, score: 1, endReason: 'success' });
      await shows(() => live.count(), 0);
    });

    test('a message from the page reaches the bot as a whisper of the named player, and its reply is in the log', async () => {
      const outcome = await submit('Andy', 'say', 'hello Andy', 'Steve');
      expect(outcome).toMatch(/Andy got your message as Steve's whisper/);
      await waitUntil(
        () => events.some((e) => e.type === 'chat' && e.bot === 'Andy' && e.direction === 'in' && e.text === 'hello Andy'),
        'the message is in the stream',
      );
      await waitUntil(() => andy().history.some((t) => t.content === 'Steve: hello Andy'), 'Andy has the message in its history');
      await waitUntil(() => whispers.some((w) => w.startsWith('Andy: ')), 'Andy whispers back to Steve', 20_000);
      await shows(
        () => card('Andy').locator('[data-role=log] .ev-chat').filter({ hasText: 'says to Steve' }).count(),
        (v) => Number(v) > 0,
      );
    });

    test('a command from the page runs on the bot and changes the world; its output is in the log', async () => {
      const outcome = await submit('Andy', 'command', '!givePlayer("Steve", "oak_log", 2)', 'Steve');
      expect(outcome).toMatch(/Andy runs !givePlayer/);
      await waitUntil(() => steve.inventory.items().some((i) => i.name === 'oak_log' && i.count === 2), 'Steve picks up the 2 oak logs', {
        timeoutMs: 30_000,
        // On failure: what Andy's command said and where the logs lie, as Steve sees them.
        state: () => ({
          andy: andy()
            .history.filter((t) => t.content.includes('oak_log'))
            .at(-1)?.content,
          steve: steve.entity.position.toString(),
          items: Object.values(steve.entities)
            .filter((e) => e.name === 'item')
            .map((e) => e.position.toString()),
        }),
      });
      const held = serverPlayer(server, 'Steve')
        .inventory.slots.filter(Boolean)
        .filter((s: { name?: string }) => s.name === 'oak_log');
      expect(held.reduce((n: number, s: { count: number }) => n + s.count, 0)).toBe(2);
      await shows(() => card('Andy').locator('[data-item=oak_log]').textContent(), 'oak_log × 1');
      await shows(
        () => card('Andy').locator('[data-role=log] .ev-command').filter({ hasText: '!givePlayer' }).count(),
        (v) => Number(v) > 0,
      );
    });

    test('bad input gets a clear error on the page, and the page keeps working', async () => {
      expect(await submit('Andy', 'command', 'stats please')).toMatch(/a command starting with !/);
      expect(await submit('Andy', 'command', '!noSuchCommand')).toMatch(/noSuchCommand/);
      expect(await submit('Andy', 'say', 'hi', 'x!')).toMatch(/from: a Minecraft username/);
      // A bot that does not exist, and a message that is not JSON, through the page's own connection.
      const replies = await page.evaluate(async () => {
        const ws = new WebSocket(`ws://${(globalThis as unknown as { location: { host: string } }).location.host}/ws`);
        const got: string[] = [];
        await new Promise((resolve) => {
          ws.onopen = resolve;
        });
        const next = () =>
          new Promise<string>((resolve) => {
            ws.onmessage = (e) => {
              const m = JSON.parse(String(e.data)) as { type: string };
              if (m.type === 'reply') resolve(String(e.data));
            };
          });
        let reply = next();
        ws.send(JSON.stringify({ id: 7, type: 'say', bot: 'Nobody', from: 'Steve', text: 'hi' }));
        got.push(await reply);
        reply = next();
        ws.send('{not json');
        got.push(await reply);
        ws.close();
        return got.map((r) => JSON.parse(r) as { id: number; ok: boolean; error?: string });
      });
      expect(replies[0]).toMatchObject({ id: 7, ok: false, error: expect.stringMatching(/no bot named "Nobody".*Andy/) });
      expect(replies[1]).toMatchObject({ ok: false, error: expect.stringMatching(/not understood/) });
      // The add-bot form: each error beside its field.
      const form = page.locator('form[data-form=addBot]');
      await form.locator('input[name=name]').fill('x!');
      await form.locator('input[name=cooldown_ms]').fill('-5');
      await form.locator('button[type=submit]').click();
      await shows(() => form.locator('[data-field=name] .field-error').textContent(), /Minecraft username/);
      await shows(() => form.locator('[data-field=cooldown_ms] .field-error').textContent(), />=0/);
      // Still live.
      await shows(() => field('Andy', 'status').textContent(), 'online');
      expect(await submit('Andy', 'command', '!stats', 'Steve')).toMatch(/Andy runs !stats/);
    });

    test('goal start and end, a mode switch, stop, and memory.json rendered', async () => {
      await shows(() => field('Andy', 'modes').textContent(), /hunting/);
      expect(await submit('Andy', 'command', '!setMode("hunting", false)', 'Steve')).toMatch(/Andy runs !setMode/);
      await shows(
        () => field('Andy', 'modes').textContent(),
        (v) => !String(v).includes('hunting'),
      );
      await shows(() => card('Andy').locator('[data-role=log] .ev-mode').filter({ hasText: 'mode hunting switched off' }).count(), 1);
      expect(await submit('Andy', 'goal', 'collect ten oak logs')).toMatch(/collect ten oak logs/);
      await shows(() => field('Andy', 'goal').textContent(), 'active: collect ten oak logs');
      await card('Andy').locator('button[data-action=endGoal]').click();
      await shows(() => field('Andy', 'goal').textContent(), /^stopped/);
      await card('Andy').locator('button[data-action=stop]').click();
      await shows(() => card('Andy').locator(':scope > [data-role=outcome]').textContent(), /stopped its action/);
      await waitUntil(() => andy().memoryStore.file !== undefined, 'a memory file');
      await andy().memoryStore.flush();
      await card('Andy').locator('button[data-action=memory]').click();
      const memory = card('Andy').locator('[data-role=memory]');
      await memory.waitFor();
      await shows(() => memory.textContent(), /hello Andy/);
    });

    test.skipIf(!VIEWER_INSTALLED)("the 3D view is loaded only when opened, and streams the bot's world to the page", async () => {
      const loaded = () =>
        Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes(`${path.sep}prismarine-viewer${path.sep}`));
      expect(loaded()).toBe(false);
      await card('Andy').locator('button[data-action=viewer]').click();
      await card('Andy').locator('iframe.viewer').waitFor();
      expect(loaded()).toBe(true);
      // The view's page got the version over its socket.io stream, then draws on a canvas. It draws
      // with the models of the newest version prismarine-viewer has of that minor (1.21.4's for 1.21.11).
      const viewerVersions = createRequire(import.meta.url)('prismarine-viewer/viewer/lib/version.js') as {
        getVersion(version: string): string | null;
      };
      const drawnAs = viewerVersions.getVersion(server.version);
      expect(drawnAs).not.toBeNull();
      await waitUntil(() => pageLines.some((l) => l.includes(`Using version: ${drawnAs}`)), 'the view connects', 30_000);
      await page.frameLocator('iframe.viewer').locator('canvas').waitFor({ timeout: 30_000 });
      await card('Andy').locator('button[data-action=viewer]').click();
      await shows(() => card('Andy').locator('iframe.viewer').count(), 0);
    });

    test("another site's page in the same browser cannot drive the dashboard; a rebound host name is refused", async () => {
      // The attacker's page: another origin (another port), served to the browser that holds the dashboard's cookie.
      const script = `
        const ws = new WebSocket('ws://127.0.0.1:${dashboard.port}/ws');
        ws.onopen = () => ws.send(JSON.stringify({ id: 1, type: 'command', bot: 'Andy', from: 'Steve', text: '!stats' }));
        ws.onmessage = (e) => { document.title = 'got ' + String(e.data).slice(0, 20); };
        ws.onclose = (e) => { document.title = document.title || 'closed ' + e.code; };
      `;
      const evil = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<!doctype html><title></title><script>${script}</script>`);
      });
      await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', () => resolve()));
      const before = events.filter((e) => e.type === 'command').length;
      const other = await newTestPage(browser);
      try {
        // The browser does hold the dashboard's cookie (SameSite does not tell ports apart).
        expect((await page.context().cookies(dashboard.url)).map((c) => c.name)).toContain(`mindcraft_token_${dashboard.port}`);
        await other.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
        await shows(() => other.title(), /^closed /);
        expect(await other.title()).toBe('closed 1006'); // refused at the upgrade (403): never opened
        const rebound = await other.goto(`http://rebind.test:${dashboard.port}/`);
        expect(rebound?.status()).toBe(403);
        expect(await other.locator('body').textContent()).toMatch(/Host rebind\.test:\d+ is not this dashboard's address/);
      } finally {
        await other.close();
        await new Promise((resolve) => evil.close(resolve));
      }
      // Nothing ran: the page's own socket still works and the command never reached Andy.
      expect(events.filter((e) => e.type === 'command').length).toBe(before);
      await shows(() => page.locator('[data-role=connection]').textContent(), 'open');
    });

    test('a bot added from the form joins; a bot stopped from the page leaves and restarts', async () => {
      const form = page.locator('form[data-form=addBot]');
      await form.locator('input[name=name]').fill('Jill');
      await form.locator('input[name=cooldown_ms]').fill('0');
      await form.locator('button[type=submit]').click();
      await shows(() => form.locator('[data-role=outcome]').textContent(), /Jill joined as oracle/, 30_000);
      await shows(() => field('Jill', 'status').textContent(), 'online');
      await waitUntil(() => !!steve.players.Jill, 'Steve sees Jill join');
      await card('Jill').locator('button[data-action=stopBot]').click();
      await shows(() => field('Jill', 'status').textContent(), 'stopped');
      await waitUntil(() => !steve.players.Jill, 'Jill leaves the server');
      await card('Jill').locator('button[data-action=restartBot]').click();
      await shows(() => field('Jill', 'status').textContent(), 'online', 30_000);
      await waitUntil(() => !!steve.players.Jill, 'Jill is back');
      mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    });
  },
);
