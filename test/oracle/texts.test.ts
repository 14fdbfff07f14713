/**
 * The offline oracle's canned texts never contain a command by accident: a reply like "(try
 * !help)" would be parsed as `!help`, cutting the reply short and running the command. Every
 * string and template literal in the oracle's source is read with the TypeScript parser (so new
 * texts are covered as they are written) and parsed as a model reply with the full command
 * registry; only a text that starts with `!` (a command the oracle means to run) may parse as one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';
import { allCommands } from '../../src/commands/index.ts';
import { parseCommand } from '../../src/commands/parser.ts';
import { nameResolver } from '../../src/game/names.ts';
import { TEST_VERSION } from '../helpers/version.ts';

const ORACLE = fileURLToPath(new URL('../../src/oracle/', import.meta.url));

/** The oracle's source files: everything under `src/oracle/`. */
function oracleFiles(): string[] {
  return readdirSync(ORACLE)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(ORACLE, f));
}

/** Every string and template literal of `file`; a template's `${...}` parts become `1`. */
function literals(file: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) text = node.head.text + node.templateSpans.map((s) => `1${s.literal.text}`).join('');
    if (text !== undefined) out.push({ text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    // Import paths and the like are literals too; they never contain a command, so they pass.
    node.forEachChild(visit);
  };
  visit(source);
  return out;
}

test('no canned oracle text parses as a command unless it is one on purpose', () => {
  const names = nameResolver(TEST_VERSION);
  const accidental: string[] = [];
  let checked = 0;
  for (const file of oracleFiles()) {
    for (const { text, line } of literals(file)) {
      checked++;
      if (text.trimStart().startsWith('!')) continue; // a command the oracle means to run
      const parsed = parseCommand(text, allCommands, names);
      if (parsed.kind !== 'none')
        accidental.push(`${path.relative(ORACLE, file)}:${line}: ${JSON.stringify(text)} parses as ${parsed.kind}`);
    }
  }
  expect(checked).toBeGreaterThan(20);
  expect(accidental).toEqual([]);
});

test("the check catches the text that used to cut the oracle's reply short", () => {
  const parsed = parseCommand('I run the commands you type (try !help). Configure a model.', allCommands, nameResolver(TEST_VERSION));
  expect(parsed.kind).toBe('command');
});
