/**
 * The bots' voices in the dashboard's pages, in Chromium (Playwright): a page that switches the
 * voices on plays each line Andy says in public chat (espeak-ng's WAV, as long as espeak-ng made
 * it), while a page left silent gets nothing at all; switched off, a page gets nothing until it
 * is switched on again. The machine has no sound player, which the log says once: the lines are heard in the page.
 *
 * Needs `chromium` and `espeak-ng` on the PATH (`.ci/run` installs both): without them the test is
 * skipped, and the skip says why.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Bot } from 'mineflayer';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { onPath, type LineSound } from '../../src/app/voice.ts';
import { startAgents, type RunningBots } from '../../src/app/start-bots.ts';
import { startDashboard, type Dashboard } from '../../src/app/dashboard/server.ts';
import { profileSchema } from '../../src/settings/index.ts';
import type { EmbeddedServer } from '../../src/server/embedded.ts';
import { CHROMIUM_ARGS, findChromium, newTestPage, shows } from '../helpers/browser.ts';
import { connectBot, settingsFor, startTestServer, waitUntil } from '../helpers/world.ts';

const CHROMIUM = findChromium();
const ESPEAK = onPath('espeak-ng');
const missing = [!CHROMIUM && 'chromium', !ESPEAK && 'espeak-ng'].filter(Boolean).join(' and ');

const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-voice-'));
/** A PATH with espeak-ng and nothing that plays sound (no afplay, paplay or aplay). */
const binDir = path.join(dir, 'bin');
let server: EmbeddedServer;
let running: RunningBots;
let dashboard: Dashboard;
let steve: Bot;
let browser: Browser;
let loud: Page;
let silent: Page;
const lines: string[] = [];
/** What the voice handed over, seen beside the pages. */
const sounds: LineSound[] = [];

/** The voice status element of a page, and its counters. */
const voice = (page: Page) => page.locator('[data-role=voice]');
const counter = async (page: Page, name: 'received' | 'played') => Number(await voice(page).getAttribute(`data-${name}`));

/** Seconds of sound in a 16-bit mono PCM WAV (espeak-ng's), from its header. */
function wavSeconds(wav: Buffer): number {
  const rate = wav.readUInt32LE(24);
  const dataAt = wav.indexOf('data', 12, 'ascii');
  return wav.readUInt32LE(dataAt + 4) / (rate * 2);
}

/** Steve asks Andy what he holds (nothing: a short answer); resolves once Andy's public answer has been spoken. */
async function andySpeaks(): Promise<LineSound> {
  const before = sounds.length;
  steve.chat('Andy !inventory');
  await waitUntil(() => sounds.length > before, "Andy's answer spoken", { timeoutMs: 20_000 });
  return sounds.at(-1)!;
}

describe.skipIf(missing !== '')(`the voices in the dashboard's pages${missing ? ` (skipped: no ${missing} on the PATH)` : ''}`, () => {
  beforeAll(async () => {
    mkdirSync(binDir);
    symlinkSync(ESPEAK!, path.join(binDir, 'espeak-ng'));
    server = await startTestServer();
    running = await startAgents({
      settings: settingsFor(server, { speak: true }),
      profiles: [profileSchema.parse({ name: 'Andy' })],
      botsDir: dir,
      env: { ...process.env, PATH: binDir },
      log: (l) => lines.push(l),
    });
    dashboard = await startDashboard({ port: 0, bots: running, botsDir: dir });
    steve = await connectBot(server, 'Steve');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    [loud, silent] = await Promise.all([newTestPage(browser), newTestPage(browser)]);
    for (const page of [loud, silent]) {
      await page.goto(dashboard.url);
      await shows(() => page.locator('[data-role=connection]').textContent(), 'open');
    }
  });

  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
    steve?.quit();
    await running?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a page with the voices on plays each line to its end; a page left silent gets nothing', async () => {
    await shows(() => loud.locator('button[data-action=voice]').textContent(), 'Voices off');
    await loud.locator('button[data-action=voice]').click();
    await shows(() => loud.locator('button[data-action=voice]').textContent(), 'Voices on');
    const stop = running.listenToVoice((sound) => sounds.push(sound));
    try {
      const line = await andySpeaks();
      expect(line).toMatchObject({ bot: 'Andy', mime: 'audio/wav' });
      expect(line.text).toMatch(/inventory/i);
      const seconds = wavSeconds(line.data);
      expect(seconds).toBeGreaterThan(0.5);
      // The loud page played the very line to its end: as long as espeak-ng's WAV.
      await shows(() => counter(loud, 'played'), 1, 20_000);
      expect(await voice(loud).textContent()).toContain(`Andy: ${line.text}`.slice(0, 40));
      expect(Number(await voice(loud).getAttribute('data-seconds'))).toBeCloseTo(seconds, 1);
      // The silent page was sent nothing (the line went out to both at once).
      expect([await counter(silent, 'received'), await counter(silent, 'played')]).toEqual([0, 0]);
      expect(lines.filter((l) => l.startsWith('voice: no player'))).toEqual([
        "voice: no player for this machine's speakers (afplay, paplay, aplay): the lines are heard where they are listened to.",
      ]);

      // Switched off, the page is sent nothing: once on again, the next line is its second (a
      // socket keeps its order, so a line sent while off would have come first).
      const toggle = loud.locator('button[data-action=voice]');
      await toggle.click();
      await shows(() => toggle.textContent(), 'Voices off');
      await andySpeaks();
      await toggle.click();
      await shows(() => toggle.textContent(), 'Voices on');
      const third = await andySpeaks();
      await shows(() => counter(loud, 'played'), 2, 20_000);
      expect(await counter(loud, 'received')).toBe(2);
      expect(Number(await voice(loud).getAttribute('data-seconds'))).toBeCloseTo(wavSeconds(third.data), 1);
      // The silent page, switched on at last, gets the next line as its first.
      await silent.locator('button[data-action=voice]').click();
      await shows(() => silent.locator('button[data-action=voice]').textContent(), 'Voices on');
      await andySpeaks();
      await shows(() => counter(silent, 'played'), 1, 20_000);
      expect(await counter(silent, 'received')).toBe(1);
    } finally {
      stop();
    }
  }, 90_000);
});
