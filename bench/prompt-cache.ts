/**
 * Prompt cache share: a scripted session of 30 model requests (a player asks, the bot answers
 * with query and crafting commands, their output comes back) played by real agents on the
 * embedded server against fake providers on loopback (test/helpers/fake-providers.ts), which
 * speak the Anthropic and OpenAI wire protocols, record every request and simulate each
 * provider's prompt cache. Three bots play the same session: Anthropic with `!commands` in the
 * prompt, Anthropic with native tools, OpenAI-compatible with `!commands`.
 *
 *   npx node bench/prompt-cache.ts [--turns 30] [--verbose] [--json]
 *
 * Per provider it prints: characters and tokens per request; the share of each request's
 * tokens that repeat the previous request's cacheable prefix (measured on the request bodies
 * as sent: Anthropic, the longest prefix of blocks — tools, system, message blocks — up to one
 * of the previous request's cache breakpoints that is identical; OpenAI, the longest common
 * prefix of the message texts, up to where the previous request's live part began); the share
 * the fake's cache simulation reported through the usage fields (the path run records use);
 * and the projected cost per turn with and without caching.
 *
 * Tokens: js-tiktoken's `o200k_base` encoding (GPT-4o's and GPT-4.1's tokenizer, shipped in the
 * npm package) for both providers; Claude's tokenizer is not public, so Anthropic figures are
 * an estimate of the same order. Prices: `src/tasks/eval/prices.ts` (USD per million tokens:
 * claude-sonnet-4-5 3 input, 0.30 cache read, 3.75 cache write, 15 output; gpt-4.1-mini 0.40
 * input, 0.10 cached input, 1.60 output). Providers cache only prefixes of at least 1,024 tokens
 * (Claude Sonnet, OpenAI), OpenAI in 128-token steps: the cost applies those rules.
 *
 * Goal (issue 14): at least 80 % of the input tokens cacheable from the second request on.
 * Exit code 1 when a provider misses it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import type { Agent } from '../src/agent/agent.ts';
import { LIVE_HEADER } from '../src/agent/prompt-builder.ts';
import { startAgents } from '../src/app/start-bots.ts';
import { profileSchema, settingsSchema } from '../src/settings/index.ts';
import { costOf, priceFor } from '../src/tasks/eval/prices.ts';
import { startFakeProvider, type FakeProviderServer } from '../test/helpers/fake-providers.ts';

const { values: args } = parseArgs({
  options: { turns: { type: 'string', default: '30' }, verbose: { type: 'boolean' }, json: { type: 'boolean' } },
});
const TURNS = Number(args.turns);
/** Smallest cacheable prefix (tokens): Claude Sonnet's and OpenAI's. */
const MIN_CACHE_TOKENS = 1024;

/** One player message and the model's replies to it (one model request each). */
const SESSION: Array<[message: string, replies: string[]]> = [
  ['hi Andy, what can you do?', ['Hi Steve! I can gather, craft and build. What do you need?']],
  ['what do you have on you?', ['Let me look. !inventory', 'I carry nothing yet.']],
  ['what is around here?', ['!nearbyBlocks', 'Grass and dirt, mostly.']],
  ['how are you doing?', ['!stats', 'All good: full health.']],
  ['I gave you some logs. What can you craft?', ['!craftable', 'Planks, from the logs.']],
  ['make 4 planks please', ['On it. !craftRecipe("oak_planks", 4)', 'Made 4 planks.']],
  ['how would I get sticks?', ['!getCraftingPlan("stick", 4)', 'Craft 2 planks into 4 sticks.']],
  ['check your inventory again', ['!inventory', 'Planks and logs now.']],
  ['any mobs near us?', ['!entities', 'Nobody but you.']],
  ['which of your modes are on?', ['!modes', 'The usual ones: self-defense, unstuck and so on.']],
  ['tell me about iron ore', ['!searchWiki("iron_ore")', 'It needs a stone pickaxe or better.']],
  ['remember this spot as home', ['!rememberHere("home")', 'Saved as home.']],
  ['which places do you know?', ['!savedPlaces', 'Just home.']],
  ['make 4 sticks', ['!craftRecipe("stick", 4)', 'Done: 4 sticks.']],
  ['thanks, that is all for now', ['You are welcome!']],
];

const encoder = new Tiktoken(o200k);
const tokens = (text: string): number => encoder.encode(text).length;

/** One request as a list of cacheable units, in the provider's cache order. */
interface Unit {
  text: string;
  tokens: number;
  breakpoint: boolean;
  live: boolean;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

function anthropicUnits(body: Body): Unit[] {
  const units: Unit[] = [];
  const add = (role: string, block: Body) => {
    const { cache_control: mark, ...rest } = typeof block === 'string' ? { type: 'text', text: block } : block;
    const text = typeof rest.text === 'string' ? rest.text : JSON.stringify(rest);
    units.push({
      text: `${role}\u0000${JSON.stringify(rest)}`,
      tokens: tokens(text),
      breakpoint: Boolean(mark),
      live: text.startsWith(LIVE_HEADER),
    });
  };
  for (const tool of body.tools ?? []) add('tool', tool);
  for (const block of typeof body.system === 'string' ? [body.system] : (body.system ?? [])) add('system', block);
  for (const m of body.messages)
    (typeof m.content === 'string' ? [m.content] : m.content).forEach((b: Body, i: number) => add(i === 0 ? m.role : '', b));
  return units;
}

/** The OpenAI request as one text (role and content of each message), and where its live part starts. */
function openAIText(body: Body): { text: string; liveAt: number } {
  const text = body.messages
    .map((m: Body) => `${m.role}\u0000${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}\u0000`)
    .join('');
  const at = text.lastIndexOf(LIVE_HEADER);
  return { text, liveAt: at < 0 ? text.length : at };
}

/** Per request: its size, what of it repeats the previous request's cacheable prefix, its cost. */
interface RequestFigures {
  chars: number;
  tokens: number;
  /** Tokens repeating the previous request's cacheable prefix (0 for the first). */
  repeated: number;
  /** Tokens the provider would read from / write to its cache (its minimum length applied). */
  read: number;
  write: number;
  output: number;
  /** Cached share the fake's cache simulation reported in the usage fields. */
  reported: number | undefined;
}

function figures(
  protocol: 'anthropic' | 'openai',
  bodies: Body[],
  replies: string[],
  reported: Array<number | undefined>,
): RequestFigures[] {
  return bodies.map((body, n) => {
    const output = tokens(replies[n] ?? '');
    if (protocol === 'anthropic') {
      const units = anthropicUnits(body);
      const total = units.reduce((s, u) => s + u.tokens, 0);
      const upTo = (k: number) => units.slice(0, k + 1).reduce((s, u) => s + u.tokens, 0);
      let repeated = 0;
      if (n > 0) {
        const previous = anthropicUnits(bodies[n - 1]);
        let same = 0;
        while (same < Math.min(units.length, previous.length) && units[same]!.text === previous[same]!.text) same++;
        const hits = previous.flatMap((u, i) => (u.breakpoint && i < same ? [i] : []));
        if (hits.length) repeated = upTo(Math.max(...hits));
      }
      const lastBreakpoint = units.findLastIndex((u) => u.breakpoint);
      const cacheable = lastBreakpoint >= 0 ? upTo(lastBreakpoint) : 0;
      const read = repeated >= MIN_CACHE_TOKENS ? repeated : 0;
      const write = cacheable >= MIN_CACHE_TOKENS ? cacheable - read : 0;
      return { chars: units.reduce((s, u) => s + u.text.length, 0), tokens: total, repeated, read, write, output, reported: reported[n] };
    }
    const { text } = openAIText(body);
    const total = tokens(text);
    let repeated = 0;
    if (n > 0) {
      const previous = openAIText(bodies[n - 1]);
      let same = 0;
      while (same < Math.min(text.length, previous.liveAt) && text.charCodeAt(same) === previous.text.charCodeAt(same)) same++;
      repeated = tokens(text.slice(0, same));
    }
    const read =
      total < MIN_CACHE_TOKENS || repeated < MIN_CACHE_TOKENS
        ? 0
        : MIN_CACHE_TOKENS + Math.floor((repeated - MIN_CACHE_TOKENS) / 128) * 128;
    return { chars: text.length, tokens: total, repeated, read, write: 0, output, reported: reported[n] };
  });
}

const work = await mkdtemp(path.join(tmpdir(), 'bench-prompt-cache-'));
const fakes: Record<string, FakeProviderServer> = {};
const replyQueues: Record<string, string[]> = {};
const sent: Record<string, string[]> = {};
/** The model ids priced (the fakes answer under a neutral name, so the SDKs print no model notices). */
const runs = [
  { bot: 'Andy', protocol: 'anthropic' as const, priced: 'anthropic/claude-sonnet-4-5', tools: 'text', label: 'anthropic (!commands)' },
  { bot: 'Bob', protocol: 'anthropic' as const, priced: 'anthropic/claude-sonnet-4-5', tools: 'native', label: 'anthropic (native tools)' },
  { bot: 'Cleo', protocol: 'openai' as const, priced: 'openai/gpt-4.1-mini', tools: 'text', label: 'openai (!commands)' },
];
for (const run of runs) {
  replyQueues[run.bot] = [];
  sent[run.bot] = [];
  fakes[run.bot] = await startFakeProvider(run.protocol, {
    cache: true,
    handler: (call) => {
      // Memory summaries (no live part) get a short summary; conversing requests the script's next reply.
      if (!call.live) return 'Steve asked about items and places; I crafted planks and sticks.';
      const reply = replyQueues[run.bot]!.shift() ?? 'OK.';
      sent[run.bot]!.push(reply);
      return reply;
    },
  });
}
const env = { ...fakes.Andy!.env };
const running = await startAgents({
  settings: settingsSchema.parse({
    world: 'superflat',
    chat_bot_messages: false,
    bot_transport: 'in-process',
    load_memory: false,
    goal_idle_ms: 600_000,
  }),
  profiles: runs.map((run) =>
    profileSchema.parse({
      name: run.bot,
      model: fakes[run.bot]!.spec('bench-model', run.protocol),
      tool_calling: run.tools,
      persona: 'You are friendly and practical.',
    }),
  ),
  port: 0,
  env,
  botsDir: path.join(work, 'bots'),
  log: () => {},
});
const usageShare: Record<string, Array<number | undefined>> = Object.fromEntries(runs.map((r) => [r.bot, []]));
running.bus.subscribe((event) => {
  if (event.type === 'model' && event.purpose === 'conversing') {
    usageShare[event.bot]?.push(event.usage ? event.usage.cachedInput / Math.max(1, event.usage.input) : undefined);
  }
});

/** The bot's conversing requests (they have a live part; memory summaries do not). */
const conversing = (fake: FakeProviderServer) => fake.requests.filter((r) => r.call?.live);

/** Plays the session with `agent` until `TURNS` conversing requests were made. */
async function play(agent: Agent, fake: FakeProviderServer): Promise<void> {
  for (let step = 0; conversing(fake).length < TURNS; step++) {
    const [message, replies] = SESSION[step % SESSION.length]!;
    if (step % SESSION.length === 4) agent.bot.chat(`/give ${agent.name} oak_log 4`);
    replyQueues[agent.name]!.push(...replies.slice(0, TURNS - conversing(fake).length));
    agent.receive({ from: 'Steve', channel: 'whisper', text: message });
    await agent.idle();
  }
}

const rows = [];
let missed = false;
try {
  for (const run of runs) {
    const agent = running.agents.find((a) => a.name === run.bot)!;
    const fake = fakes[run.bot]!;
    await play(agent, fake);
    const list = figures(
      run.protocol,
      conversing(fake)
        .slice(0, TURNS)
        .map((r) => r.body),
      sent[run.bot]!,
      usageShare[run.bot]!,
    );
    const later = list.slice(1);
    const sum = (xs: RequestFigures[], f: (x: RequestFigures) => number) => xs.reduce((s, x) => s + f(x), 0);
    const share =
      sum(later, (x) => x.repeated) /
      Math.max(
        1,
        sum(later, (x) => x.tokens),
      );
    const reportedLater = later.map((x) => x.reported).filter((x): x is number => x !== undefined);
    const price = priceFor(run.priced)!;
    const cost = (x: RequestFigures, cached: boolean) =>
      costOf({ input: x.tokens, cached: cached ? x.read : 0, cacheWrite: cached ? x.write : 0, output: x.output }, price);
    const perTurn = (cached: boolean) => sum(list, (x) => cost(x, cached)) / list.length;
    if (share < 0.8) missed = true;
    rows.push({
      provider: run.label,
      requests: list.length,
      chars_first: list[0]!.chars,
      chars_last: list.at(-1)!.chars,
      tokens_first: list[0]!.tokens,
      tokens_mean: Math.round(sum(list, (x) => x.tokens) / list.length),
      tokens_last: list.at(-1)!.tokens,
      'repeated_2+': `${(100 * share).toFixed(1)} %`,
      'repeated_min_2+': `${(100 * Math.min(...later.map((x) => x.repeated / x.tokens))).toFixed(1)} %`,
      'cache_usage_2+': reportedLater.length
        ? `${((100 * reportedLater.reduce((s, x) => s + x, 0)) / reportedLater.length).toFixed(1)} %`
        : 'n/a',
      usd_per_turn_cached: +perTurn(true).toFixed(5),
      usd_per_turn_uncached: +perTurn(false).toFixed(5),
      saving: `${(100 * (1 - perTurn(true) / perTurn(false))).toFixed(0)} %`,
    });
    if (args.verbose) {
      console.log(`\n${run.label}: per request (tokens, repeated, read, write)`);
      list.forEach((x, i) =>
        console.log(
          `  ${String(i + 1).padStart(2)} ${String(x.tokens).padStart(5)} ${String(x.repeated).padStart(5)} ${String(x.read).padStart(5)} ${String(x.write).padStart(5)}  ${x.reported === undefined ? '' : `${(100 * x.reported).toFixed(0)} % reported`}`,
        ),
      );
    }
  }
} finally {
  await running.close();
  for (const fake of Object.values(fakes)) await fake.close();
  await rm(work, { recursive: true, force: true });
}
console.log(
  `Prompt cache share, scripted session of ${TURNS} requests per provider (tokens: o200k_base; prices: src/tasks/eval/prices.ts)`,
);
console.table(rows);
console.log(
  missed
    ? 'GOAL MISSED: a provider repeats < 80 % of its input tokens from the second request on.'
    : "Goal met: >= 80 % of input tokens repeat the previous request's cacheable prefix from the second request on, for every provider.",
);
if (args.json) console.log(JSON.stringify({ turns: TURNS, rows }));
process.exitCode = missed ? 1 : 0;
// The server library leaves sockets and timers behind after close; do not wait for them.
process.exit();
