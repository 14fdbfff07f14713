/**
 * The reference's "until stopped" actions on a real agent: with `action_timeout_s` set short,
 * `!followPlayer` and `!stay(-1)` keep running past it and `!stop` ends them within a second;
 * `!stay(n)` runs its n seconds even when they are longer than `action_timeout_s`; an ordinary
 * action is still cut at `action_timeout_s`.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Bot } from 'mineflayer';
import type { Agent } from '../../src/agent/agent.ts';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { parseCommand } from '../../src/commands/parser.ts';
import { nameResolver } from '../../src/game/names.ts';
import { profileSchema } from '../../src/settings/index.ts';
import { testSettings } from '../helpers/version.ts';
import { connectBot, waitUntil } from '../helpers/world.ts';

/** The agents' action bound, in seconds. */
const BOUND_S = 1;
const settings = testSettings({ chat_bot_messages: false, action_timeout_s: BOUND_S });
const names = nameResolver(settings.minecraft_version);
let running: RunningBots;
let andy: Agent;
let steve: Bot;

function run(text: string): Promise<string> {
  const parsed = parseCommand(text, andy.commands, names);
  if (parsed.kind !== 'command') throw new Error(`not a command: ${text}`);
  return andy.execute(parsed);
}

/** Waits until twice the action bound has passed since `since` (ms), the action still running. */
async function outlivesTheBound(since: number, label: string): Promise<void> {
  await waitUntil(() => Date.now() - since > 2 * BOUND_S * 1000 || andy.currentAction() !== label, `${label} runs past the bound`, 10_000);
  expect(andy.currentAction()).toBe(label);
}

beforeAll(async () => {
  running = await startAgents({ settings, profiles: [profileSchema.parse({ name: 'Andy', model: 'oracle' })], port: 0, log: () => {} });
  andy = running.agents[0]!;
  steve = await connectBot(running.server!, 'Steve');
  await waitUntil(() => !!andy.bot.players.Steve?.entity, 'Andy sees Steve');
}, 60_000);

afterAll(async () => {
  steve?.quit();
  await running?.close();
});

test.each(['!followPlayer("Steve", 2)', '!stay(-1)'])(
  '%s runs past action_timeout_s until !stop, which ends it within 1 s',
  async (text) => {
    const label = text.slice(0, text.indexOf('('));
    const started = Date.now();
    const pending = run(text);
    await waitUntil(() => andy.currentAction() === label, `${label} starts`);
    await outlivesTheBound(started, label);
    const asked = Date.now();
    await run('!stop');
    expect(await pending).toMatch(/was stopped/);
    expect(Date.now() - asked).toBeLessThan(1_000);
  },
  30_000,
);

test('!stay(n) lasts its n seconds even past action_timeout_s; an ordinary action is cut at action_timeout_s', async () => {
  const started = Date.now();
  expect(await run(`!stay(${2 * BOUND_S})`)).toBe(`Stayed for ${2 * BOUND_S} s.`);
  expect(Date.now() - started).toBeGreaterThanOrEqual(2 * BOUND_S * 1000);
  const p = andy.bot.entity.position.floored();
  // Far beyond what a second of walking reaches.
  expect(await run(`!goToCoordinates(${p.x + 200}, ${p.y}, ${p.z}, 1)`)).toMatch(new RegExp(`took longer than ${BOUND_S} s`));
}, 30_000);
