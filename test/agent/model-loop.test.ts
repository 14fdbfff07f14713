/**
 * The model loop alone, with a scripted model and scripted commands (no server, no provider):
 * its bounds, how outcomes are fed back, and how it ends when stopped, interrupted or when a
 * player's new message comes in.
 */
import { describe, expect, test } from 'vitest';
import { History } from '../../src/agent/history.ts';
import { ModelLoop, type LoopCommands, type LoopPrompts, type LoopReplies, type ModelLoopOptions } from '../../src/agent/model-loop.ts';
import { TokenBudget } from '../../src/agent/token-budget.ts';
import type { CommandContext } from '../../src/commands/context.ts';
import { parseCommand, type ParseResult } from '../../src/commands/parser.ts';
import type { IncomingMessage } from '../../src/conversation/types.ts';
import { nameResolver } from '../../src/game/names.ts';
import { ModelError, type ChatModel, type ChatRequest } from '../../src/models/types.ts';
import type { CommandOutcome } from '../../src/skills/outcome.ts';
import { registry } from '../commands/fake-registry.ts';
import { TEST_VERSION } from '../helpers/version.ts';
import { waitUntil } from '../helpers/wait.ts';

/** One scripted answer: a reply, a failure, or a function of the request (it may wait). */
type Script = string | Error | ((req: ChatRequest) => Promise<string>);

/** A model that replays fixed answers and keeps every request. */
class ScriptedModel implements ChatModel {
  readonly id = 'scripted';
  readonly requests: ChatRequest[] = [];
  readonly script: Script[];
  constructor(script: Script[]) {
    this.script = script;
  }
  async complete(req: ChatRequest): Promise<string> {
    this.requests.push(req);
    const next = this.script.shift();
    if (next === undefined) return 'Nothing more to do.';
    if (next instanceof Error) throw next;
    if (typeof next === 'function') {
      return new Promise((resolve, reject) => {
        req.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        next(req).then(resolve, reject);
      });
    }
    return next;
  }
}

const names = nameResolver(TEST_VERSION);

/** Commands parsed with the real parser (over a small registry) and run by a script of outcomes. */
function scriptedCommands(outcomes: Record<string, (args: Record<string, unknown>) => Promise<Partial<CommandOutcome>>> = {}) {
  const ran: string[] = [];
  const commands: LoopCommands = {
    parse: (text) => parseCommand(text, registry, names) as unknown as ParseResult<CommandContext>,
    async run(parsed) {
      ran.push(parsed.source);
      const scripted = outcomes[parsed.command.name];
      const partial = scripted ? await scripted(parsed.args) : {};
      return { command: parsed.command.name, args: parsed.args, ok: true, code: 'ok', text: `${parsed.command.name} done.`, ...partial };
    },
  };
  return { commands, ran };
}

function setup(script: Script[], options: Partial<ModelLoopOptions> = {}, outcomes?: Parameters<typeof scriptedCommands>[0]) {
  const model = new ScriptedModel(script);
  const history = new History({ maxMessages: 50 });
  const said: { to: string; text: string }[] = [];
  const announced: string[] = [];
  const replies: LoopReplies = {
    say: (source, text) => {
      if (text.trim()) said.push({ to: source.from, text });
    },
    announce: (text) => announced.push(text),
  };
  const prompts: LoopPrompts = {
    conversing: async () => ({ system: 'You are a bot.', live: 'STATE' }),
    tools: () => undefined,
    message: (key, values) => `${key} ${JSON.stringify(values)}`,
  };
  const actions = { current: undefined as string | undefined };
  const { commands, ran } = scriptedCommands(outcomes);
  const loop = new ModelLoop({ model, history, prompts, commands, actions, replies }, { maxCommands: 20, ...options });
  return { loop, model, history, said, announced, ran, actions };
}

const steve: IncomingMessage = { from: 'Steve', text: 'get wood', channel: 'whisper' };
const system = (history: History) => history.turns.filter((t) => t.content.startsWith('SYSTEM: ')).map((t) => t.content.slice(8));

describe('ModelLoop', () => {
  test('runs the command of each reply and feeds its outcome back, until a reply has none; the words go back to the asker', async () => {
    const { loop, model, history, said, ran } = setup(['On it. !collectBlocks("oak_log", 3)', '!stats', 'Got the wood.']);
    expect(await loop.think(steve)).toEqual({ commands: 2 });
    expect(ran).toEqual(['!collectBlocks("oak_log", 3)', '!stats']);
    expect(said).toEqual([
      { to: 'Steve', text: 'On it.' },
      { to: 'Steve', text: 'Got the wood.' },
    ]);
    expect(system(history)).toEqual(['!collectBlocks done.', '!stats done.']);
    // Each call saw the outcome of the command before it.
    expect(model.requests[1]!.turns.at(-1)!.content).toBe('SYSTEM: !collectBlocks done.');
    expect(model.requests[0]!.system).toBe('You are a bot.');
    expect(model.requests[0]!.live).toBe('STATE');
  });

  test('stops at max_commands and says why in the history', async () => {
    const { loop, ran, history } = setup(['!stats', '!inventory', '!stats', '!inventory'], { maxCommands: 2 });
    expect((await loop.think(steve)).commands).toBe(2);
    expect(ran).toEqual(['!stats', '!inventory']);
    expect(system(history).at(-1)).toMatch(/^command_limit .*"MAX_COMMANDS":"2"/);
  });

  test('the same command with the same outcome 3 times in a row ends the loop; the 4th ask is not run', async () => {
    const { loop, ran, history } = setup(Array(6).fill('Sure! !inventory'));
    expect((await loop.think(steve)).commands).toBe(3);
    expect(ran).toHaveLength(3);
    expect(system(history).at(-1)).toMatch(/^repeated_command/);
    // Asked again later for the same command: not run, not counted.
    expect((await loop.think({ from: 'system', text: 'go on', channel: 'system' })).commands).toBe(0);
    expect(ran).toHaveLength(3);
  });

  test('the same command with another outcome code is no repeat', async () => {
    let n = 0;
    const { loop, ran } = setup(
      Array(5).fill('!stats').concat(['Done.']),
      {},
      {
        '!stats': async () => (n++ % 2 ? { ok: false, code: 'failed' } : {}),
      },
    );
    expect((await loop.think(steve)).commands).toBe(5);
    expect(ran).toHaveLength(5);
  });

  test('malformed commands are fed back with the parser error; three in a row end the loop', async () => {
    const { loop, ran, history } = setup(['!collectBlocks("oak_log")', '!collectBlocks(3)', '!collectBlocks("oak_log", 0)', '!stats']);
    expect((await loop.think(steve)).commands).toBe(0);
    expect(ran).toEqual([]);
    expect(system(history)).toHaveLength(3);
    expect(system(history)[0]).toMatch(/!collectBlocks/);
  });

  test('an action interrupted from outside ends the loop: whoever interrupted decides what comes next', async () => {
    const { loop, ran } = setup(
      ['!collectBlocks("oak_log", 3)', '!stats'],
      {},
      {
        '!collectBlocks': async () => ({ ok: false, code: 'interrupted', text: '!collectBlocks was stopped by Steve.' }),
      },
    );
    expect((await loop.think(steve)).commands).toBe(1);
    expect(ran).toEqual(['!collectBlocks("oak_log", 3)']);
  });

  test('interrupt() cancels the call in flight and ends the loop without an answer', async () => {
    let started = false;
    const { loop, said, ran } = setup([
      async () => {
        started = true;
        return new Promise<string>(() => {});
      },
    ]);
    const thinking = loop.think(steve);
    await waitUntil(() => started, 'the call is in flight');
    loop.interrupt('stopped by Steve');
    expect(await thinking).toEqual({ commands: 0 });
    expect(said).toEqual([]);
    expect(ran).toEqual([]);
  });

  test("yieldTo(): a player's new message ends the self-driven follow-ups at once; the call in flight is dropped", async () => {
    let started = 0;
    const { loop, model, ran } = setup([
      '!stats',
      async () => {
        started++;
        return new Promise<string>(() => {});
      },
    ]);
    const thinking = loop.think({ from: 'system', text: 'work on your goal', channel: 'system' });
    await waitUntil(() => started === 1, 'the follow-up call is in flight');
    loop.yieldTo();
    expect(await thinking).toEqual({ commands: 1 });
    expect(ran).toEqual(['!stats']);
    expect(model.requests[1]!.signal!.aborted).toBe(true);
    expect(loop.running).toBe(false);
  });

  test('yieldTo() during an action: the loop stops waiting for it; the outcome joins the history when the action ends', async () => {
    let finish!: (text: string) => void;
    const { loop, history, actions } = setup(
      ['!collectBlocks("oak_log", 3)', '!stats'],
      {},
      {
        '!collectBlocks': () => {
          actions.current = '!collectBlocks';
          return new Promise((resolve) => {
            finish = (text) => {
              actions.current = undefined;
              resolve({ text });
            };
          });
        },
      },
    );
    const thinking = loop.think(steve);
    await waitUntil(() => actions.current !== undefined, 'the action runs');
    loop.yieldTo();
    expect(await thinking).toEqual({ commands: 1 });
    expect(system(history)).toEqual([]);
    finish('Collected 3 oak_log.');
    await waitUntil(() => system(history).includes('Collected 3 oak_log.'), 'the outcome is kept when it comes');
  });

  test("a failed call: a player is told why, every time; the agent's own prompts announce it once", async () => {
    const down = () => new ModelError({ provider: 'x', modelId: 'x/y', kind: 'server', retryable: true, message: 'HTTP 500' });
    const { loop, said, announced } = setup([down(), down(), down(), down()]);
    expect(await loop.think(steve)).toEqual({ commands: 0, unanswered: 'down' });
    expect(await loop.think(steve)).toEqual({ commands: 0, unanswered: 'down' });
    expect(said.map((s) => s.text)).toEqual([expect.stringMatching(/^model_down .*HTTP 500/), expect.stringMatching(/^model_down/)]);
    const goal: IncomingMessage = { from: 'system', text: 'go on', channel: 'system' };
    expect((await loop.think(goal)).unanswered).toBe('down');
    expect((await loop.think(goal)).unanswered).toBe('down');
    expect(announced).toHaveLength(1);
  });

  test("the hour's token budget is applied when a message is handled: the goal loop waits, a player's line raises it and is answered", async () => {
    const budget = new TokenBudget(100);
    budget.record({ input: 100, output: 0, cachedInput: 0, cacheWriteInput: 0 });
    const { loop, said, announced, model } = setup(['Hello Steve.'], { budget });
    expect(await loop.think({ from: 'system', text: 'go on', channel: 'system' })).toEqual({ commands: 0, unanswered: 'budget' });
    expect(announced).toEqual([expect.stringMatching(/^token_budget/)]);
    expect(model.requests).toHaveLength(0);
    expect(await loop.think(steve)).toEqual({ commands: 0 });
    expect(said).toEqual([{ to: 'Steve', text: 'Hello Steve.' }]);
  });

  test('close(): a loop started later returns at once without calling the model', async () => {
    const { loop, model } = setup(['!stats']);
    loop.close('detached');
    expect(await loop.think(steve)).toEqual({ commands: 0 });
    expect(model.requests).toHaveLength(0);
  });
});
