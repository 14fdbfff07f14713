/**
 * How the commands are filed: one file per topic under src/commands/, each exporting one array
 * `<topic>Commands`, and `allCommands` holding every filed command exactly once.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { allCommands } from '../../src/commands/index.ts';
import type { CommandDef } from '../../src/commands/registry.ts';

const dir = fileURLToPath(new URL('../../src/commands/', import.meta.url));
/** The registry's machinery, not commands. */
const MACHINERY = ['context.ts', 'index.ts', 'journal.ts', 'parser.ts', 'readme-table.ts', 'registry.ts', 'skill-commands.ts', 'tools.ts'];
const topicFiles = readdirSync(dir).filter((f) => f.endsWith('.ts') && !MACHINERY.includes(f));

const camel = (file: string) => file.replace(/\.ts$/, '').replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

describe('command topic files', () => {
  it('are the topics of the architecture, and nothing else lives beside the machinery', () => {
    expect(topicFiles.sort()).toEqual([
      'blueprint.ts',
      'coding.ts',
      'combat.ts',
      'control.ts',
      'conversation.ts',
      'goals.ts',
      'items.ts',
      'knowledge.ts',
      'modes.ts',
      'movement.ts',
      'storage.ts',
      'world.ts',
    ]);
    expect(
      readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name),
    ).toEqual([]);
  });

  it('each export one array named after the file, and allCommands holds every command once', async () => {
    const filed: string[] = [];
    for (const file of topicFiles) {
      const module = (await import(`${dir}${file}`)) as Record<string, CommandDef<unknown>[]>;
      expect(Object.keys(module), file).toEqual([`${camel(file)}Commands`]);
      const commands = module[`${camel(file)}Commands`]!;
      expect(commands.length, file).toBeGreaterThan(0);
      filed.push(...commands.map((c) => c.name));
    }
    const listed = allCommands.list().map((c) => c.name);
    expect(listed).toHaveLength(filed.length);
    expect(new Set(listed)).toEqual(new Set(filed));
  });
});
