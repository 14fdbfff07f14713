/**
 * `npm run docs:commands`: rewrites the command table in README.md from the command registry
 * (see src/commands/readme-table.ts). `--check` only reports whether it is up to date (exit 1 if not).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { allCommands } from '../src/commands/index.ts';
import { commandsTable, replaceTable } from '../src/commands/readme-table.ts';

const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
const readme = await readFile(readmePath, 'utf8');
const updated = replaceTable(readme, commandsTable(allCommands));
if (process.argv.includes('--check')) {
  if (updated !== readme) {
    console.error('README.md: the command table is out of date; run `npm run docs:commands`.');
    process.exit(1);
  }
  console.log('README.md: the command table is up to date.');
} else if (updated === readme) {
  console.log('README.md: the command table was already up to date.');
} else {
  await writeFile(readmePath, updated);
  console.log(`README.md: wrote the table of ${allCommands.list().length} commands.`);
}
