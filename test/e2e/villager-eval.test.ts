/**
 * `npm run eval` over the VillagerBench fixtures folder with the offline oracle: one run of each
 * scenario, --agents 2, each played to the full score (the stair hut, its stairs facing west; the bread
 * from the chest's wheat, the lever room); the result lines with the scenarios' metrics, and the
 * summary in the papers' terms. (A judge's metrics at zero, nothing done, are its unit tests'.)
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

test('a folder of VillagerBench files: a run per scenario played to 1 with its metrics, and the C / VHR / ACR table', async () => {
  const evaluation = await evaluate({
    inputs: [path.resolve('test/fixtures/villagerbench')],
    ids: '^(task_0|bread_chest|escape_1_0)$',
    agents: 2,
    maxTimeoutS: 120,
    out: path.join(dir, 'out'),
    settings: testSettings({ chat_bot_messages: false }),
    log: () => {},
  });
  expect(evaluation).toMatchObject({ planned: 3, made: 3 });
  const results = parseResults(await readFile(evaluation.files.results, 'utf8'));
  const byType = Object.fromEntries(results.map((r) => [r.type, r]));
  expect(Object.keys(byType).sort()).toEqual(['villager_construction', 'villager_cooking', 'villager_escape']);
  for (const r of results) expect(r).toMatchObject({ agent_count: 2, timeout_s: 120, end_reason: 'success', score: 1 });
  expect(byType.villager_construction!.metrics).toMatchObject({ completion: 1, vhr: 1, blocks: 4, blocks_matched: 4 });
  expect(byType.villager_cooking!.metrics).toMatchObject({ completion: 1, points: 100, acr: 1 });
  expect(byType.villager_escape!.metrics).toMatchObject({ rooms_done: 1, rooms: 1 });
  expect(evaluation.table).toMatch(/VillagerBench.*C % \(95% CI\).*VHR % \(95% CI\).*ACR % \(95% CI\)/s);
  expect(evaluation.table).toMatch(/construction\s.*chat\s.*2\s.*1\s.*100\.0 \(100\.0–100\.0\)/);
  expect(evaluation.table).toMatch(/cooking\s.*chat\s.*2\s.*1\s.*100\.0 \(100\.0–100\.0\)/);
}, 300_000);
