import { describe, expect, test } from 'vitest';
import type { RunResult } from '../../../src/tasks/eval/records.ts';
import { reportHtml } from '../../../src/tasks/eval/report.ts';
import { formatVillagerSummary, villagerSummary } from '../../../src/tasks/eval/villager-summary.ts';

const run = (type: string, score: number, metrics: Record<string, number>, coordination = 'chat', agents = 2) =>
  ({ type, score, coordination, agent_count: agents, metrics: { completion: score, ...metrics } }) as unknown as RunResult;

describe("VillagerBench runs in the papers' terms", () => {
  test('grouped by scenario, strategy and team size; C, VHR and ACR means with their intervals; other types left out', () => {
    const rows = villagerSummary([
      run('villager_construction', 0.5, { vhr: 0.6, efficiencyPerMinute: 0.1, balance: 0.9 }),
      run('villager_construction', 1, { vhr: 1, efficiencyPerMinute: 0.3, balance: 0.7 }),
      run('villager_cooking', 0.25, { acr: 0.5 }, 'dag', 3),
      run('techtree', 1, {}),
    ]);
    expect(rows.map((r) => [r.scenario, r.coordination, r.agents, r.runs])).toEqual([
      ['construction', 'chat', 2, 2],
      ['cooking', 'dag', 3, 1],
    ]);
    const [construction, cooking] = rows;
    expect(construction!.completion.value).toBe(0.75);
    expect(construction!.vhr.value).toBeCloseTo(0.8, 10);
    expect(construction!.acr.n).toBe(0);
    expect(construction!.efficiencyPerMinute).toBeCloseTo(0.2, 10);
    expect(construction!.balance).toBeCloseTo(0.8, 10);
    expect(cooking!.acr).toMatchObject({ value: 0.5, low: 0.5, high: 0.5, n: 1 });
    const text = formatVillagerSummary(rows);
    // VHR of (0.6, 1): mean 80 %, t interval with 1 degree of freedom: ± 12.706 · 0.2828 / √2 · 100 = ± 254 %,
    // cut to what a VHR can be: 0–100 %.
    expect(text).toMatch(/construction\s+│?\s*chat\s+│?\s*2\s+│?\s*2\s+│?\s*75\.0 \(/);
    expect(text).toMatch(/80\.0 \(0\.0–100\.0\)/);
    expect(text).toMatch(/cooking.*25\.0 \(25\.0–25\.0\).*–.*50\.0 \(50\.0–50\.0\)/);
    expect(formatVillagerSummary([])).toBe('');
  });
});

describe('report.html: VillagerBench views', () => {
  test("a construction run's five views drawn expected beside built, block names in the cells", () => {
    const views = {
      legend: ['glass', 'oak_planks'],
      views: ['front', 'back', 'left', 'right', 'top'].map((name) => ({ name, iou: 0.5, expected: ['.0.', '111'], built: ['...', '111'] })),
    };
    const result = {
      ...run('villager_construction', 0.5, { vhr: 0.5 }),
      run_id: 'vb/task_0/1',
      task_id: 'task_0',
      episode: 1,
      success: false,
      end_reason: 'timeout',
      models: {},
      duration_s: 1,
      setup_s: 1,
      commands_run: 0,
      commands_failed: 0,
      messages_sent: 0,
      tokens: { input: 0, cached: 0, cache_write: 0, output: 0 },
      cost_usd: 0,
      judged: { views },
    } as unknown as RunResult;
    const html = reportHtml({ title: 'v', results: [result], rows: [], chartJs: '', generatedAt: new Date(0) });
    const section = html.slice(html.indexOf('<h2>VillagerBench views</h2>'), html.indexOf('<h2>Summary</h2>'));
    expect(section).toContain('vb/task_0/1');
    expect(section.match(/<svg /g)).toHaveLength(10);
    expect(section.match(/<title>glass<\/title>/g)).toHaveLength(5);
    expect(section.match(/<title>oak_planks<\/title>/g)).toHaveLength(30);
    expect(section).toContain('IoU 0.50');
    expect(html).not.toMatch(/https?:\/\//);
  });
});
