/** The conversation state machine and its turn-taking rules, over the in-process hub, with fake timers. */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import {
  Conversations,
  InProcessHub,
  MAX_HELD_LINES,
  noticeText,
  type ConversationHost,
  type ConversationNotice,
} from '../../src/conversation/index.ts';

interface Probe {
  convo: Conversations;
  busy: boolean;
  delivered: { partner: string; lines: string[]; at: number }[];
  notes: string[];
  /** The same notices as data. */
  notices: ConversationNotice[];
  reminders: { partner: string; silentMs: number; at: number }[];
  asked: string[][];
  answer: boolean;
}

let t0 = 0;

/** One probe per name, keyed by the names given (so `bots.Jill` exists exactly when 'Jill' was set up). */
function setup<const Name extends string>(names: readonly Name[]) {
  const hub = new InProcessHub();
  const echoed: string[] = [];
  const bots = {} as Record<Name, Probe>;
  for (const n of names) {
    const convo = new Conversations(n, hub.endpoint(n), { echo: (to, text) => echoed.push(`${n} (to ${to}) ${text}`) });
    const probe: Probe = { convo, busy: false, delivered: [], notes: [], notices: [], reminders: [], asked: [], answer: false };
    const host: ConversationHost = {
      isBusy: () => probe.busy,
      shouldRespond: async (_p, lines) => {
        probe.asked.push(lines);
        return probe.answer;
      },
      deliver: (partner, lines) => probe.delivered.push({ partner, lines, at: Date.now() - t0 }),
      note: (notice) => {
        probe.notices.push(notice);
        probe.notes.push(noticeText(notice));
      },
      remind: (partner, silentMs) => probe.reminders.push({ partner, silentMs, at: Date.now() - t0 }),
    };
    convo.attach(host);
    bots[n] = probe;
  }
  return { hub, echoed, bots };
}

const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers();
  t0 = Date.now();
});
afterEach(() => {
  vi.useRealTimers();
});

test('starting a conversation: the starter awaits, the partner becomes active and gets the line after 200 ms', async () => {
  const { bots, echoed } = setup(['Andy', 'Jill']);
  expect(bots.Andy.convo.start('Jill', 'Hi Jill')).toBe('Started a conversation with Jill.');
  expect(bots.Andy.convo.state('Jill')).toBe('awaiting');
  await advance(0);
  expect(bots.Jill.convo.state('Andy')).toBe('active');
  expect(bots.Jill.convo.active).toBe('Andy');
  await advance(199);
  expect(bots.Jill.delivered).toEqual([]);
  await advance(1);
  expect(bots.Jill.delivered).toEqual([{ partner: 'Andy', lines: ['Hi Jill'], at: 200 }]);
  expect(echoed).toEqual(['Andy (to Jill) Hi Jill']);
});

test('lines arriving during the wait restart it and are delivered together, as separate lines', async () => {
  const { bots } = setup(['Andy', 'Jill']);
  bots.Andy.convo.start('Jill', 'first');
  await advance(150);
  bots.Andy.convo.say('Jill', 'second\nthird line');
  await advance(150);
  expect(bots.Jill.delivered).toEqual([]);
  await advance(60);
  expect(bots.Jill.delivered).toEqual([{ partner: 'Andy', lines: ['first', 'second\nthird line'], at: 350 }]);
});

test('a partner whose message came with a command is answered after 5 s', async () => {
  const { bots } = setup(['Andy', 'Jill']);
  bots.Andy.convo.start('Jill', 'hi');
  await advance(300);
  bots.Jill.delivered.length = 0;
  bots.Andy.convo.say('Jill', 'Collecting logs now.', true);
  await advance(4_900);
  expect(bots.Jill.delivered).toEqual([]);
  await advance(200);
  expect(bots.Jill.delivered.map((d) => d.lines)).toEqual([['Collecting logs now.']]);
});

test('when I am acting, a cheap decision says whether to answer now; "no" holds the lines until I am idle', async () => {
  const { bots } = setup(['Andy', 'Jill']);
  bots.Jill.busy = true;
  bots.Andy.convo.start('Jill', 'can you help?');
  await advance(20_000);
  expect(bots.Jill.asked).toEqual([['can you help?']]); // asked once, not on every re-check
  expect(bots.Jill.delivered).toEqual([]);
  bots.Jill.busy = false;
  bots.Jill.convo.wake();
  await advance(200);
  expect(bots.Jill.delivered.map((d) => d.lines)).toEqual([['can you help?']]);
});

test('when I am acting and the decision is "yes", the lines are delivered at once', async () => {
  const { bots } = setup(['Andy', 'Jill']);
  bots.Jill.busy = true;
  bots.Jill.answer = true;
  bots.Andy.convo.start('Jill', 'stop, danger!');
  await advance(250);
  expect(bots.Jill.delivered.map((d) => d.lines)).toEqual([['stop, danger!']]);
});

test('both acting: no decision is asked and the lines wait; the partner turning idle makes them due', async () => {
  const { bots } = setup(['Andy', 'Jill']);
  bots.Andy.convo.start('Jill', 'hi');
  await advance(300);
  bots.Jill.busy = true;
  bots.Andy.convo.say('Jill', 'mining', true);
  await advance(30_000);
  expect(bots.Jill.asked).toEqual([]);
  expect(bots.Jill.delivered.length).toBe(1);
  bots.Jill.busy = false;
  await advance(5_000); // the periodic re-check notices without wake()
  await advance(5_000);
  expect(bots.Jill.delivered.at(-1)!.lines).toEqual(['mining']);
});

test('lines held while both act are bounded: past the bound the oldest go, and the agent is told how many with the rest', async () => {
  const { bots } = setup(['Andy', 'Jill']);
  bots.Andy.convo.start('Jill', 'hi');
  await advance(300);
  bots.Jill.busy = true;
  const sent = MAX_HELD_LINES + 12;
  for (let i = 1; i <= sent; i++) bots.Andy.convo.say('Jill', `step ${i}`, true);
  await advance(60_000);
  expect(bots.Jill.delivered.length).toBe(1); // held: both act
  bots.Jill.busy = false;
  bots.Jill.convo.wake();
  await advance(5_000);
  const lines = bots.Jill.delivered.at(-1)!.lines;
  expect(lines).toHaveLength(MAX_HELD_LINES);
  expect(lines[0]).toBe(`step ${sent - MAX_HELD_LINES + 1}`);
  expect(lines.at(-1)).toBe(`step ${sent}`);
  expect(bots.Jill.notices).toContainEqual({ kind: 'dropped', partner: 'Andy', count: 12, limit: MAX_HELD_LINES });
  expect(bots.Jill.notes).toContain(
    `12 earlier line(s) from Andy were dropped unread: at most ${MAX_HELD_LINES} wait while you are both busy.`,
  );
});

test('a bot talking to someone else answers "busy" and ends; the other conversation is untouched', async () => {
  const { bots } = setup(['Andy', 'Jill', 'Bob']);
  bots.Andy.convo.start('Jill', 'Hi');
  await advance(0);
  bots.Bob.convo.start('Jill', 'Hey Jill');
  await advance(10);
  expect(bots.Jill.convo.active).toBe('Andy');
  expect(bots.Bob.convo.state('Jill')).toBe('ended');
  expect(bots.Bob.notes.at(-1)).toMatch(/Jill ended the conversation: I'm talking with Andy right now/);
  expect(bots.Jill.notes.at(-1)).toMatch(/Bob wanted to talk; you were busy with Andy: Hey Jill/);
  expect(bots.Jill.notices.at(-1)).toMatchObject({ kind: 'refused', partner: 'Bob', current: 'Andy' });
});

test('switching partners ends the old conversation and tells the old partner', async () => {
  const { bots } = setup(['Andy', 'Jill', 'Bob']);
  bots.Andy.convo.start('Jill', 'Hi');
  await advance(300);
  bots.Andy.convo.start('Bob', 'Hi Bob');
  await advance(300);
  expect(bots.Andy.convo.state('Jill')).toBe('ended');
  expect(bots.Jill.convo.state('Andy')).toBe('ended');
  expect(bots.Jill.notes).toContain('Andy ended the conversation.');
  expect(bots.Andy.convo.active).toBe('Bob');
  expect(bots.Bob.delivered.map((d) => d.lines)).toEqual([['Hi Bob']]);
  // Now Jill is free for Bob? No: Bob talks with Andy, so Jill is refused.
  bots.Jill.convo.start('Bob', 'Bob?');
  await advance(300);
  expect(bots.Jill.convo.state('Bob')).toBe('ended');
});

test('lines still waiting when the partner ends the conversation are noted with the end, not lost', async () => {
  const { bots } = setup(['Andy', 'Jill', 'Bob']);
  bots.Jill.busy = true; // acting (a mode's action): the decision says wait until idle
  bots.Andy.convo.start('Jill', 'Go. Jill places 7 blocks.');
  await advance(1_000);
  expect(bots.Jill.delivered).toEqual([]);
  bots.Andy.convo.start('Bob', 'Go. Bob places 7 blocks.'); // ends the conversation with Jill
  await advance(0);
  expect(bots.Jill.convo.state('Andy')).toBe('ended');
  expect(bots.Jill.notes).toEqual(['Andy said before ending the conversation: Go. Jill places 7 blocks.', 'Andy ended the conversation.']);
  expect(bots.Jill.notices).toEqual([
    { kind: 'unread', partner: 'Andy', lines: ['Go. Jill places 7 blocks.'] },
    { kind: 'ended', partner: 'Andy', text: '' },
  ]);
  bots.Jill.busy = false;
  bots.Jill.convo.wake();
  await advance(10_000);
  expect(bots.Jill.delivered).toEqual([]); // noted once, not delivered as well
});

test('a line arriving after the end is noted, not answered; a new start reopens', async () => {
  const { bots } = setup(['Andy', 'Jill']);
  bots.Andy.convo.start('Jill', 'Hi');
  await advance(300);
  expect(bots.Jill.convo.end('Andy')).toBe('Ended the conversation with Andy.');
  expect(bots.Jill.convo.end('Andy')).toBe('You are not in a conversation with Andy.');
  await advance(0);
  expect(bots.Andy.convo.state('Jill')).toBe('ended');
  expect(bots.Andy.convo.say('Jill', 'still there?')).toBe(false);
  bots.Andy.convo.start('Jill', 'again');
  await advance(300);
  expect(bots.Jill.convo.state('Andy')).toBe('active');
  expect(bots.Jill.delivered.at(-1)!.lines).toEqual(['again']);
});

test('a silent partner triggers reminders after 30 s, then 60 s more, then 120 s more; an answer resets them', async () => {
  const { bots } = setup(['Andy', 'Jill']);
  bots.Andy.convo.start('Jill', 'Hi');
  await advance(29_999);
  expect(bots.Andy.reminders).toEqual([]);
  await advance(1);
  await advance(60_000);
  await advance(120_000);
  expect(bots.Andy.reminders.map((r) => [r.at, r.silentMs])).toEqual([
    [30_000, 30_000],
    [90_000, 90_000],
    [210_000, 210_000],
  ]);
  // Jill answers: no reminder while Andy owes the answer; after Andy speaks, 30 s again.
  bots.Jill.convo.say('Andy', 'sorry, here');
  await advance(100_000);
  expect(bots.Andy.reminders.length).toBe(3);
  bots.Andy.convo.say('Jill', 'ok');
  await advance(30_000);
  expect(bots.Andy.reminders.length).toBe(4);
});

test('a partner who leaves ends the conversation after 10 s, unless back in time', async () => {
  const { bots } = setup(['Andy', 'Jill']);
  bots.Andy.convo.start('Jill', 'Hi');
  await advance(300);
  bots.Andy.convo.presence('Jill', false);
  await advance(9_000);
  bots.Andy.convo.presence('Jill', true);
  await advance(5_000);
  expect(bots.Andy.convo.state('Jill')).toBe('awaiting');
  bots.Andy.convo.presence('Jill', false);
  await advance(9_999);
  expect(bots.Andy.convo.active).toBe('Jill');
  await advance(1);
  expect(bots.Andy.convo.state('Jill')).toBe('ended');
  expect(bots.Andy.convo.active).toBeUndefined();
  expect(bots.Andy.notes).toContain('Jill left the server; the conversation ended.');
});

test('delays come from the options', async () => {
  const hub = new InProcessHub();
  const a = new Conversations('Andy', hub.endpoint('Andy'));
  const j = new Conversations('Jill', hub.endpoint('Jill'), { timings: { replyDelayMs: 1_000 } });
  const got: number[] = [];
  j.attach({
    isBusy: () => false,
    shouldRespond: async () => true,
    deliver: () => got.push(Date.now() - t0),
    note: () => {},
    remind: () => {},
  });
  a.start('Jill', 'hi');
  await advance(2_000);
  expect(got).toEqual([1_000]);
});

test('unknown partners are refused with the list of bots; a player name never counts as a bot', () => {
  const { bots, hub } = setup(['Andy', 'Jill']);
  expect(() => bots.Andy.convo.start('Steve', 'Hi')).toThrow(/Steve is not a bot you can converse with\. Bots: Jill/);
  expect(() => bots.Andy.convo.start('Andy', 'Hi')).toThrow(/yourself/);
  expect(bots.Andy.convo.isBot('Jill')).toBe(true);
  expect(bots.Andy.convo.isBot('jill')).toBe(false);
  expect(bots.Andy.convo.isBot('Steve')).toBe(false);
  // The hub stamps the sender: a message claiming another name still comes from its endpoint.
  const seen: string[] = [];
  const steve = hub.endpoint('Bob');
  bots.Jill.convo.attach({ ...noopHost, deliver: (p) => seen.push(p) });
  steve.send({ from: 'Andy', to: 'Jill', text: 'I am Andy', start: true });
  return vi.advanceTimersByTimeAsync(300).then(() => expect(seen).toEqual(['Bob']));
});

const noopHost: ConversationHost = {
  isBusy: () => false,
  shouldRespond: async () => true,
  deliver: () => {},
  note: () => {},
  remind: () => {},
};
