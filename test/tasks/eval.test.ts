/**
 * The pure parts of an evaluation: confidence intervals, the price table, campaign expansion and
 * run ids, the summary (table and CSV) and its agreement with the results, the report page, and
 * the SFT export's conversation rebuilding. The end-to-end evaluation is test/e2e/eval.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, test } from 'vitest';
import { fileKeys, parseCoordinations, planCampaign, runFolder, runIdOf, taskConditions } from '../../src/tasks/eval/campaign.ts';
import { conversationOf } from '../../src/tasks/eval/export.ts';
import { costOf, priceFor } from '../../src/tasks/eval/prices.ts';
import { parseResults, RunRecorder, totals, type RequestEvent, type RunResult } from '../../src/tasks/eval/records.ts';
import { reportHtml } from '../../src/tasks/eval/report.ts';
import { FRACTION, meanInterval, wilsonInterval } from '../../src/tasks/eval/stats.ts';
import { fileKeyOf, formatSummary, summarise, summaryCsv, SUMMARY_CSV_COLUMNS } from '../../src/tasks/eval/summary.ts';
import { loadTask, TaskError } from '../../src/tasks/loader.ts';

const FIXTURES = path.resolve('test/fixtures/minecollab');
const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((d) => rm(d, { recursive: true, force: true })));
});

describe('confidence intervals', () => {
  test('Wilson score interval: textbook values, never outside [0, 1], uninformative for n = 0', () => {
    // 95 % Wilson intervals (z = 1.95996): 0/10 → [0, 0.2775], 5/10 → [0.2366, 0.7634], 10/10 → [0.7225, 1].
    expect(wilsonInterval(0, 10).high).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(5, 10)).toMatchObject({ value: 0.5 });
    expect(wilsonInterval(5, 10).low).toBeCloseTo(0.2366, 4);
    expect(wilsonInterval(10, 10).low).toBeCloseTo(0.7225, 4);
    expect(wilsonInterval(10, 10).high).toBe(1);
    expect(wilsonInterval(0, 0)).toEqual({ value: 0, low: 0, high: 1, n: 0 });
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
  });

  test('t interval of a mean: t(0.975, 4) = 2.7764 for five values; one value has no spread', () => {
    const e = meanInterval([1, 2, 3, 4, 5]);
    expect(e.value).toBe(3);
    expect(e.high - e.value).toBeCloseTo(2.7764 * Math.sqrt(2.5 / 5), 4);
    expect(meanInterval([0.4])).toEqual({ value: 0.4, low: 0.4, high: 0.4, n: 1 });
    expect(meanInterval([]).n).toBe(0);
  });

  test('a mean of bounded values has its interval cut to their range: 99 ones and a zero stay within [0, 1]', () => {
    const scores = [...Array<number>(99).fill(1), 0];
    const free = meanInterval(scores);
    expect(free.high).toBeGreaterThan(1);
    const cut = meanInterval(scores, FRACTION);
    expect(cut).toEqual({ value: 0.99, low: free.low, high: 1, n: 100 });
  });
});

describe('prices', () => {
  test('exact ids, dated ids by prefix, settings overrides, free local models, unknown models unpriced', () => {
    expect(priceFor('openai/gpt-4o')).toMatchObject({ input: 2.5, output: 10 });
    expect(priceFor('openai/gpt-4o-mini')).toMatchObject({ input: 0.15 });
    expect(priceFor('anthropic/claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, cached_input: 0.3 });
    expect(priceFor('openai/gpt-4o', { 'openai/gpt-4o': { input: 1, output: 2 } })).toEqual({ input: 1, output: 2 });
    expect(priceFor('oracle')).toEqual({ input: 0, output: 0 });
    expect(priceFor('ollama/llama3.1')).toEqual({ input: 0, output: 0 });
    expect(priceFor('openrouter/some/model')).toBeUndefined();
  });

  test('cost: uncached, cached and cache-write input and output, per million tokens', () => {
    const price = { input: 3, cached_input: 0.3, cache_write_input: 3.75, output: 15 };
    expect(costOf({ input: 1_000_000, cached: 0, cacheWrite: 0, output: 0 }, price)).toBeCloseTo(3);
    expect(costOf({ input: 1_000_000, cached: 500_000, cacheWrite: 100_000, output: 200_000 }, price)).toBeCloseTo(
      0.4 * 3 + 0.5 * 0.3 + 0.1 * 3.75 + 0.2 * 15,
    );
  });

  test('the recorder counts per agent and prices the tokens', () => {
    const seen: string[] = [];
    const r = new RunRecorder({ Andy: 'openai/gpt-4o', Jill: 'oracle' }, { forward: (e) => seen.push(e.type) });
    r.emit({
      type: 'request',
      t: 0,
      agent: 'Andy',
      model: 'openai/gpt-4o',
      purpose: 'conversing',
      system: '',
      turns: [],
      reply: 'hi',
      usage: { input: 1000, cached: 0, cacheWrite: 0, output: 100 },
      ms: 5,
    });
    r.emit({
      type: 'command',
      t: 0,
      agent: 'Jill',
      command: '!craftRecipe("stick", 4)',
      kind: 'action',
      ok: false,
      output: 'no planks',
      ms: 3,
    });
    r.emit({ type: 'message', t: 0, agent: 'Jill', direction: 'received', peer: 'Andy', channel: 'bot', text: 'hi' });
    expect(r.stats('Andy')).toMatchObject({ requests: 1, tokens: { input: 1000, output: 100 }, cost_usd: 0.0035 });
    expect(r.stats('Jill')).toMatchObject({ commands_run: 1, commands_failed: 1, messages_received: 1, cost_usd: 0 });
    expect(totals({ Andy: r.stats('Andy'), Jill: r.stats('Jill') })).toMatchObject({ commands_failed: 1, requests: 1, cost_usd: 0.0035 });
    expect(seen).toEqual(['request', 'command', 'message']);
  });
});

describe('campaigns', () => {
  test('files and folders expand to runs with stable ids; --ids filters; --episodes repeats', async () => {
    const all = await planCampaign({ inputs: [FIXTURES] });
    expect(all.length).toBe(6);
    const runs = await planCampaign({ inputs: [path.join(FIXTURES, 'crafting_2_agents.json')], ids: 'compass|firework', episodes: 2 });
    expect(runs.map((r) => r.runId)).toEqual([
      'minecollab/crafting_2_agents/multiagent_crafting_firework_rocket_partial_plan__depth_0/1',
      'minecollab/crafting_2_agents/multiagent_crafting_firework_rocket_partial_plan__depth_0/2',
      'minecollab/crafting_2_agents/multiagent_crafting_compass_partial_plan_requires_ctable__depth_0/1',
      'minecollab/crafting_2_agents/multiagent_crafting_compass_partial_plan_requires_ctable__depth_0/2',
    ]);
    expect(runs[0]!.folder).toBe('minecollab__crafting_2_agents__multiagent_crafting_firework_rocket_partial_plan__depth_0__1');
    expect(runFolder('a/b c/1')).toBe('a__b_c__1');
    expect(fileKeys(['/x/a/tasks.json', '/y/a/tasks.json'])).toEqual(
      new Map([
        ['/x/a/tasks.json', 'x/a/tasks'],
        ['/y/a/tasks.json', 'y/a/tasks'],
      ]),
    );
  });

  test('--coordination is a dimension like episodes: chat keeps the old ids, the others go before the episode', async () => {
    const runs = await planCampaign({
      inputs: [path.join(FIXTURES, 'crafting_2_agents.json')],
      ids: 'compass',
      episodes: 2,
      coordinations: ['chat', 'dag', 'causal'],
    });
    const key = 'minecollab/crafting_2_agents/multiagent_crafting_compass_partial_plan_requires_ctable__depth_0';
    expect(runs.map((r) => [r.runId, r.coordination])).toEqual([
      [`${key}/1`, 'chat'],
      [`${key}/2`, 'chat'],
      [`${key}/dag/1`, 'dag'],
      [`${key}/dag/2`, 'dag'],
      [`${key}/causal/1`, 'causal'],
      [`${key}/causal/2`, 'causal'],
    ]);
    expect(new Set(runs.map((r) => r.folder)).size).toBe(6);
    expect(runIdOf('k', 't', 3, 'dag')).toBe('k/t/dag/3');
    expect(parseCoordinations(' dag, chat ,dag')).toEqual(['dag', 'chat']);
    expect(() => parseCoordinations('dag,star')).toThrow('--coordination: "star" is not a strategy; use chat, dag, causal');
    expect(() => parseCoordinations(',')).toThrow(TaskError);
  });

  test("--max-timeout caps each task's timeout and leaves shorter ones alone", async () => {
    const own = await planCampaign({ inputs: [FIXTURES] });
    const capped = await planCampaign({ inputs: [FIXTURES], maxTimeoutS: 60 });
    expect(own.some((r) => r.task.timeout > 60)).toBe(true);
    expect(capped.map((r) => r.task.timeout)).toEqual(own.map((r) => Math.min(r.task.timeout, 60)));
    await expect(planCampaign({ inputs: [FIXTURES], maxTimeoutS: 0 })).rejects.toThrow(/--max-timeout/);
  });

  test('bad input is a TaskError: missing file, bad pattern, no matching task, episodes < 1', async () => {
    await expect(planCampaign({ inputs: ['nope.json'] })).rejects.toThrow(TaskError);
    await expect(planCampaign({ inputs: [FIXTURES], ids: '(' })).rejects.toThrow(/--ids: not a regular expression/);
    await expect(planCampaign({ inputs: [FIXTURES], ids: 'zzz' })).rejects.toThrow(/no task id matching/);
    await expect(planCampaign({ inputs: [FIXTURES], episodes: 0 })).rejects.toThrow(/--episodes/);
    const dir = await mkdtemp(path.join(tmpdir(), 'mc-eval-'));
    made.push(dir);
    await writeFile(path.join(dir, 'bad.json'), '{ not json');
    await expect(planCampaign({ inputs: [dir] })).rejects.toThrow(/not valid JSON/);
  });

  test('conditions: depth, missing items, blocked actions, plan access', async () => {
    const task = await loadTask(
      path.join(FIXTURES, 'crafting_2_agents.json'),
      'multiagent_crafting_compass_partial_plan_requires_ctable__depth_0',
    );
    expect(taskConditions(task)).toEqual({
      depth: 0,
      missing_items: [],
      blocked_actions: { 0: ['!getCraftingPlan'] },
      plan_access: 'partial',
    });
    const full = await loadTask(
      path.join(FIXTURES, 'crafting_2_agents.json'),
      'multiagent_crafting_purple_banner_full_plan_requires_ctable__depth_0',
    );
    expect(taskConditions(full)).toMatchObject({ plan_access: 'full' });
    expect(taskConditions(full).blocked_actions).toBeUndefined();
    expect(taskConditions({ ...full, blocked_actions: { 0: ['!getCraftingPlan'], 1: ['!getCraftingPlan'] } }).plan_access).toBe('none');
    const cooking = await loadTask(path.join(FIXTURES, 'cooking_3_agents.json'), 'multiagent_cooking_2_1_bread_1_golden_apple');
    expect(taskConditions(cooking)).toEqual({ plan_access: 'full' });
  });
});

/** A result line as the runner writes it, with the fields a test varies. */
function result(fields: Partial<RunResult> & { run_id: string }): RunResult {
  const perAgent = {
    Andy: {
      model: 'oracle',
      messages_sent: 1,
      messages_received: 1,
      commands_run: 2,
      commands_failed: 0,
      requests: 3,
      request_errors: 0,
      tokens: { input: 0, cached: 0, cache_write: 0, output: 0 },
      cost_usd: 0,
    },
  };
  return {
    task_id: fields.run_id.split('/').at(-2)!,
    task_file: 'f.json',
    episode: 1,
    type: 'techtree',
    agent_count: 2,
    human_count: 0,
    coordination: 'chat',
    score: 0,
    success: false,
    end_reason: 'timeout',
    duration_s: 10,
    setup_s: 2,
    play_s: 8,
    started_at: new Date(0).toISOString(),
    agents: ['Andy'],
    models: { Andy: 'oracle' },
    goals: { Andy: 'g' },
    commands: { Andy: [] },
    per_agent: perAgent,
    ...totals(perAgent),
    ...fields,
  };
}

describe('summary', () => {
  const results = [
    result({ run_id: 'k/a/1', success: true, score: 1, end_reason: 'success', depth: 0, plan_access: 'full' }),
    result({ run_id: 'k/a/2', depth: 0, plan_access: 'full' }),
    result({ run_id: 'k/b/1', success: true, score: 1, end_reason: 'success', depth: 1, plan_access: 'partial', agent_count: 3 }),
    result({ run_id: 'k/c/1', depth: 1, plan_access: 'none', agent_count: 3, end_reason: 'missing_agent', cost_usd: null }),
  ];

  test('rows per dimension agree with the results they summarise', () => {
    const rows = summarise(results);
    const all = rows.find((r) => r.dimension === 'all')!;
    expect(all).toMatchObject({ runs: 4, successes: 2, failed_runs: 1, cost_usd: null });
    expect(all.success).toEqual(wilsonInterval(2, 4));
    expect(all.score).toEqual(meanInterval([1, 0, 1, 0], FRACTION));
    expect(rows.filter((r) => r.dimension === 'agents').map((r) => [r.group, r.runs, r.successes])).toEqual([
      ['2', 2, 1],
      ['3', 2, 1],
    ]);
    expect(rows.filter((r) => r.dimension === 'plan access').map((r) => r.group)).toEqual(['full', 'none', 'partial']);
    expect(rows.filter((r) => r.dimension === 'depth').map((r) => r.runs)).toEqual([2, 2]);
    const table = formatSummary(rows);
    expect(table).toContain('all runs');
    expect(table).toContain('50% (2)');
  });

  test('strategies: a coordination row each, with the means of their metrics; the file key leaves the strategy out', () => {
    const metrics = (efficiency: number, balance: number | null, messages: number) => ({
      completion: 1,
      efficiencyPerMinute: efficiency,
      efficiencyPerAgentMinute: efficiency,
      activeMs: {},
      balance,
      balanceCode: balance,
      balanceBS: balance,
      tokenCost: 0,
      outputTokens: 0,
      tokensByRole: { decompose: { calls: 2, input: 10, output: 4 } },
      tokensByAgent: {},
      modelCalls: 2,
      planning: { perAgent: {}, mean: 3 },
      messages,
      actions: 5,
      wallMs: 8_000,
    });
    const runs = [
      result({ run_id: 'k/a/1', coordination: 'chat', metrics: metrics(0.5, 0.9, 10) }),
      result({ run_id: 'k/a/dag/1', task_id: 'a', coordination: 'dag', success: true, score: 1, metrics: metrics(1, 0.8, 0) }),
      result({ run_id: 'k/a/dag/2', task_id: 'a', coordination: 'dag', metrics: metrics(2, null, 2) }),
      // Recorded before metrics existed: counted, not in the means.
      result({ run_id: 'k/b/dag/1', task_id: 'b', coordination: 'dag' }),
    ];
    expect(runs.map(fileKeyOf)).toEqual(['k', 'k', 'k', 'k']);
    const rows = summarise(runs).filter((r) => r.dimension === 'coordination');
    expect(rows.map((r) => [r.group, r.runs, r.successes, r.metrics.runs])).toEqual([
      ['chat', 1, 0, 1],
      ['dag', 3, 1, 2],
    ]);
    expect(rows[1]!.metrics).toMatchObject({
      efficiency_per_min: 1.5,
      balance: 0.8,
      messages: 1,
      planning: 3,
      roles: { decompose: { calls: 4, output: 8 } },
    });
    const table = formatSummary(summarise(runs));
    expect(table).toMatch(/strategy.*eff\.\/min/);
    const csv = parse<Record<string, string>>(summaryCsv(summarise(runs)), { columns: true });
    expect(csv.find((r) => r.dimension === 'coordination' && r.group === 'dag')).toMatchObject({
      mean_efficiency_per_min: '1.5',
      metric_runs: '2',
    });
  });

  test('CSV: a header and one line per row, numbers as numbers, unknown cost empty', () => {
    const rows = summarise(results);
    const parsed = parse(summaryCsv(rows), { columns: true });
    expect(Object.keys(parsed[0]!)).toEqual([...SUMMARY_CSV_COLUMNS]);
    expect(parsed.length).toBe(rows.length);
    expect(parsed[0]).toMatchObject({ dimension: 'all', group: 'all runs', runs: '4', successes: '2', success_rate: '0.5', cost_usd: '' });
  });

  test('results.jsonl: last line of a run id wins; a bad line is named', () => {
    const text = [JSON.stringify(results[1]), '', JSON.stringify({ ...results[1], success: true })].join('\n');
    expect(parseResults(text).map((r) => r.success)).toEqual([true]);
    expect(() => parseResults('{"x": 1}', 'r.jsonl')).toThrow(/r\.jsonl:1: not a run result/);
  });

  test('report.html is one self-contained page: the chart library inlined, no network', () => {
    const html = reportHtml({
      title: 'T <1>',
      results,
      rows: summarise(results),
      chartJs: 'window.Chart = function () {}; /* </script> */',
      generatedAt: new Date(0),
    });
    expect(html).toContain('<title>T &lt;1&gt;</title>');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\//);
    expect(html.match(/<\/script>/g)!.length).toBe(2);
    expect(html).toContain('k/c/1');
  });

  test("report.html draws each graph-strategy run's last graph, the strategies side by side", () => {
    const graph = (strategy: string) => ({
      type: 'graph' as const,
      t: 0,
      strategy,
      version: 9,
      change: '1.2 success: Alice holds 1 cake',
      nodes: [
        {
          id: '1.1',
          description: 'Give 2 wheat to Alice',
          status: 'success' as const,
          candidates: ['Bob'],
          assigned: ['Bob'],
          number: 1,
          predecessors: [],
        },
        {
          id: '1.2',
          description: 'Make 1 <cake>',
          status: 'failure' as const,
          candidates: ['Alice'],
          assigned: ['Alice'],
          number: 1,
          predecessors: ['1.1'],
        },
      ],
      edges: [
        { from: '1.1', to: '1.2', origin: 'rule_added' as const },
        { from: '1.2', to: '1.1', origin: 'ate_removed' as const, removed: true },
      ],
    });
    const runs = [
      result({ run_id: 'k/a/dag/1', task_id: 'a', coordination: 'dag' }),
      result({ run_id: 'k/a/causal/1', task_id: 'a', coordination: 'causal' }),
      result({ run_id: 'k/a/1', task_id: 'a', coordination: 'chat' }),
    ];
    const html = reportHtml({
      title: 'T',
      results: runs,
      rows: summarise(runs),
      chartJs: '',
      generatedAt: new Date(0),
      graphs: { 'k/a/dag/1': graph('dag'), 'k/a/causal/1': graph('causal') },
    });
    const section = html.slice(html.indexOf('<h2>Task graphs</h2>'), html.indexOf('<h2>Summary</h2>'));
    // One task, two graphs side by side (causal, dag), each with its nodes, escaped, and its removed edge dashed.
    expect(section.match(/<h3>/g)).toHaveLength(1);
    expect(section.match(/<svg /g)).toHaveLength(2);
    expect(section.indexOf('<b>causal</b>')).toBeLessThan(section.indexOf('<b>dag</b>'));
    expect(section).toContain('Make 1 &lt;cake&gt;');
    expect(section.match(/stroke-dasharray/g)).toHaveLength(2);
    expect(html).toContain('<h2>Strategies side by side</h2>');
    expect(html).not.toMatch(/https?:\/\//);
  });
});

describe('SFT export: one conversation per bot', () => {
  const req = (turns: [string, string][], reply: string, fields: Partial<RequestEvent> = {}): RequestEvent => ({
    type: 'request',
    t: 0,
    agent: 'Jill',
    model: 'oracle',
    purpose: 'conversing',
    system: 'You are Jill.',
    ms: 1,
    turns: turns.map(([role, content]) => ({ role: role as 'user' | 'assistant', content })),
    reply,
    ...fields,
  });

  test('turns since the last reply, then the whole reply; other purposes and failed calls left out', () => {
    const messages = conversationOf([
      req([['user', 'Andy (a bot): hi']], 'Hello! !inventory'),
      req(
        [
          ['user', 'Andy (a bot): hi'],
          ['assistant', 'Hello! !inventory'],
          ['user', 'SYSTEM: Inventory: empty'],
        ],
        'I need sticks.',
      ),
      req([['user', 'x']], 'yes', { purpose: 'respond', maxTokens: 5 }),
      req([['user', 'y']], '', { error: 'aborted', reply: undefined }),
      // The window lost the oldest turns; the nudge of the goal loop is the last turn.
      req(
        [
          ['assistant', 'I need sticks.'],
          ['user', 'Andy (a bot): here'],
          ['user', 'SYSTEM: take the next step'],
        ],
        '!craftRecipe("stick", 4)',
      ),
    ]);
    expect(messages).toEqual([
      { role: 'system', content: 'You are Jill.' },
      { role: 'user', content: 'Andy (a bot): hi' },
      { role: 'assistant', content: 'Hello! !inventory' },
      { role: 'user', content: 'SYSTEM: Inventory: empty' },
      { role: 'assistant', content: 'I need sticks.' },
      { role: 'user', content: 'Andy (a bot): here\nSYSTEM: take the next step' },
      { role: 'assistant', content: '!craftRecipe("stick", 4)' },
    ]);
    expect(conversationOf([req([['user', 'x']], 'no', { purpose: 'memory', maxTokens: 300 })])).toBeUndefined();
  });
});
