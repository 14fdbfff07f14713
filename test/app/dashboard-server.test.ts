/**
 * The dashboard's server without bots or a browser: the settings' rules (loopback, or a token),
 * the page's modules (only what the page imports, types stripped, browser-safe), the token on the
 * WebSocket and the run records, malformed requests, and an evaluation's progress as it changes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CampaignBoard } from '../../src/app/dashboard/campaign.ts';
import { pageModules, PAGE_ENTRY } from '../../src/app/dashboard/browser-modules.ts';
import { BotEventBus } from '../../src/agent/events.ts';
import {
  BOTS_KEPT,
  dashboardSettings,
  EVENTS_KEPT,
  startDashboard,
  type Dashboard,
  type DashboardBots,
} from '../../src/app/dashboard/server.ts';
import { CLOSE_BAD_TOKEN, serverMessageSchema, tokenCookie, type ServerMessage } from '../../src/app/dashboard/public/protocol.ts';
import { ConfigError, settingsSchema } from '../../src/settings/index.ts';
import { waitUntil } from '../helpers/wait.ts';

const TOKEN = 's3cret-token';
const out = mkdtempSync(path.join(tmpdir(), 'dashboard-server-'));
const board = new CampaignBoard('crafting tasks', { recordsRoot: path.join(out, 'runs') });
let dashboard: Dashboard;

/** A WebSocket client that keeps every message, validated with the protocol. */
function client(query = '') {
  const messages: ServerMessage[] = [];
  const ws = new WebSocket(`${dashboard.url.replace('http', 'ws')}ws${query}`);
  const closed = new Promise<number>((resolve) => {
    ws.onclose = (e) => resolve(e.code);
  });
  ws.onmessage = (e) => {
    messages.push(serverMessageSchema.parse(JSON.parse(String(e.data))));
  };
  return { ws, messages, closed };
}

beforeAll(async () => {
  mkdirSync(path.join(out, 'runs', 'crafting_a_1'), { recursive: true });
  writeFileSync(path.join(out, 'runs', 'crafting_a_1', 'result.json'), '{"success":true}');
  dashboard = await startDashboard({ port: 0, token: TOKEN, campaign: board });
});

afterAll(async () => {
  await dashboard?.close();
  rmSync(out, { recursive: true, force: true });
});

test('a port already taken is refused with what to set', async () => {
  const taken = Number(new URL(dashboard.url).port);
  await expect(startDashboard({ port: taken })).rejects.toThrow(
    new RegExp(`dashboard's port ${taken} on 127\\.0\\.0\\.1 is taken .*"dashboard_port"`),
  );
});

test('the dashboard is off with port 0, and beyond loopback only with a token', () => {
  const settings = (more: Record<string, unknown>) => settingsSchema.parse(more);
  expect(dashboardSettings(settings({ dashboard_port: 0 }))).toBeUndefined();
  expect(dashboardSettings(settings({}))).toEqual({ host: '127.0.0.1', port: 8080, token: '', viewer: false, allowedHosts: [] });
  expect(() => dashboardSettings(settings({ dashboard_host: '0.0.0.0' }))).toThrow(ConfigError);
  expect(() => dashboardSettings(settings({ dashboard_host: '0.0.0.0' }))).toThrow(/dashboard_token/);
  expect(dashboardSettings(settings({ dashboard_host: '0.0.0.0', dashboard_token: 'x' }))?.host).toBe('0.0.0.0');
});

test("the page's modules are what its entry imports, types stripped, and import no Node code", async () => {
  const modules = pageModules();
  expect([...modules.keys()].sort()).toEqual(
    [
      'agent/events.ts',
      'app/dashboard/public/app.ts',
      'app/dashboard/public/protocol.ts',
      'models/presets.ts',
      'settings/schema.ts',
    ].sort(),
  );
  for (const [file, code] of modules) {
    expect(code, file).not.toMatch(/from ['"]node:/);
    expect(code, file).not.toMatch(/^\s*import type /m);
  }
  const page = await fetch(`${dashboard.url}src/${PAGE_ENTRY}`);
  expect(page.headers.get('content-type')).toMatch(/javascript/);
  expect(await page.text()).toContain("from 'htm/preact'");
  expect((await fetch(`${dashboard.url}src/app/dashboard/server.ts`)).status).toBe(404);
  expect((await fetch(`${dashboard.url}vendor/zod/index.js`)).status).toBe(200);
  expect(await (await fetch(dashboard.url)).text()).toContain('"zod":"/vendor/zod/index.js"');
});

test('without the token the WebSocket and the run records are refused; with it they are served', async () => {
  const refused = client();
  expect(await refused.closed).toBe(CLOSE_BAD_TOKEN);
  expect((await fetch(`${dashboard.url}runs/crafting_a_1/result.json`)).status).toBe(401);
  expect((await fetch(`${dashboard.url}runs/crafting_a_1/result.json?token=wrong`)).status).toBe(401);
  const records = await fetch(`${dashboard.url}runs/crafting_a_1/result.json`, {
    headers: { cookie: `${tokenCookie(dashboard.port)}=${TOKEN}` },
  });
  expect(await records.text()).toBe('{"success":true}');
  const listing = await fetch(`${dashboard.url}runs/crafting_a_1/?token=${TOKEN}`);
  expect(await listing.text()).toContain('result.json');
});

test("an evaluation's progress reaches the page as it changes; malformed requests get a clear reply", async () => {
  const page = client(`?token=${TOKEN}`);
  await waitUntil(() => page.messages.some((m) => m.type === 'hello'), 'hello');
  const hello = page.messages.find((m) => m.type === 'hello');
  expect(hello).toMatchObject({ bots: [], campaign: { title: 'crafting tasks', total: 0 } });

  board.plan([
    { runId: 'crafting/a/1', taskId: 'a', file: 'crafting.json' },
    { runId: 'crafting/b/1', taskId: 'b', file: 'crafting.json' },
    { runId: 'cooking/c/1', taskId: 'c', file: 'cooking.json' },
  ]);
  board.started('crafting/a/1', { agents: ['Andy', 'Jill'], timeoutS: 300 });
  board.score('crafting/a/1', 0.5);
  board.finished('crafting/a/1', { success: true, score: 1, endReason: 'success', folder: path.join(out, 'runs', 'crafting_a_1') });
  board.started('crafting/b/1', { agents: ['Andy', 'Jill'], timeoutS: 300 });
  board.finished('no/such/run', { success: true, score: 1, endReason: 'success' });
  const latest = () => page.messages.filter((m) => m.type === 'campaign').at(-1);
  await waitUntil(
    () => latest()?.type === 'campaign' && latest()!.campaign.active.length === 1 && latest()!.campaign.done === 1,
    'the progress arrives',
  );
  const view = latest()!.type === 'campaign' ? latest()!.campaign : undefined;
  expect(view).toMatchObject({
    total: 3,
    done: 1,
    running: 1,
    left: 1,
    successes: 1,
    files: [
      { file: 'crafting.json', done: 1, successes: 1, total: 2 },
      { file: 'cooking.json', done: 0, successes: 0, total: 1 },
    ],
    active: [{ runId: 'crafting/b/1', agents: ['Andy', 'Jill'], score: null }],
    finished: [{ runId: 'crafting/a/1', success: true, score: 1, link: '/runs/crafting_a_1/' }],
  });
  expect(view!.active[0]!.deadline - view!.active[0]!.startedAt).toBe(300_000);

  page.ws.send('{"id": 3, "type": "launchRockets"}');
  page.ws.send(JSON.stringify({ id: 4, type: 'stop', bot: 'Andy' }));
  await waitUntil(() => page.messages.filter((m) => m.type === 'reply').length === 2, 'two replies');
  const replies = page.messages.filter((m) => m.type === 'reply');
  expect(replies[0]).toMatchObject({ id: 3, ok: false, error: expect.stringMatching(/not understood/) });
  expect(replies[1]).toMatchObject({ id: 4, ok: false, error: expect.stringMatching(/no bots to control/) });
  page.ws.close();
});

test("a graph strategy's run shows its strategy and its live graph", async () => {
  const page = client(`?token=${TOKEN}`);
  await waitUntil(() => page.messages.some((m) => m.type === 'hello'), 'hello');
  board.plan([{ runId: 'crafting/d/dag/1', taskId: 'd', file: 'crafting.json', coordination: 'dag' }]);
  board.started('crafting/d/dag/1', { agents: ['Andy', 'Jill'], timeoutS: 300 });
  const node = (id: string, status: 'success' | 'running', predecessors: string[]) => ({
    id,
    description: `node ${id}`,
    status,
    candidates: ['Andy'],
    assigned: ['Andy'],
    number: 1,
    predecessors,
  });
  board.graph('crafting/d/dag/1', {
    type: 'graph',
    t: 0,
    strategy: 'dag',
    version: 4,
    change: '1.2 to Andy (direct)',
    nodes: [node('1.1', 'success', []), node('1.2', 'running', ['1.1'])],
    edges: [
      { from: '1.1', to: '1.2', origin: 'rule_added' },
      { from: '1.2', to: '1.1', origin: 'rule_removed', removed: true },
    ],
  });
  const latest = () => page.messages.filter((m) => m.type === 'campaign').at(-1);
  const active = () => (latest()?.type === 'campaign' ? latest()!.campaign.active.find((a) => a.runId === 'crafting/d/dag/1') : undefined);
  await waitUntil(() => active()?.graph?.version === 4, 'the graph arrives');
  expect(active()).toMatchObject({
    coordination: 'dag',
    graph: {
      change: '1.2 to Andy (direct)',
      nodes: [
        { id: '1.1', status: 'success', assigned: ['Andy'], predecessors: [] },
        { id: '1.2', status: 'running', predecessors: ['1.1'] },
      ],
      edges: { rule_added: 1, rule_removed: 1 },
    },
  });
  // S-Agents' strategies: who commands whom.
  board.graph('crafting/d/dag/1', {
    type: 'graph',
    t: 0,
    strategy: 'tree',
    version: 5,
    change: 'organisation: tree with Andy as root (Andy→Jill)',
    nodes: [],
    edges: [],
    organisation: {
      kind: 'tree',
      root: 'Andy',
      edges: [{ commander: 'Andy', subordinate: 'Jill' }],
      planning: { Andy: 1, Jill: 0 },
      orders: 0,
      reports: 0,
      refused: 0,
      messages: [],
    },
  });
  await waitUntil(() => active()?.graph?.version === 5, 'the organisation arrives');
  expect(active()!.graph).toMatchObject({ commands: ['Andy→Jill'] });
  board.finished('crafting/d/dag/1', { success: true, score: 1, endReason: 'success' });
  await waitUntil(
    () => latest()?.type === 'campaign' && latest()!.campaign.finished.some((f) => f.runId === 'crafting/d/dag/1'),
    'finished',
  );
  expect(latest()!.type === 'campaign' && latest()!.campaign.finished[0]).toMatchObject({ coordination: 'dag' });
  page.ws.close();
});

test('events are kept for the last BOTS_KEPT bots heard from, EVENTS_KEPT each; a page of an evaluation has no voices', async () => {
  const bus = new BotEventBus();
  const bots = {
    agents: [],
    sessions: [],
    bus,
    address: { host: '127.0.0.1', port: 1, version: '1.21.11', auth: 'offline' },
    profiles: () => [],
    addBot: () => Promise.reject(new Error('none')),
    stopBot: () => Promise.resolve(),
    restartBot: () => Promise.reject(new Error('none')),
    listenToVoice: () => () => {},
  } satisfies DashboardBots;
  const withBots = await startDashboard({ port: 0, token: TOKEN, bots });
  try {
    // Bot0 is heard from again last: kept although it came first.
    for (let i = 0; i < BOTS_KEPT + 6; i++) bus.publish({ type: 'log', bot: `Bot${i}`, level: 'info', text: 'joined' });
    for (let i = 0; i < EVENTS_KEPT + 5; i++) bus.publish({ type: 'log', bot: 'Bot0', level: 'info', text: `line ${i}` });
    const page = new WebSocket(`${withBots.url.replace('http', 'ws')}ws?token=${TOKEN}`);
    const hello = await new Promise<ServerMessage>((resolve) => {
      page.onmessage = (e) => resolve(serverMessageSchema.parse(JSON.parse(String(e.data))));
    });
    page.close();
    const events = hello.type === 'hello' ? hello.events : [];
    const names = new Set(events.map((e) => e.bot));
    expect(names.size).toBe(BOTS_KEPT);
    expect([...names].filter((n) => n !== 'Bot0').sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)))[0]).toBe('Bot7');
    expect(events.filter((e) => e.bot === 'Bot0')).toHaveLength(EVENTS_KEPT);
  } finally {
    await withBots.close();
  }

  const page = client(`?token=${TOKEN}`);
  await waitUntil(() => page.messages.some((m) => m.type === 'hello'), 'hello');
  page.ws.send(JSON.stringify({ type: 'voice', id: 7, on: true }));
  await waitUntil(() => page.messages.some((m) => m.type === 'reply' && m.id === 7), 'the reply');
  expect(page.messages.find((m) => m.type === 'reply' && m.id === 7)).toEqual({
    type: 'reply',
    id: 7,
    ok: false,
    error: 'This dashboard shows an evaluation; it has no voices to play.',
  });
  page.ws.close();
});
