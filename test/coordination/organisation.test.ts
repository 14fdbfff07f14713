/**
 * S-Agents' pure parts (`src/coordination/organisation.ts`): the tree's constraints and the chain
 * and graph variants, the order guard (leaves never command, one commander, no command cycles, no
 * delegation loops), quota splitting, the action planner's todos, the fixed report phrases, the
 * offline monitor's decisions and the time cost's "NaN" rule.
 */
import { describe, expect, test } from 'vitest';
import {
  monitorFromReports,
  OrderBook,
  Organisation,
  parseTodo,
  reportStatus,
  reportText,
  splitQuota,
  splitQuotas,
  stalled,
  timeCost,
} from '../../src/coordination/organisation.ts';
import { quotaPlan } from '../../src/coordination/sagents.ts';
import { FakeTeam } from './fake-team.ts';

const three = ['Andy', 'Jill', 'Bob'];

describe('the organisation', () => {
  test('tree: the root commands every leaf, leaves command nobody, each leaf has one commander', () => {
    const org = new Organisation('tree', three);
    expect(org.root).toBe('Andy');
    expect(org.edges()).toEqual([
      { commander: 'Andy', subordinate: 'Jill' },
      { commander: 'Andy', subordinate: 'Bob' },
    ]);
    expect(org.commands('Jill')).toBe(false);
    expect(org.mayCommand('Jill', 'Bob')).toBe(false);
    expect(org.commanderOf('Jill')).toBe('Andy');
    expect(org.commanderOf('Andy')).toBeUndefined();
    // Every agent has at most one commander.
    for (const a of three) expect(org.edges().filter((e) => e.subordinate === a).length).toBeLessThanOrEqual(1);
    expect(org.routeFromRoot('Bob')).toEqual(['Andy', 'Bob']);
  });

  test('chain: each agent commands the next; an order to the last is relayed', () => {
    const org = new Organisation('chain', three);
    expect(org.edges()).toEqual([
      { commander: 'Andy', subordinate: 'Jill' },
      { commander: 'Jill', subordinate: 'Bob' },
    ]);
    expect(org.routeFromRoot('Bob')).toEqual(['Andy', 'Jill', 'Bob']);
    expect(org.commanderOf('Bob')).toBe('Jill');
    expect(org.mayCommand('Andy', 'Bob')).toBe(false);
  });

  test('graph: everyone may command everyone else, nobody itself', () => {
    const org = new Organisation('graph', three);
    expect(org.edges()).toHaveLength(6);
    expect(org.mayCommand('Bob', 'Bob')).toBe(false);
    expect(org.commanderOf('Bob')).toBeUndefined();
  });

  test('bad teams are refused with what was wrong', () => {
    expect(() => new Organisation('tree', [])).toThrow(/at least one agent/);
    expect(() => new Organisation('tree', ['A', 'A'])).toThrow(/A is given twice/);
  });
});

describe('the order guard', () => {
  test('tree: a leaf that delegates, an unknown agent and an order to oneself are refused', () => {
    const book = new OrderBook(new Organisation('tree', three));
    expect(book.give('Jill', 'Bob', 'mine 10 stone')).toEqual({ ok: false, reason: expect.stringMatching(/Jill is a leaf/) });
    expect(book.give('Andy', 'Steve', 'mine 10 stone')).toEqual({ ok: false, reason: expect.stringMatching(/Steve is not an agent/) });
    expect(book.give('Andy', 'Andy', 'mine 10 stone')).toEqual({ ok: false, reason: expect.stringMatching(/does the task itself/) });
    expect(book.give('Andy', 'Bob', 'mine 10 stone').ok).toBe(true);
    expect(book.open().map((o) => `${o.from}→${o.to}`)).toEqual(['Andy→Bob']);
  });

  test('graph: a command cycle is refused while the first order is open, allowed once it is closed', () => {
    const book = new OrderBook(new Organisation('graph', three));
    const ab = book.give('Andy', 'Jill', 'craft a wooden pickaxe');
    expect(ab.ok).toBe(true);
    expect(book.give('Jill', 'Andy', 'craft a wooden pickaxe')).toEqual({
      ok: false,
      reason: 'a command cycle: Andy already commands Jill',
    });
    // Through a third agent too.
    expect(book.give('Jill', 'Bob', 'mine 3 logs').ok).toBe(true);
    expect(book.give('Bob', 'Andy', 'mine 3 logs').ok).toBe(false);
    if (ab.ok) book.close(ab.order.id);
    for (const o of book.open()) book.close(o.id);
    expect(book.give('Jill', 'Andy', 'craft a wooden pickaxe').ok).toBe(true);
  });

  test('graph: at most one commander at a time', () => {
    const book = new OrderBook(new Organisation('graph', three));
    expect(book.give('Andy', 'Bob', 'mine 10 stone').ok).toBe(true);
    expect(book.give('Jill', 'Bob', 'mine 5 logs')).toEqual({
      ok: false,
      reason: 'Bob already has a commander (Andy); an agent has at most one',
    });
    // The same commander may give a second order.
    expect(book.give('Andy', 'Bob', 'mine 5 logs').ok).toBe(true);
  });

  test('graph: the delegation loop of the paper (Fig. 9(a)) is cut', () => {
    const book = new OrderBook(new Organisation('graph', ['Leader', 'A', 'B']));
    const first = book.give('Leader', 'A', 'craft a wooden pickaxe');
    if (!first.ok) throw new Error(first.reason);
    const second = book.give('A', 'B', 'craft a wooden pickaxe', first.order.id);
    if (!second.ok) throw new Error(second.reason);
    // B passes it back to A: A has a commander already, and the task came through A.
    const back = book.give('B', 'A', 'craft a wooden pickaxe', second.order.id);
    expect(back.ok).toBe(false);
    // A second delegation is over the bound even to a fresh agent.
    const wide = new OrderBook(new Organisation('graph', ['L', 'A', 'B', 'C']));
    const l = wide.give('L', 'A', 't');
    const a = l.ok ? wide.give('A', 'B', 't', l.order.id) : l;
    const b = a.ok ? wide.give('B', 'C', 't', a.order.id) : a;
    expect(b).toEqual({ ok: false, reason: 'the task was passed on 1 times already (at most 1)' });
    expect(wide.check('B', 'C', a.ok ? a.order.id : undefined)).toMatch(/passed on/);
  });
});

describe('quotas', () => {
  test('split evenly, larger shares first (the paper: 50 logs → 17/17/16)', () => {
    expect(splitQuota(50, 3)).toEqual([17, 17, 16]);
    expect(splitQuota(100, 3)).toEqual([34, 33, 33]);
    expect(splitQuota(20, 2)).toEqual([10, 10]);
    expect(splitQuota(2, 3)).toEqual([1, 1, 0]);
    expect(splitQuota(50, 1)).toEqual([50]);
    expect(() => splitQuota(-1, 2)).toThrow(/whole number ≥ 0, got -1/);
    expect(() => splitQuota(5, 0)).toThrow(/parts must be a whole number ≥ 1, got 0/);
    expect(splitQuotas({ oak_log: 50, cobblestone: 2 }, three)).toEqual({
      Andy: { oak_log: 17, cobblestone: 1 },
      Jill: { oak_log: 17, cobblestone: 1 },
      Bob: { oak_log: 16 },
    });
  });

  test('the root plan: what the team lacks, split among collectors; leftovers to those that succeeded', () => {
    const t = new FakeTeam({
      Andy: { inventory: { oak_log: 2 } },
      Jill: { inventory: {} },
      Bob: { inventory: {}, task: { blockedActions: ['!collectBlocks'] } },
    });
    const plan = quotaPlan({ oak_log: 50 }, t.members);
    if (plan.kind !== 'work') throw new Error(plan.kind);
    // 48 left between the two collectors; Andy's target counts what he holds.
    expect(plan.subtasks.map((s) => [s.description, s.candidates, s.work])).toEqual([
      ['Mine 24 oak_log', ['Andy'], { kind: 'collect', targets: { oak_log: 26 } }],
      ['Mine 24 oak_log', ['Jill'], { kind: 'collect', targets: { oak_log: 24 } }],
    ]);
    const proven = quotaPlan({ oak_log: 50 }, t.members, ['Jill']);
    expect(proven.kind === 'work' && proven.subtasks.map((s) => s.description)).toEqual(['Mine 48 oak_log']);
    t.member('Jill')!.inv.oak_log = 48;
    expect(quotaPlan({ oak_log: 50 }, t.members)).toEqual({ kind: 'done', reason: 'the team holds 50 oak_log' });
    const none = new FakeTeam({ A: { inventory: {}, task: { blockedActions: ['!collectBlocks'] } } });
    expect(quotaPlan({ stone: 5 }, none.members).kind).toBe('unsolvable');
  });
});

describe('todos', () => {
  test.each([
    ['Mine 17 oak_log', '!collectBlocks("oak_log", 17)'],
    ['mine 25 oak log', '!collectBlocks("oak_log", 25)'],
    ['Craft 4 oak_planks', '!craftRecipe("oak_planks", 4)'],
    ['Craft a crafting_table', '!craftRecipe("crafting_table", 1)'],
    ['Smelt 20 raw_iron', '!smeltItem("raw_iron", 20)'],
    ['Cook 2 beef', '!smeltItem("beef", 2)'],
    ['Kill 2 cow', '!attack("cow")'],
    ['Equip stone_pickaxe.', '!equip("stone_pickaxe")'],
    ['Give 3 stick to Bob', '!givePlayer("Bob", "stick", 3)'],
    ['Place stone at (1, -60, 2)', '!placeBlockAt("stone", 1, -60, 2)'],
    ['!goToPlayer("Bob", 2)', '!goToPlayer("Bob", 2)'],
  ])('"%s" runs %s', (todo, command) => {
    expect(parseTodo(todo)).toEqual({ kind: 'command', command, todo });
  });

  test('"inform X to …" is an order to X; other text is unreadable with the forms to use', () => {
    expect(parseTodo('inform Jill to mine 17 oak_log')).toEqual({
      kind: 'inform',
      to: 'Jill',
      task: 'mine 17 oak_log',
      todo: 'inform Jill to mine 17 oak_log',
    });
    expect(parseTodo('Instruct Bob to kill 2 zombie')).toMatchObject({ kind: 'inform', to: 'Bob', task: 'kill 2 zombie' });
    const bad = parseTodo('think about the meaning of blocks');
    expect(bad).toMatchObject({
      kind: 'unreadable',
      reason: expect.stringMatching(/not a todo form; write "Mine \[quantity\] \[block\]"/),
    });
  });
});

describe('reports and the monitor', () => {
  test("the paper's fixed phrases, with the inventory", () => {
    expect(reportText('start', 'mine 17 oak_log')).toBe("I'll start the task mine 17 oak_log.");
    expect(reportText('success', 'mine 17 oak_log.', { oak_log: 17, dirt: 0 })).toBe(
      'I have succeeded the task mine 17 oak_log. My inventory: 17 oak_log.',
    );
    expect(reportText('fail', 'mine 5 iron_ore', {})).toBe('I have failed the task mine 5 iron_ore. My inventory: empty.');
  });

  test('each phrase states its status (the monitor prompt criteria 3–6); the last one decides', () => {
    expect(reportStatus("I'll start the task mine 3 logs")).toBe('unknown');
    expect(reportStatus('Got it!')).toBe('unknown');
    expect(reportStatus('I have succeeded in the task mine 3 logs')).toBe('success');
    expect(reportStatus('I have failed the task mine 3 logs')).toBe('fail');
    expect(reportStatus('the weather is nice')).toBeUndefined();
    expect(monitorFromReports([])).toBe('unknown');
    expect(monitorFromReports(['Got it!', "I'll start the task x"])).toBe('unknown');
    expect(monitorFromReports(["I'll start the task x", 'I have succeeded the task x. My inventory: 3 oak_log.'])).toBe('success');
    expect(monitorFromReports(['I have failed the task x', 'Got it!', 'nothing'])).toBe('unknown');
    expect(monitorFromReports(["I'll start the task x", 'I have failed the task x.'])).toBe('fail');
  });
});

describe("time cost (S-Agents' TC) and its NaN rule", () => {
  test('minutes of a run that succeeded; NaN otherwise', () => {
    expect(timeCost({ success: true, wallMs: 450_000 })).toBe(7.5);
    expect(timeCost({ success: false, wallMs: 450_000 })).toBe('NaN');
  });

  test('stalled: more than 5 attempts and 40 minutes without progress', () => {
    expect(stalled(6, 40 * 60_000)).toBe(true);
    expect(stalled(5, 60 * 60_000)).toBe(false);
    expect(stalled(6, 39 * 60_000)).toBe(false);
    expect(stalled(2, 1_000, { minutes: 0, attempts: 1 })).toBe(true);
  });
});
