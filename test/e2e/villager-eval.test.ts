/**
 * `npm run eval` over the VillagerBench fixtures folder with the offline oracle: one run of each
 * scenario, --agents 2, the construction and cooking runs played to their capped timeout (the
 * oracle does not play these yet), the escape run escaped (its one lever pulled within a second or
 * two); the result lines with the scenarios' metrics, and the summary in the papers' terms.
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

test('a folder of VillagerBench files: a run per scenario with its metrics, and the C / VHR / ACR table', async () => {
  const evaluation = await evaluate({
    inputs: [path.resolve('test/fixtures/villagerbench')],
    ids: '^(task_1|bread_chest|escape_1_0)$',
    agents: 2,
    maxTimeoutS: 10,
    out: path.join(dir, 'out'),
    settings: testSettings({ chat_bot_messages: false }),
    log: () => {},
  });
  expect(evaluation).toMatchObject({ planned: 3, made: 3 });
  const results = parseResults(await readFile(evaluation.files.results, 'utf8'));
  const byType = Object.fromEntries(results.map((r) => [r.type, r]));
  expect(Object.keys(byType).sort()).toEqual(['villager_construction', 'villager_cooking', 'villager_escape']);
  for (const r of results) expect(r).toMatchObject({ agent_count: 2, timeout_s: 10 });
  expect(byType.villager_construction).toMatchObject({ end_reason: 'timeout' });
  expect(byType.villager_cooking).toMatchObject({ end_reason: 'timeout' });
  expect(byType.villager_escape).toMatchObject({ end_reason: 'success', score: 1 });
  // Nothing was built or cooked: the judges' own metrics are there, at zero.
  expect(byType.villager_construction!.metrics).toMatchObject({ completion: 0, vhr: 0, blocks: 2 });
  expect(byType.villager_cooking!.metrics).toMatchObject({ completion: 0, points: 0, acr: 0 });
  expect(byType.villager_escape!.metrics).toMatchObject({ rooms_done: 1, rooms: 1 });
  expect(evaluation.table).toMatch(/VillagerBench.*C % \(95% CI\).*VHR % \(95% CI\).*ACR % \(95% CI\)/s);
  expect(evaluation.table).toMatch(/construction\s.*chat\s.*2\s.*1\s.*0\.0 \(0\.0–0\.0\)/);
}, 180_000);
