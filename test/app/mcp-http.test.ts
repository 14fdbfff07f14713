/**
 * The MCP server over Streamable HTTP, in this process: `startMcp` starts the embedded server and
 * two bots (Andy with his model off, the client being his brain; Jill with hers on, the offline
 * oracle), and the SDK's own `Client` with `StreamableHTTPClientTransport` talks to it with the
 * bearer token. Steve, a plain mineflayer client, is the player. Also: what the server refuses
 * (a wrong token, a foreign Origin, another Host, a body too large, too many requests or
 * sessions), and that a session's journal cursor is its own.
 */
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  LATEST_PROTOCOL_VERSION,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Agent } from '../../src/agent/agent.ts';
import { BotEventBus } from '../../src/agent/events.ts';
import { serveHttp } from '../../src/app/mcp/http.ts';
import { startMcp, type RunningMcp } from '../../src/app/mcp/start.ts';
import { giveItems } from '../../src/server/services/inventory.ts';
import { ConfigError, profileSchema } from '../../src/settings/index.ts';
import { testSettings } from '../helpers/version.ts';
import { connectBot, serverPlayer, teleport, waitUntil } from '../helpers/world.ts';

const TOKEN = 'mcp-test-token';
const botsDir = mkdtempSync(path.join(tmpdir(), 'mcp-http-'));
const clients: Client[] = [];
let mcp: RunningMcp;
let steve: Bot;
let andy: Agent;
let jill: Agent;

/** A connected SDK client (with the token unless told otherwise, and any extra headers). */
async function connect(headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }, url = mcp.http!.url): Promise<Client> {
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

function outcome(result: unknown): { text: string; isError: boolean; data: Record<string, unknown> | undefined } {
  const r = result as CallToolResult;
  const first = r.content[0];
  return { text: first?.type === 'text' ? first.text : '', isError: r.isError === true, data: r.structuredContent };
}

/** An initialize request as raw JSON. */
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** A raw POST to `url` with the headers given (Host included, which fetch does not let one set). */
function post(
  url: string,
  headers: Record<string, string>,
  body = INITIALIZE,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  mcp = await startMcp({
    settings: testSettings({ dashboard_port: 0, goal_idle_ms: 600_000 }),
    profiles: [profileSchema.parse({ name: 'Andy' }), profileSchema.parse({ name: 'Jill', mcp_model: 'on' })],
    bus: new BotEventBus(),
    port: 0,
    botsDir,
    transport: { kind: 'http', port: 0, token: TOKEN },
    log: () => {},
  });
  [andy, jill] = mcp.running.agents as [Agent, Agent];
  steve = await connectBot(mcp.running.server!, 'Steve');
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  steve?.quit();
  await mcp?.close();
  rmSync(botsDir, { recursive: true, force: true });
});

test('with two bots every tool takes a required `bot`; a call without one says which bots there are', async () => {
  const client = await connect();
  const { tools } = await client.listTools();
  for (const tool of tools) {
    expect(tool.inputSchema.properties?.bot, tool.name).toEqual({
      type: 'string',
      enum: ['Andy', 'Jill'],
      description: 'the bot: Andy, Jill',
    });
    expect(tool.inputSchema.required?.[0], tool.name).toBe('bot');
  }
  const unnamed = outcome(await client.callTool({ name: 'inventory', arguments: {} }));
  expect(unnamed).toMatchObject({ isError: true, text: 'Name the bot: "bot" must be one of Andy, Jill.' });
  const wrong = outcome(await client.callTool({ name: 'inventory', arguments: { bot: 'Bob' } }));
  expect(wrong.text).toBe('"bot" must be one of Andy, Jill, got "Bob".');
  expect(client.getInstructions()).toMatch(/You are the brain of Andy.*\n.*Jill keep their own model on/);
});

test('a query and an action over HTTP: Andy places a block that Steve then sees, with progress; a bad argument is a tool error', async () => {
  const client = await connect();
  const at = andy.bot.entity.position.floored();
  giveItems(serverPlayer(mcp.running.server!, 'Andy'), 'cobblestone', 1);
  await waitUntil(async () => {
    const inv = outcome(await client.callTool({ name: 'inventory', arguments: { bot: 'Andy' } }));
    return inv.text.includes('cobblestone');
  }, 'Andy holds the cobblestone');
  const target = at.offset(2, 0, 0);
  const progress: Progress[] = [];
  const placed = outcome(
    await client.callTool(
      { name: 'placeBlockAt', arguments: { bot: 'Andy', type: 'cobblestone', x: target.x, y: target.y, z: target.z } },
      undefined,
      {
        onprogress: (p) => progress.push(p),
      },
    ),
  );
  expect(placed.isError, placed.text).toBe(false);
  expect(placed.data).toMatchObject({
    bot: 'Andy',
    command: '!placeBlockAt',
    ok: true,
    data: { position: { x: target.x, y: target.y, z: target.z } },
  });
  expect(progress[0]?.progress).toBe(0);
  await waitUntil(() => steve.blockAt(new Vec3(target.x, target.y, target.z))?.name === 'cobblestone', 'Steve sees the cobblestone');

  const bad = outcome(
    await client.callTool({ name: 'givePlayer', arguments: { bot: 'Andy', player_name: 'Steve', item_name: 'cobblestone', num: 'three' } }),
  );
  expect(bad.isError).toBe(true);
  expect(bad.text).toContain('!givePlayer: parameter 3 "num" expects');
  expect(bad.text).toContain('got "three"');
});

test('the surroundings resource reports Steve coming near; the update arrives as a notification', async () => {
  const client = await connect();
  const uri = 'mindcraft://bots/Andy/surroundings';
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updates.push(n.params.uri);
  });
  const { resources } = await client.listResources();
  expect(resources.map((r) => r.uri)).toEqual(
    ['Andy', 'Jill'].flatMap((b) => ['state', 'surroundings', 'memory'].map((k) => `mindcraft://bots/${b}/${k}`)),
  );
  await client.subscribeResource({ uri });
  const read = async () => {
    const first = (await client.readResource({ uri })).contents[0];
    return JSON.parse(first && 'text' in first ? first.text : '{}') as { entities: { kind: string; name: string; distance: number }[] };
  };
  const a = andy.bot.entity.position;
  await teleport(steve, a.x + 30, a.y, a.z);
  await waitUntil(async () => !(await read()).entities.some((e) => e.name === 'Steve'), 'Steve out of range');
  const seen = updates.length;
  await teleport(steve, a.x + 4, a.y, a.z);
  await waitUntil(
    async () => updates.length > seen && (await read()).entities.some((e) => e.kind === 'player' && e.name === 'Steve'),
    'an update with Steve near',
    {
      state: () => updates,
    },
  );
  expect(new Set(updates)).toEqual(new Set([uri]));
  await expect(client.readResource({ uri: 'mindcraft://bots/Bob/state' })).rejects.toThrow(/No resource .*bots Andy, Jill/);
});

test('cancelling an action that runs until stopped ends it within a second of the cancellation reaching the bot, as !stop', async () => {
  const client = await connect();
  const controller = new AbortController();
  // When the cancellation reached the agent (the transport's own latency is not the agent's).
  let heard: { at: number; reason: string } | undefined;
  const stop = andy.stop.bind(andy);
  andy.stop = (reason: string) => {
    heard ??= { at: Date.now(), reason };
    return stop(reason);
  };
  let ended = 0;
  const off = andy.actions.subscribe((e) => {
    if (e.type === 'end' && e.label === '!stay') ended = Date.now();
  });
  try {
    const call = client.callTool({ name: 'stay', arguments: { bot: 'Andy', type: -1 } }, undefined, { signal: controller.signal });
    await waitUntil(() => andy.actions.current === '!stay', 'Andy stays');
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitUntil(() => ended > 0, '!stay ends', 5_000);
    expect(heard?.reason).toBe('cancelled by mcp');
    expect(ended - heard!.at).toBeLessThan(1_000);
  } finally {
    off();
    andy.stop = stop;
  }
});

test("whose hands: Andy's model is off (Steve's words wait for the client), Jill's is on (the client sees what it did)", async () => {
  const client = await connect();
  const logs: { logger?: string; data: unknown }[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push({ logger: n.params.logger, data: n.params.data });
  });
  await client.setLoggingLevel('info');
  expect(andy.model.id).toBe('mcp-client');
  expect(jill.model.id).toBe('oracle');
  const a = andy.bot.entity.position;
  await teleport(steve, a.x + 8, a.y, a.z);
  const before = andy.bot.entity.position.clone();
  steve.whisper('Andy', 'come here');
  steve.whisper('Jill', 'come here');
  // Jill's model answers Steve with a walk, which the client reads as the model's outcome.
  type Entry = { kind: string; by?: string; command?: string; from?: string; text?: string };
  const read = async (bot: string) =>
    (outcome(await client.callTool({ name: 'readMessages', arguments: { bot, limit: 200 } })).data?.entries ?? []) as Entry[];
  const jillSaw: Entry[] = [];
  await waitUntil(
    async () => {
      jillSaw.push(...(await read('Jill')));
      return jillSaw.some((e) => e.kind === 'outcome' && e.by === 'model' && e.command === '!goToPlayer');
    },
    "Jill's model walks to Steve",
    { timeoutMs: 20_000, state: () => jillSaw.slice(-5) },
  );
  expect(logs.some((l) => l.logger === 'Jill' && (l.data as Entry).by === 'model' && (l.data as Entry).command === '!goToPlayer')).toBe(
    true,
  );
  // Andy heard Steve too; the client has his words; Andy himself neither moved nor answered.
  const andySaw = await read('Andy');
  expect(andySaw.some((e) => e.kind === 'message' && e.from === 'Steve' && e.text === 'come here')).toBe(true);
  expect(andySaw.some((e) => e.kind === 'outcome' && e.by === 'model')).toBe(false);
  expect(andySaw.some((e) => e.kind === 'said')).toBe(false);
  expect(andy.bot.entity.position.distanceTo(before)).toBeLessThan(0.5);
});

test("one session's cursor is its own: reading moves it for that session only", async () => {
  const [a, b] = [await connect(), await connect()];
  const read = async (client: Client) =>
    outcome(await client.callTool({ name: 'readMessages', arguments: { bot: 'Andy', limit: 200 } })).data as {
      cursor: number;
      entries: unknown[];
    };
  // A fresh session reads from what the journal keeps; then only what is new.
  const first = await read(a);
  expect(first.entries.length).toBeGreaterThan(0);
  const again = await read(a);
  expect(again.entries.filter((e) => (e as { from?: string }).from === 'Steve')).toEqual([]);
  // The other session reads everything still, from its own cursor.
  const other = await read(b);
  expect(other.cursor).toBeGreaterThanOrEqual(first.cursor);
  expect(other.entries.length).toBeGreaterThanOrEqual(first.entries.length);
  // A session id nobody was given reaches nothing.
  const guessed = await post(mcp.http!.url, { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': '00000000-0000-4000-8000-000000000000' });
  expect(guessed.status).toBe(404);
});

test('a wrong or missing token, a foreign Origin, another Host and a body too large are refused', async () => {
  const url = mcp.http!.url;
  await expect(connect({ authorization: 'Bearer wrong' })).rejects.toThrow();
  const wrong = await post(url, { authorization: 'Bearer wrong' });
  expect(wrong.status).toBe(401);
  expect(wrong.headers['www-authenticate']).toBe('Bearer realm="mindcraft-mcp"');
  expect((await post(url, {})).status).toBe(401);

  await expect(connect({ authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' })).rejects.toThrow();
  const foreign = await post(url, { authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' });
  expect(foreign.status).toBe(403);
  expect(foreign.body).toContain('Origin https://evil.example is not allowed');
  const rebound = await post(url, { authorization: `Bearer ${TOKEN}`, host: `evil.example:${mcp.http!.port}` });
  expect(rebound.status).toBe(403);
  // Its own page's origin is let in.
  expect((await post(url, { authorization: `Bearer ${TOKEN}`, origin: `http://127.0.0.1:${mcp.http!.port}` })).status).toBe(200);

  const big = await post(
    url,
    { authorization: `Bearer ${TOKEN}` },
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { pad: 'x'.repeat(300_000) } }),
  );
  expect(big.status).toBe(413);
});

test('requests and sessions are bounded (429, 503); beyond loopback a token is required', async () => {
  const small = await serveHttp(mcp.hub, { port: 0, rate: { max: 3, windowMs: 60_000 }, maxSessions: 1 });
  try {
    expect((await post(small.url, {})).status).toBe(200); // no token needed on loopback without one
    expect((await post(small.url, {})).status).toBe(503); // one session at most
    expect((await post(small.url, {})).status).toBe(503);
    expect((await post(small.url, {})).status).toBe(429); // the fourth request within the window
  } finally {
    await small.close();
  }
  await expect(serveHttp(mcp.hub, { host: '0.0.0.0', port: 0 })).rejects.toThrow(ConfigError);
});
