/**
 * The page's code without a build step: the TypeScript modules the page imports are served from
 * `src/` under the same paths (`/src/app/dashboard/public/app.ts`, `/src/agent/events.ts`, ...)
 * with their types stripped (amaro, Node's own type stripper: lines and columns stay put), and
 * the few packages it imports (zod, preact, htm) are served from `node_modules` under `/vendor/`,
 * named by the page's import map ({@link importMap}).
 *
 * Only the modules the page's entry reaches through its imports are served, found once at
 * start-up by following the relative imports of the stripped code; anything else under `src/`
 * answers 404.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import amaro from 'amaro';

/** The repository's `src/` folder. */
export const SRC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The page's entry module, relative to {@link SRC_DIR}. */
export const PAGE_ENTRY = 'app/dashboard/public/app.ts';

/** Packages the page imports, each with the files its import map names (relative to the package). */
const VENDOR: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  zod: { zod: 'index.js' },
  preact: { preact: 'dist/preact.mjs', 'preact/hooks': 'hooks/dist/hooks.mjs' },
  htm: { htm: 'dist/htm.mjs', 'htm/preact': 'preact/index.mjs' },
};

const require = createRequire(import.meta.url);

/** Folder of each vendored package (`/vendor/<name>/` serves it). */
export function vendorDirs(): Record<string, string> {
  return Object.fromEntries(
    Object.keys(VENDOR).map((name) => {
      // Not every package exports its package.json: find the folder from its main entry.
      const entry = require.resolve(name);
      const marker = `${path.sep}node_modules${path.sep}${name}${path.sep}`;
      return [name, entry.slice(0, entry.lastIndexOf(marker) + marker.length - 1)];
    }),
  );
}

/** The page's import map: bare specifier → `/vendor/...` URL. */
export function importMap(): { imports: Record<string, string> } {
  const imports: Record<string, string> = {};
  for (const [pkg, entries] of Object.entries(VENDOR)) {
    for (const [specifier, file] of Object.entries(entries)) imports[specifier] = `/vendor/${pkg}/${file}`;
  }
  return { imports };
}

const IMPORT_RE = /\b(?:import|export)\s*(?:[\w*{}\s,$]*?\s*from\s*)?['"]([^'"]+)['"]/g;

/** `code` with its TypeScript types replaced by spaces. */
export function stripTypes(code: string): string {
  return amaro.transformSync(code, { mode: 'strip-only' }).code;
}

/**
 * The page's modules: each path relative to {@link SRC_DIR} (`agent/events.ts`) → its code with
 * types stripped, for the entry and every module it reaches through relative imports.
 *
 * @throws Error when a module cannot be read (a broken import of the page).
 */
export function pageModules(entry = PAGE_ENTRY, srcDir = SRC_DIR): Map<string, string> {
  const modules = new Map<string, string>();
  const visit = (rel: string) => {
    if (modules.has(rel)) return;
    const code = stripTypes(readFileSync(path.join(srcDir, rel), 'utf8'));
    modules.set(rel, code);
    for (const [, specifier] of code.matchAll(IMPORT_RE)) {
      if (!specifier!.startsWith('./') && !specifier!.startsWith('../')) continue;
      const next = path.posix.normalize(path.posix.join(path.posix.dirname(rel), specifier!));
      if (next.startsWith('..')) throw new Error(`${rel} imports ${specifier}, outside src/`);
      visit(next);
    }
  };
  visit(entry);
  return modules;
}
