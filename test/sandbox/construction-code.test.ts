/**
 * `!newAction` builds a construction blueprint with code: a fake provider writes the code, which
 * reads the task's blueprint and the world through the skills, digs out what is in the way and
 * places every block at its coordinates, on the embedded server. The sandbox keeps its
 * guarantees with the larger skill table: no module loading, process, file system or network.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { Agent } from '../../src/agent/agent.ts';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { parseCommand } from '../../src/commands/parser.ts';
import { nameResolver } from '../../src/game/names.ts';
import { profileSchema } from '../../src/settings/index.ts';
import type { Blueprint } from '../../src/tasks/schema.ts';
import { inventoryCounts } from '../../src/skills/items.ts';
import { startFakeProvider, type FakeProviderServer } from '../helpers/fake-providers.ts';
import { testSettings } from '../helpers/version.ts';
import { connectBot, waitUntil } from '../helpers/world.ts';
import { outcome } from '../commands/agent-world.ts';
import { blockById } from '../../src/game/data.ts';

const settings = testSettings({ chat_bot_messages: false, allow_insecure_coding: true, code_timeout_s: 120 });
const names = nameResolver(settings.minecraft_version);
let fake: FakeProviderServer;
let running: RunningBots;
let andy: Agent;
let steve: Bot;
/** The code the fake model writes next. */
let code = '';

/** What a model that read `!getBlueprint` would write: every cell, level by level. */
const BUILD = `
const bp = await blueprint();
let placed = 0, dug = 0;
for (const level of bp.levels) {
  const [x0, y, z0] = level.coordinates;
  for (let r = 0; r < level.placement.length; r++) {
    for (let c = 0; c < level.placement[r].length; c++) {
      const want = level.placement[r][c];
      const x = x0 + c, z = z0 + r;
      const have = await blockAt(x, y, z);
      if (have === want) continue;
      if (have !== 'air') { await digAt(x, y, z); dug++; }
      if (want !== 'air') { await placeBlockAt(want, x, y, z); placed++; }
    }
  }
}
const check = await checkBlueprint();
return 'placed ' + placed + ', dug ' + dug + '. ' + check.split('\\n').at(-1);
`;

async function run(text: string): Promise<string> {
  const parsed = parseCommand(text, andy.commands, names);
  if (parsed.kind !== 'command') throw new Error(`not a command: ${text}`);
  return andy.execute(parsed);
}

async function serverBlock(p: Vec3): Promise<string> {
  const server = running.server!;
  return blockById(server.serv.registry, (await server.serv.overworld.getBlock(p)).type).name;
}

beforeAll(async () => {
  fake = await startFakeProvider('openai', { handler: (call) => (call.system.includes('Skills:') ? `\`\`\`js\n${code}\n\`\`\`` : 'ok') });
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
}, 60_000);

afterAll(async () => {
  steve?.quit();
  await running?.close();
  await fake?.close();
});

test('code builds a small two-level blueprint: digs what is in the way, places every block at its coordinates', async () => {
  const o = andy.bot.entity.position.floored();
  const [x, y, z] = [o.x + 3, o.y, o.z + 2];
  const blueprint: Blueprint = {
    materials: { cobblestone: 4, oak_planks: 2 },
    levels: [
      {
        level: 0,
        coordinates: [x, y, z],
        placement: [
          ['cobblestone', 'oak_planks', 'cobblestone'],
          ['cobblestone', 'air', 'cobblestone'],
        ],
      },
      { level: 1, coordinates: [x, y + 1, z], placement: [['oak_planks', 'air', 'air']] },
    ],
  };
  andy.setTask({ goal: 'Build the blueprint.', blueprint });
  // A block in the way: dirt where the blueprint wants air.
  steve.chat(`/setblock ${x + 1} ${y} ${z + 1} dirt`);
  await waitUntil(() => andy.bot.blockAt(new Vec3(x + 1, y, z + 1))?.name === 'dirt', 'Andy sees the dirt');
  steve.chat('/give Andy cobblestone 4');
  steve.chat('/give Andy oak_planks 2');
  await waitUntil(
    () => (inventoryCounts(andy.bot).cobblestone ?? 0) >= 4 && (inventoryCounts(andy.bot).oak_planks ?? 0) >= 2,
    'Andy has the materials',
  );

  code = BUILD;
  expect(await outcome(andy, '!newAction("build the blueprint")')).toEqual({
    ok: true,
    code: 'ok',
    text: 'Code ran: placed 6, dug 1. The blueprint is complete.',
  });

  // The server's world, cell by cell.
  for (const level of blueprint.levels) {
    const [x0, ly, z0] = level.coordinates;
    for (const [r, row] of level.placement.entries()) {
      for (const [c, want] of row.entries())
        expect(await serverBlock(new Vec3(x0 + c, ly, z0 + r)), `(${x0 + c}, ${ly}, ${z0 + r})`).toBe(want);
    }
  }
  expect(await run('!checkBlueprint')).toContain('The blueprint is complete.');
}, 120_000);

test('the larger skill table keeps the sandbox: no require, process, fetch, file system or timers of its own', async () => {
  // `bot` and `require` are refused before the code runs.
  code = 'const fs = require("fs"); return typeof bot;';
  expect(await run('!newAction("probe")')).toMatch(/^Code failed after \d+ attempts: /);
  // The globals the code sees: none of the host's, every skill the commands use.
  code = [
    'const out = [];',
    'for (const name of ["require", "process", "fetch", "setTimeout", "Buffer", "module"]) {',
    '  try { out.push(typeof globalThis[name]); } catch (e) { out.push(e.name); }',
    '}',
    'return out.join(",") + " " + [placeBlockAt, digAt, smeltItem, putInChest, takeFromChest, attack, givePlayer, goToCoordinates, craftRecipe].map((f) => typeof f).join(",");',
  ].join('\n');
  // Unknown globals throw, as undeclared names do; every skill the commands use is there.
  expect(await run('!newAction("probe")')).toBe(
    `Code ran: ${Array(6).fill('ReferenceError').join(',')} ${Array(9).fill('function').join(',')}`,
  );
}, 60_000);

test("a skill that fails throws into the code with its outcome's code; a wrong argument throws with `invalid`", async () => {
  const p = andy.bot.entity.position.floored();
  code = [
    'const out = [];',
    `try { await placeBlockAt('diamond_block', ${p.x + 2}, ${p.y}, ${p.z}); out.push('placed'); } catch (e) { out.push(e.code); }`,
    `try { await collectBlocks('diamond_ore', 1); out.push('collected'); } catch (e) { out.push(e.code + ': ' + e.message); }`,
    `try { await digAt(${p.x} + 0.5, ${p.y - 1}, ${p.z}); out.push('dug'); } catch (e) { out.push(e.code); }`,
    'return out.join(" | ");',
  ].join('\n');
  expect(await outcome(andy, '!newAction("probe the failures")')).toMatchObject({
    code: 'ok',
    text: 'Code ran: missing_items | not_found: No diamond_ore within 64 blocks. | invalid',
  });
  expect(andy.bot.blockAt(p.offset(2, 0, 0))?.name).not.toBe('diamond_block');
}, 60_000);

test('code that fills 2 GiB of typed arrays is refused with the reason; the bot is unharmed and runs its next command', async () => {
  const before = process.memoryUsage().rss;
  code = 'const a = new Uint8Array(2 ** 30); a.fill(1); const b = new Uint8Array(2 ** 30); b.fill(1); return "filled";';
  const out = await run('!newAction("use a lot of memory")');
  // The code's error goes back to the model, which writes the same code again until the attempts run out.
  expect(out).toMatch(
    /^Code failed after \d+ attempts: RangeError: Array buffer allocation failed \(line 1\); the code used more memory than the sandbox allows \(256 MB in all/,
  );
  expect(process.memoryUsage().rss - before).toBeLessThan(256 * 2 ** 20);
  expect(await run('!stats')).toMatch(/Position/i);
  expect(running.sessions[0]!.online).toBe(true);
}, 60_000);
