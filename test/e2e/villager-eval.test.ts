/**
 * `npm run eval` over the VillagerBench fixtures folder with the offline oracle: one run of each
 * scenario, --agents 2, the construction and escape runs (which it does not play yet) to their
 * capped timeout, the result lines with the scenarios' metrics, and the summary in the papers'
 * terms; the cooking run played to the full score.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { evaluate } from '../../src/app/evaluate.ts';
import { parseResults } from '../../src/tasks/eval/records.ts';
import { testSettings } from '../helpers/version.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'vb-eval-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a folder of VillagerBench files: a run per scenario with its metrics, the C / VHR / ACR table, the cooking played to 1', async () => {
  const evaluation = await evaluate({
    inputs: [path.resolve('test/fixtures/villagerbench')],
    ids: '^(task_1|escape_1_0)$',
    agents: 2,
    maxTimeoutS: 3,
    out: path.join(dir, 'out'),
    settings: testSettings({ chat_bot_messages: false }),
    log: () => {},
  });
  expect(evaluation).toMatchObject({ planned: 2, made: 2 });
  const results = parseResults(await readFile(evaluation.files.results, 'utf8'));
  const byType = Object.fromEntries(results.map((r) => [r.type, r]));
  expect(Object.keys(byType).sort()).toEqual(['villager_construction', 'villager_escape']);
  for (const r of results) expect(r).toMatchObject({ agent_count: 2, end_reason: 'timeout', timeout_s: 3 });
  // Nothing was done: the judges' own metrics are there, at zero.
  expect(byType.villager_construction!.metrics).toMatchObject({ completion: 0, vhr: 0, blocks: 2 });
  expect(byType.villager_escape!.metrics).toMatchObject({ rooms_done: 0, rooms: 1 });
  expect(evaluation.table).toMatch(/VillagerBench.*C % \(95% CI\).*VHR % \(95% CI\).*ACR % \(95% CI\)/s);
  expect(evaluation.table).toMatch(/construction\s.*chat\s.*2\s.*1\s.*0\.0 \(0\.0–0\.0\)/);

  // Cooking: the oracle plays it (the wheat from the chest, the bread by the other agent).
  const cooking = await evaluate({
    inputs: [path.resolve('test/fixtures/villagerbench')],
    ids: '^bread_chest$',
    agents: 2,
    maxTimeoutS: 120,
    out: path.join(dir, 'cooking'),
    settings: testSettings({ chat_bot_messages: false }),
    log: () => {},
  });
  const [bread] = parseResults(await readFile(cooking.files.results, 'utf8'));
  expect(bread).toMatchObject({ type: 'villager_cooking', agent_count: 2, success: true, score: 1 });
  expect(bread!.metrics).toMatchObject({ completion: 1, points: 100, acr: 1 });
  expect(cooking.table).toMatch(/cooking\s.*chat\s.*2\s.*1\s.*100\.0 \(100\.0–100\.0\)/);
}, 300_000);
