/**
 * The dashboard trusts only its own page, tested as an attacker would on loopback, with raw HTTP
 * requests and WebSocket upgrades carrying foreign `Host` and `Origin` headers, against the
 * dashboard of real bots on the embedded server: every route and the socket answer 403; the
 * per-start token of the printed URL is required and becomes an HttpOnly cookie; a bot added from
 * the page cannot point its model at another address or key (a fake provider stands for the
 * attacker's server and must get no request); a huge event is cut before a page gets it; pages are
 * capped.
 */
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { EVENT_TEXT_LIMIT, startDashboard, type Dashboard } from '../../src/app/dashboard/server.ts';
import { ownHosts, refusal } from '../../src/app/dashboard/origin.ts';
import {
  CLOSE_BAD_TOKEN,
  CLOSE_TOO_MANY_PAGES,
  serverMessageSchema,
  tokenCookie,
  type ServerMessage,
} from '../../src/app/dashboard/public/protocol.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { testSettings } from '../helpers/version.ts';
import { waitUntil } from '../helpers/wait.ts';
import { startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';

const botsDir = mkdtempSync(path.join(tmpdir(), 'dashboard-security-'));
let running: RunningBots;
let dashboard: Dashboard;
/** The attacker's model server: it must never be called. */
let attacker: FakeProviderServer;
const SECRET = `sk-ant-${randomBytes(8).toString('hex')}`;

beforeAll(async () => {
  attacker = await startFakeProvider('openai');
  attacker.setHandler(() => 'stolen');
  running = await startAgents({
    settings: testSettings({ dashboard_port: 0 }),
    profiles: [profileSchema.parse({ name: 'Andy' })],
    port: 0,
    botsDir,
    env: { ANTHROPIC_API_KEY: SECRET, HOME: '/root' },
    log: () => {},
  });
  dashboard = await startDashboard({ port: 0, bots: running, botsDir, maxPages: 3 });
}, 60_000);

afterAll(async () => {
  await dashboard?.close();
  await running?.close();
  await attacker?.close();
  rmSync(botsDir, { recursive: true, force: true });
});

const own = () => `127.0.0.1:${dashboard.port}`;

/** A raw HTTP GET with exactly these headers: status, headers and body. */
function get(
  pathname: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: dashboard.port, path: pathname, headers, setHost: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A raw WebSocket upgrade of `/ws` with these headers: 101 when the server would open the socket, else its status. */
function upgrade(headers: Record<string, string>, pathname = '/ws'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port: dashboard.port,
      path: pathname,
      setHost: false,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
        ...headers,
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A page's socket (Node's WebSocket, as a browser: cookie and Origin as given). */
function page(headers: Record<string, string> = {}) {
  const messages: ServerMessage[] = [];
  // Node's WebSocket (undici) takes `{ headers }` where the DOM type has only protocols.
  const init: unknown = { headers };
  const ws = new WebSocket(`ws://${own()}/ws`, init as string[]);
  let size = 0;
  const closed = new Promise<number>((resolve) => {
    ws.onclose = (e) => resolve(e.code);
  });
  ws.onmessage = (e) => {
    size += String(e.data).length;
    messages.push(serverMessageSchema.parse(JSON.parse(String(e.data))));
  };
  return { ws, messages, closed, size: () => size };
}

const cookie = () => `${tokenCookie(dashboard.port)}=${dashboard.token}`;

describe('Origin and Host', () => {
  test('a foreign Host (DNS rebinding) is refused with 403 on every route and on the socket', async () => {
    for (const route of ['/', '/style.css', '/src/app/dashboard/public/app.ts', '/vendor/zod/index.js', `/?token=${dashboard.token}`]) {
      expect((await get(route, { host: own() })).status, route).toBeLessThan(400);
      const refused = await get(route, { host: `rebind.evil.example:${dashboard.port}`, cookie: cookie() });
      expect(refused.status, route).toBe(403);
      expect(refused.body).toMatch(/Refused: Host rebind\.evil\.example:\d+ is not this dashboard's address/);
    }
    expect(await upgrade({ host: own(), cookie: cookie() })).toBe(101);
    expect(await upgrade({ host: `rebind.evil.example:${dashboard.port}`, cookie: cookie() })).toBe(403);
    expect(await upgrade({ host: `localhost:${dashboard.port + 1}`, cookie: cookie() })).toBe(403); // another port is another site
  });

  test("a foreign Origin (another site's page) is refused with 403, on the socket too; the dashboard's own page is served", async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1:1', 'null', 'file://', `http://${own()}.evil.example`]) {
      expect(await upgrade({ host: own(), origin, cookie: cookie() }), origin).toBe(403);
      expect((await get('/', { host: own(), origin })).status, origin).toBe(403);
    }
    expect(await upgrade({ host: own(), origin: `http://${own()}`, cookie: cookie() })).toBe(101);
    expect(await upgrade({ host: `localhost:${dashboard.port}`, origin: `http://localhost:${dashboard.port}`, cookie: cookie() })).toBe(
      101,
    );
    // A page elsewhere gets nothing: its socket never opens, so no event, no command, no memory.json.
    const evil = page({ origin: 'https://evil.example', cookie: cookie() });
    expect(await evil.closed).not.toBe(1000);
    expect(evil.messages).toEqual([]);
  });

  test('the rules: own addresses are the bound one and loopback with the port, a wildcard bind adds the machine, settings add names', () => {
    const hosts = ownHosts('127.0.0.1', 8080);
    expect(refusal({ host: '127.0.0.1:8080' }, hosts)).toBeUndefined();
    expect(refusal({ host: 'LOCALHOST:8080', origin: 'http://localhost:8080' }, hosts)).toBeUndefined();
    expect(refusal({ host: '[::1]:8080' }, hosts)).toBeUndefined();
    expect(refusal({ host: 'attacker.example:8080' }, hosts)).toMatch(/Host attacker\.example:8080/);
    expect(refusal({}, hosts)).toMatch(/Host \(none\)/);
    expect(refusal({ host: '127.0.0.1:8080', origin: 'http://127.0.0.1:8081' }, hosts)).toMatch(/Origin/);
    const proxied = ownHosts('127.0.0.1', 8080, ['mindcraft.example']);
    expect(refusal({ host: 'mindcraft.example', origin: 'https://mindcraft.example' }, proxied)).toBeUndefined();
    expect([...ownHosts('0.0.0.0', 8080)]).toEqual(expect.arrayContaining(['127.0.0.1:8080', 'localhost:8080']));
  });
});

describe('the per-start token', () => {
  test('no dashboard_token: a random token in the printed URL; without it the socket is refused, with it the page gets a cookie it cannot read', async () => {
    expect(dashboard.token).toMatch(/^[\w-]{20,}$/);
    expect(dashboard.url).toBe(`http://${own()}/?token=${dashboard.token}`);
    expect(await page().closed).toBe(CLOSE_BAD_TOKEN);
    expect(await page({ cookie: `${tokenCookie(dashboard.port)}=wrong` }).closed).toBe(CLOSE_BAD_TOKEN);
    const opened = await get(`/?token=${dashboard.token}`, { host: own() });
    expect(opened.status).toBe(303);
    expect(opened.headers.location).toBe('/');
    expect(String(opened.headers['set-cookie'])).toBe(`${cookie()}; HttpOnly; SameSite=Strict; Path=/`);
    const ok = page({ cookie: cookie() });
    await waitUntil(() => ok.messages.some((m) => m.type === 'hello'), 'hello with the cookie');
    ok.ws.close();
    await ok.closed;
  });

  test('a second dashboard makes a token of its own; a token is still required beyond loopback', async () => {
    const other = await startDashboard({ port: 0 });
    try {
      expect(other.token).not.toBe(dashboard.token);
    } finally {
      await other.close();
    }
    await expect(startDashboard({ port: 0, host: '0.0.0.0' })).rejects.toThrow(/set a "dashboard_token" too/);
  });
});

describe('what a page may do', () => {
  test("a bot added from the page takes its provider's preset: no url, no apiKeyEnv; the attacker's server gets no request", async () => {
    const ws = page({ cookie: cookie() });
    await waitUntil(() => ws.messages.some((m) => m.type === 'hello'), 'hello');
    const attempts = [
      { name: 'Mallory', model: { model: 'openai/gpt-test', url: attacker.url, apiKeyEnv: 'ANTHROPIC_API_KEY' } },
      { name: 'Mallory', model: { model: 'openai/gpt-test', url: attacker.url } },
      { name: 'Mallory', model: 'oracle', code_model: { model: 'openai/gpt-test', apiKeyEnv: 'ANTHROPIC_API_KEY' } },
      { name: 'Mallory', model: 'oracle', embedding: { api: 'openai', url: attacker.url } },
      { name: 'Mallory', model: { model: 'openai/gpt-test', url: attacker.url, apiKeyEnv: 'HOME' } },
    ];
    attempts.forEach((profile, i) => ws.ws.send(JSON.stringify({ id: 100 + i, type: 'addBot', profile })));
    await waitUntil(() => ws.messages.filter((m) => m.type === 'reply').length === attempts.length, 'a reply to each');
    const replies = ws.messages.filter((m): m is Extract<ServerMessage, { type: 'reply'; ok: false }> => m.type === 'reply' && !m.ok);
    expect(replies).toHaveLength(attempts.length);
    expect(replies[0]!.fields?.model).toMatch(/url and apiKeyEnv cannot be set from the page/);
    expect(replies[1]!.fields?.model).toMatch(/url cannot be set from the page/);
    expect(replies[2]!.fields?.code_model).toMatch(/apiKeyEnv cannot be set from the page/);
    expect(replies[3]!.fields?.embedding).toMatch(/url cannot be set from the page/);
    expect(replies[4]!.fields?.model).toMatch(/apiKeyEnv must name a provider key variable/);
    expect(running.agents.map((a) => a.name)).toEqual(['Andy']);
    expect(attacker.requests).toEqual([]);
    // A preset model is still added (the oracle here: it needs no key).
    ws.ws.send(JSON.stringify({ id: 200, type: 'addBot', profile: { name: 'Bob', model: 'oracle' } }));
    await waitUntil(() => ws.messages.some((m) => m.type === 'reply' && m.id === 200), 'Bob joins', 30_000);
    expect(ws.messages.find((m) => m.type === 'reply' && m.id === 200)).toMatchObject({ ok: true });
    ws.ws.close();
    await ws.closed;
  }, 60_000);

  test('a 5 MB event is cut before any page gets it; every page after it still gets a small hello', async () => {
    running.bus.publish({ type: 'log', bot: 'Andy', level: 'info', text: 'x'.repeat(5_000_000) });
    const ws = page({ cookie: cookie() });
    await waitUntil(() => ws.messages.some((m) => m.type === 'hello'), 'hello');
    const hello = ws.messages.find((m) => m.type === 'hello')!;
    const huge = hello.type === 'hello' ? hello.events.find((e) => e.type === 'log' && e.text.startsWith('xxxx')) : undefined;
    expect(huge?.type === 'log' && huge.text.length).toBe(EVENT_TEXT_LIMIT + 1);
    expect(ws.size()).toBeLessThan(500_000);
    ws.ws.close();
    await ws.closed;
  });

  test('pages are capped: one more than the limit is closed, and a place frees when a page leaves', async () => {
    const open = [page({ cookie: cookie() }), page({ cookie: cookie() }), page({ cookie: cookie() })];
    for (const p of open) await waitUntil(() => p.messages.some((m) => m.type === 'hello'), 'hello');
    const extra = page({ cookie: cookie() });
    expect(await extra.closed).toBe(CLOSE_TOO_MANY_PAGES);
    open[0]!.ws.close();
    await open[0]!.closed;
    const next = page({ cookie: cookie() });
    await waitUntil(() => next.messages.some((m) => m.type === 'hello'), 'a page after one left');
    for (const p of [...open.slice(1), next]) {
      p.ws.close();
      await p.closed;
    }
  });
});
