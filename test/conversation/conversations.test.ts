import { expect, test } from 'vitest';
import { Conversations, InProcessTransport, type BotMessage } from '../../src/conversation/index.ts';

function setup(names: string[]) {
  const transport = new InProcessTransport();
  const inbox: Record<string, BotMessage[]> = {};
  const echoed: string[] = [];
  const convos: Record<string, Conversations> = {};
  for (const n of names) {
    inbox[n] = [];
    convos[n] = new Conversations(n, transport, (to, text) => echoed.push(`${n} (to ${to}) ${text}`));
    transport.register(n, (m) => { inbox[n].push(m); convos[n].receive(m); });
  }
  return { transport, inbox, echoed, convos };
}

const tick = () => new Promise((r) => setImmediate(r));

test('starting a conversation delivers the first message and makes both sides active', async () => {
  const { inbox, convos, echoed } = setup(['Andy', 'Jill']);
  expect(convos.Andy.start('Jill', 'Hi Jill')).toBe('Started a conversation with Jill.');
  await tick();
  expect(inbox.Jill).toEqual([{ from: 'Andy', to: 'Jill', text: 'Hi Jill', start: true }]);
  expect(convos.Andy.active).toBe('Jill');
  expect(convos.Jill.active).toBe('Andy');
  expect(echoed).toEqual(['Andy (to Jill) Hi Jill']);
});

test('a bot busy with someone else answers that it is busy and ends', async () => {
  const { inbox, convos } = setup(['Andy', 'Jill', 'Bob']);
  convos.Andy.start('Jill', 'Hi');
  await tick();
  convos.Bob.start('Jill', 'Hey Jill');
  await tick();
  await tick();
  expect(convos.Jill.active).toBe('Andy');
  const reply = inbox.Bob.at(-1)!;
  expect(reply).toMatchObject({ from: 'Jill', end: true });
  expect(reply.text).toMatch(/talking with Andy/);
  expect(convos.Bob.active).toBeUndefined();
});

test('ending a conversation tells the partner; unknown partners are refused with the bot list', async () => {
  const { convos } = setup(['Andy', 'Jill']);
  convos.Andy.start('Jill', 'Hi');
  await tick();
  expect(convos.Andy.end('Jill')).toBe('Ended the conversation with Jill.');
  await tick();
  expect(convos.Jill.active).toBeUndefined();
  expect(convos.Andy.end('Jill')).toBe('You are not in a conversation with Jill.');
  expect(() => convos.Andy.start('Steve', 'Hi')).toThrow(/Steve is not a bot you can converse with\. Bots: Jill/);
  expect(() => convos.Andy.start('Andy', 'Hi')).toThrow(/yourself/);
});

test('a player name that matches no registered bot never counts as a bot', () => {
  const { convos } = setup(['Andy', 'Jill']);
  expect(convos.Andy.isBot('Jill')).toBe(true);
  expect(convos.Andy.isBot('jill')).toBe(false);
  expect(convos.Andy.isBot('Steve')).toBe(false);
});
