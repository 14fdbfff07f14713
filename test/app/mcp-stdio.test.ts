/**
 * `npm run mcp` over stdio, as an MCP client runs it: the SDK's own `Client` and
 * `StdioClientTransport` start the real command line (`src/cli.ts mcp`) in a child process, whose
 * bot Andy joins the embedded server this test starts; Steve, a plain mineflayer client, is the
 * player who checks what happens in the world. The tools are the command registry's; a query and
 * an action act as their outcomes say; a resource reads and reports its change; progress comes
 * while an action runs; cancelling the call stops the action within a second; a player's !stop
 * ends it too; a bad argument is a tool error; and a scripted client (no model) reads a player's
 * request, crafts planks from the logs he threw and hands them back.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Bot } from 'mineflayer';
import type { Vec3 } from 'vec3';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { allCommands } from '../../src/commands/index.ts';
import { commandTools } from '../../src/commands/tools.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { giveItems } from '../../src/server/services/inventory.ts';
import { TEST_VERSION } from '../helpers/version.ts';
import { botCount, connectBot, roundTrip, serverPlayer, startTestServer, teleport, waitUntil } from '../helpers/world.ts';
import { itemByName } from '../../src/game/data.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'mcp-stdio-'));
const STATE = 'mindcraft://bots/Andy/state';

let server: EmbeddedServer;
let steve: Bot;
let client: Client;
let stderr = '';
/** What the client could not read on the child's stdout (anything there but the protocol). */
const unreadable: Error[] = [];

/** The text and structured outcome of a tool result. */
function outcome(result: unknown): { text: string; isError: boolean; data: Record<string, unknown> | undefined } {
  const r = result as CallToolResult;
  const first = r.content[0];
  return { text: first?.type === 'text' ? first.text : '', isError: r.isError === true, data: r.structuredContent };
}

/** Andy's state as the resource gives it. */
async function state(): Promise<{
  position: { x: number; y: number; z: number };
  action: { label: string } | null;
  inventory: Record<string, number>;
}> {
  const read = await client.readResource({ uri: STATE });
  const first = read.contents[0];
  return JSON.parse(first && 'text' in first ? first.text : '{}');
}

/** Where Steve sees Andy. */
function andyAsSeen(): Vec3 {
  const entity = steve.players.Andy?.entity;
  if (!entity) throw new Error('Steve does not see Andy');
  return entity.position;
}

beforeAll(async () => {
  server = await startTestServer();
  writeFileSync(path.join(dir, 'andy.json'), JSON.stringify({ name: 'Andy' }));
  writeFileSync(
    path.join(dir, 'settings.json'),
    JSON.stringify({
      server: 'external',
      host: server.host,
      port: server.port,
      minecraft_version: TEST_VERSION,
      profiles: ['./andy.json'],
      blocked_actions: ['!attackPlayer'],
      dashboard_port: 0,
      reconnect_attempts: 0,
    }),
  );
  steve = await connectBot(server, 'Steve');
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: dir, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  client.onerror = (err) => unreadable.push(err);
  await client.connect(transport);
  await waitUntil(() => steve.players.Andy?.entity !== undefined, 'Steve sees Andy', { state: () => stderr.slice(-2000) });
}, 60_000);

afterAll(async () => {
  await client?.close();
  steve?.quit();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the tools are the registry's commands with the model's schemas, less the blocked ones, plus chat, whisper and readMessages", async () => {
  const { tools } = await client.listTools();
  const extras = ['chat', 'whisper', 'readMessages'];
  const commands = tools.filter((t) => !extras.includes(t.name));
  const expected = commandTools(allCommands.without(['!attackPlayer', '!newAction']).list());
  expect(commands.map((t) => ({ name: t.name, inputSchema: t.inputSchema }))).toEqual(
    expected.map((s) => ({ name: s.name, inputSchema: s.parameters })),
  );
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(extras));
  expect(tools.find((t) => t.name === 'collectBlocks')?.description).toContain('Dig blocks of a type');
  expect(tools.find((t) => t.name === 'stats')?.annotations?.readOnlyHint).toBe(true);
  // One bot: no `bot` argument.
  expect(tools.some((t) => 'bot' in (t.inputSchema.properties ?? {}))).toBe(false);
  expect(client.getInstructions()).toContain('You are the brain of Andy');
});

test('a query and an action: Andy walks to Steve, reporting progress, and Steve sees him arrive', async () => {
  const at = andyAsSeen();
  await teleport(steve, Math.floor(at.x) + 12.5, Math.floor(at.y), Math.floor(at.z) + 0.5);
  const stats = outcome(await client.callTool({ name: 'stats', arguments: {} }));
  expect(stats.isError).toBe(false);
  expect(stats.text).toMatch(/^Position: /);
  expect(stats.data).toMatchObject({ bot: 'Andy', command: '!stats', ok: true, code: 'ok' });

  const progress: Progress[] = [];
  const walk = outcome(
    await client.callTool({ name: 'goToPlayer', arguments: { player_name: 'Steve', closeness: 2 } }, undefined, {
      onprogress: (p) => progress.push(p),
    }),
  );
  expect(walk.isError, walk.text).toBe(false);
  expect(walk.data).toMatchObject({ command: '!goToPlayer', ok: true, code: 'ok' });
  await waitUntil(() => andyAsSeen().distanceTo(steve.entity.position) <= 3, 'Steve sees Andy beside him', {
    state: () => andyAsSeen(),
  });
  expect(progress.length).toBeGreaterThanOrEqual(2); // one at the start, one a second later at least (12 blocks take longer)
  expect(progress.some((p) => /blocks from Steve/.test(p.message ?? ''))).toBe(true);
  for (let i = 1; i < progress.length; i++) expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
});

test('the state resource reads as JSON and reports its change when Andy is given items', async () => {
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updates.push(n.params.uri);
  });
  await client.subscribeResource({ uri: STATE });
  const before = await state();
  expect(before.inventory.oak_log ?? 0).toBe(0);
  const seen = updates.length;
  giveItems(serverPlayer(server, 'Andy'), 'oak_log', 2);
  await waitUntil(async () => updates.length > seen && (await state()).inventory.oak_log === 2, 'an update, then 2 oak_log', {
    state: () => updates,
  });
  expect(updates.at(-1)).toBe(STATE);
  await client.unsubscribeResource({ uri: STATE });
  steve.chat('/clear Andy');
  await waitUntil(async () => Object.keys((await state()).inventory).length === 0, "Andy's inventory cleared");
});

test("a bad argument is the parser's error as a tool error; the server carries on", async () => {
  const misspelt = outcome(await client.callTool({ name: 'collectBlocks', arguments: { type: 'oak_logg', num: 3 } }));
  expect(misspelt.isError).toBe(true);
  expect(misspelt.text).toContain('!collectBlocks: parameter 1 "type" expects a block name, got "oak_logg"');
  expect(misspelt.text).toContain('"oak_log"');
  const zero = outcome(await client.callTool({ name: 'collectBlocks', arguments: { type: 'oak_log', num: 0 } }));
  expect(zero.isError).toBe(true);
  expect(zero.text).toContain('parameter 2 "num"');
  const extra = outcome(await client.callTool({ name: 'collectBlocks', arguments: { type: 'oak_log', num: 1, count: 3 } }));
  expect(extra.text).toContain('!collectBlocks has no parameter "count"; its parameters: type, num');
  await expect(client.callTool({ name: 'noSuchTool', arguments: {} })).rejects.toThrow(/Unknown tool "noSuchTool"/);
  expect(outcome(await client.callTool({ name: 'inventory', arguments: {} })).isError).toBe(false);
});

test('cancelling the call stops the action within a second, as !stop does', async () => {
  const at = await state();
  const controller = new AbortController();
  let running = false;
  const call = client.callTool(
    { name: 'goToCoordinates', arguments: { x: at.position.x + 300, y: at.position.y, z: at.position.z, closeness: 1 } },
    undefined,
    { signal: controller.signal, onprogress: (p) => (running ||= /goToCoordinates running/.test(p.message ?? '')) },
  );
  await waitUntil(() => running, 'the walk to run');
  const cancelled = Date.now();
  controller.abort('enough');
  await expect(call).rejects.toThrow();
  await waitUntil(async () => (await state()).action === null, 'the walk stops', 1_000);
  expect(Date.now() - cancelled).toBeLessThan(1_000);
  const { data } = outcome(await client.callTool({ name: 'readMessages', arguments: { limit: 200 } }));
  const entries = (data?.entries ?? []) as { kind: string; command?: string; code?: string; text?: string }[];
  expect(entries.filter((e) => e.kind === 'outcome' && e.command === '!goToCoordinates').at(-1)).toMatchObject({
    code: 'interrupted',
    text: '!goToCoordinates was cancelled by mcp.',
  });
});

test("a player's !stop ends what the client started, and the client is told who stopped it", async () => {
  const at = await state();
  let running = false;
  const call = client.callTool(
    { name: 'goToCoordinates', arguments: { x: at.position.x - 300, y: at.position.y, z: at.position.z, closeness: 1 } },
    undefined,
    { onprogress: (p) => (running ||= /goToCoordinates running/.test(p.message ?? '')) },
  );
  await waitUntil(() => running, 'the walk to run');
  steve.chat('Andy !stop');
  const stopped = outcome(await call);
  expect(stopped.isError).toBe(true);
  expect(stopped.data).toMatchObject({ command: '!goToCoordinates', ok: false, code: 'interrupted' });
  expect(stopped.text).toBe('!goToCoordinates was stopped by Steve.');
});

/**
 * A client with no model: it answers a player who asks for planks from the logs he gave, from
 * what the bot heard and holds (readMessages, the state resource), with commands only.
 */
async function plankMaker(): Promise<{ player: string; planks: string; count: number; report: string }> {
  let asker: string | undefined;
  await waitUntil(async () => {
    const { data } = outcome(await client.callTool({ name: 'readMessages', arguments: {} }));
    const entries = (data?.entries ?? []) as { kind: string; from?: string; via?: string; text?: string }[];
    asker ??= entries.find((e) => e.kind === 'message' && e.via === undefined && /planks/i.test(e.text ?? ''))?.from;
    return asker !== undefined;
  }, 'a request for planks');
  const player = asker!;
  let logs: [string, number] | undefined;
  await waitUntil(async () => {
    logs = Object.entries((await state()).inventory).find(([name]) => name.endsWith('_log'));
    return logs !== undefined;
  }, 'logs in the inventory');
  const [log, count] = logs!;
  const planks = log.replace(/_log$/, '_planks');
  const crafted = outcome(await client.callTool({ name: 'craftRecipe', arguments: { recipe_name: planks, num: count } }));
  if (crafted.isError) throw new Error(`craftRecipe: ${crafted.text}`);
  const made = (crafted.data?.data as { gained?: Record<string, number> } | undefined)?.gained?.[planks] ?? 0;
  const given = outcome(await client.callTool({ name: 'givePlayer', arguments: { player_name: player, item_name: planks, num: made } }));
  if (given.isError) throw new Error(`givePlayer: ${given.text}`);
  await client.callTool({ name: 'whisper', arguments: { player, message: `Here are ${made} ${planks}.` } });
  return { player, planks, count: made, report: `${count} ${log} held; ${crafted.text}` };
}

test('end to end: a scripted client makes Andy craft planks from the log Steve threw him and hand them back', async () => {
  steve.chat('/clear Steve');
  await waitUntil(() => steve.inventory.items().length === 0, "Steve's inventory empty");
  const andy = andyAsSeen();
  await teleport(steve, Math.floor(andy.x) + 2.5, Math.floor(andy.y), Math.floor(andy.z) + 0.5);
  giveItems(serverPlayer(server, 'Steve'), 'oak_log', 1);
  await waitUntil(() => botCount(steve, 'oak_log') === 1, 'Steve holds 1 oak_log');
  // Steve looks at Andy's feet (the server knows it once the round trip is back) and throws the
  // logs there; Andy's item_collecting takes them.
  await steve.lookAt(andyAsSeen(), true);
  await roundTrip(steve);
  await steve.toss(itemByName(steve.registry, 'oak_log').id, null, 1);
  // Steve asks once the log is gone from the ground (the client reads the inventory once, as the request comes).
  await waitUntil(async () => (await state()).inventory.oak_log === 1, 'Andy holds the log');
  const heard: string[] = [];
  steve.on('whisper', (from, text) => {
    heard.push(`${from}: ${text}`);
  });
  steve.whisper('Andy', 'I threw you a log: make planks and give them back, please');

  const { report, ...made } = await plankMaker();
  expect(made, report).toEqual({ player: 'Steve', planks: 'oak_planks', count: 4 });
  await waitUntil(() => botCount(steve, 'oak_planks') === 4, 'Steve holds 4 oak_planks');
  const id = itemByName(server.serv.registry, 'oak_planks').id;
  const slots = serverPlayer(server, 'Steve').inventory.slots as ({ type: number; count: number } | null)[];
  expect(slots.reduce((n, s) => n + (s && s.type === id ? s.count : 0), 0)).toBe(4);
  expect((await state()).inventory).toEqual({});
  await waitUntil(() => heard.includes('Andy: Here are 4 oak_planks.'), "Andy's whisper", { state: () => heard });
}, 60_000);

test('stdout carried the protocol alone: every log line went to stderr', () => {
  expect(unreadable).toEqual([]);
  expect(stderr).toContain('MCP server on stdio for Andy; the client is the brain of Andy');
  expect(stderr).toContain('[Andy] runs !craftRecipe("oak_planks", 1)');
});

test('npm run --silent mcp (the configuration the README gives) prints nothing on stdout; a bad option exits with code 2', async () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const child = spawn('npm', ['run', '--silent', '--prefix', root, 'mcp', '--', '--http', '0', '--host', '0.0.0.0'], {
    cwd: dir,
    env: { ...process.env, MCP_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const [code] = await once(child, 'exit');
  expect(code).toBe(2);
  expect(out).toBe('');
  expect(err).toContain('--host 0.0.0.0 opens the MCP server beyond this machine: give --token <secret> (or MCP_TOKEN) too');
});
