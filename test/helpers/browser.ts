/**
 * Driving Debian's Chromium with Playwright (playwright-core) in the dashboard's tests: where the
 * browser is, the flags a sandboxed CI machine needs, and a wait on what a page shows.
 */
import { execFileSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { waitUntil } from './world.ts';

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it), if on the PATH. */
export function findChromium(): string | undefined {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Chromium flags for a sandboxed CI machine: headless, no GPU, no network of its own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // A name of "another site" that resolves to this machine: what DNS rebinding gives an attacker.
  '--host-resolver-rules=MAP rebind.test 127.0.0.1',
];

/** Bound on a page action (a click, a read) that the page answers at once, in ms. */
const ACTION_TIMEOUT_MS = 5_000;
/**
 * Bound on loading a page, in ms: the whole dashboard with its scripts, from a server that shares
 * two cores with a full test run (a CI run of 2026-11-28 took over 5 s to fire `load`).
 */
const NAVIGATION_TIMEOUT_MS = 30_000;

/** A new page in `browser` with the tests' bounds: {@link ACTION_TIMEOUT_MS}, {@link NAVIGATION_TIMEOUT_MS}. */
export async function newTestPage(browser: Browser, options?: Parameters<Browser['newPage']>[0]): Promise<Page> {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(ACTION_TIMEOUT_MS);
  page.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
  return page;
}

/**
 * Waits until `read()` (a page locator's text or count) equals `want`, matches it, or passes it;
 * a timeout shows the last value read.
 */
export async function shows(
  read: () => Promise<string | number | null>,
  want: string | number | RegExp | ((value: string | number | null) => boolean),
  timeoutMs = 10_000,
): Promise<void> {
  let last: string | number | null = null;
  const ok = (v: string | number | null) =>
    typeof want === 'function' ? want(v) : want instanceof RegExp ? want.test(String(v)) : v === want;
  // A locator whose element is not there yet throws after the page's default timeout: not yet.
  await waitUntil(async () => ok((last = await read().catch(() => null))), `the page shows ${String(want)}`, {
    timeoutMs,
    state: () => last,
  });
}
