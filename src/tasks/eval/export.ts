/**
 * Training data from an evaluation: each recorded run becomes, per bot, one chat conversation
 * (system, user and assistant turns as the model saw them), one JSON object per line:
 *
 * ```json
 * {"messages": [{"role": "system", "content": "…"}, {"role": "user", "content": "SYSTEM: …"}, {"role": "assistant", "content": "!craftRecipe(\"stick\", 4)"}],
 *  "metadata": {"run_id": "test_tasks/2_agent/multiagent_crafting_…/1", "agent": "Jill", "model": "oracle", "task_id": "…", "score": 1, "success": true}}
 * ```
 *
 * This is the chat format of OpenAI's and most open fine-tuning tools (`messages` with `role` and
 * `content`). A bot's conversation is rebuilt from its `conversing` requests (its model loop; the
 * respond-or-ignore, summary and coding requests are left out): the first request's system prompt
 * and turns, then for each request the turns that arrived since the bot's previous reply, then the
 * reply itself (the whole reply as the model wrote it). Consecutive turns of one role are joined
 * with a newline, as the providers do.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RecordedTurn, RequestEvent, RunResult } from './records.ts';
import { parseResults } from './records.ts';
import { runFolder } from './campaign.ts';

/** One chat message of an exported conversation. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One line of the exported JSONL. */
export interface SftExample {
  messages: ChatMessage[];
  metadata: { run_id: string; agent: string; model: string; task_id: string; score: number; success: boolean };
}

const same = (a: RecordedTurn, b: RecordedTurn) => a.role === b.role && a.content === b.content;

/**
 * Rebuilds one bot's conversation from its requests, oldest first (see the module comment).
 *
 * @returns undefined when no `conversing` request got a reply.
 */
export function conversationOf(requests: readonly RequestEvent[]): ChatMessage[] | undefined {
  const used = requests.filter(
    (r) => (r.purpose === 'conversing' || (r.purpose === 'other' && r.maxTokens === undefined)) && r.reply !== undefined && !r.error,
  );
  if (used.length === 0) return undefined;
  const turns: RecordedTurn[] = [];
  used.forEach((req, k) => {
    const lastAssistant = req.turns.map((t) => t.role).lastIndexOf('assistant');
    let fresh: RecordedTurn[];
    if (k > 0 && lastAssistant >= 0) {
      fresh = req.turns.slice(lastAssistant + 1);
    } else {
      // No earlier reply in this window: skip the longest prefix the conversation already ends with.
      let overlap = Math.min(turns.length, req.turns.length);
      while (overlap > 0 && !req.turns.slice(0, overlap).every((t, i) => same(t, turns[turns.length - overlap + i]!))) overlap--;
      fresh = req.turns.slice(overlap);
    }
    turns.push(...fresh, { role: 'assistant', content: req.reply! });
  });
  // The first request's prompt in full: its static part and the state it showed.
  const messages: ChatMessage[] = [{ role: 'system', content: [used[0]!.system, used[0]!.live].filter(Boolean).join('\n') }];
  for (const t of turns) {
    const last = messages.at(-1)!;
    if (last.role === t.role) last.content += `\n${t.content}`;
    else messages.push({ role: t.role, content: t.content });
  }
  return messages;
}

/** Reads a JSONL file of events; a missing file is empty. */
async function readJsonl<T>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** Options of {@link exportSft}. */
export interface ExportOptions {
  /** Keep only runs whose score is at least this (a fraction in [0, 1]); default: every run. */
  minScore?: number;
}

/**
 * The SFT examples of an evaluation folder (`results.jsonl` plus `runs/<folder>/requests/*.jsonl`),
 * in the order of `results.jsonl`.
 *
 * @throws Error when `dir` has no results.jsonl or it is malformed.
 */
export async function exportSft(
  dir: string,
  options: ExportOptions = {},
): Promise<{ examples: SftExample[]; runs: number; skipped: number }> {
  const resultsFile = path.join(dir, 'results.jsonl');
  const text = await readFile(resultsFile, 'utf8').catch(() => {
    throw new Error(`${resultsFile}: not found — give the --out folder of an evaluation (npm run eval -- … --out DIR)`);
  });
  const results = parseResults(text, resultsFile);
  const examples: SftExample[] = [];
  let skipped = 0;
  for (const result of results) {
    if (options.minScore !== undefined && result.score < options.minScore) {
      skipped++;
      continue;
    }
    examples.push(...(await runExamples(path.join(dir, 'runs', runFolder(result.run_id)), result)));
  }
  return { examples, runs: results.length - skipped, skipped };
}

async function runExamples(folder: string, result: RunResult): Promise<SftExample[]> {
  const dir = path.join(folder, 'requests');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.jsonl')).sort();
  const out: SftExample[] = [];
  for (const file of files) {
    const requests = await readJsonl<RequestEvent>(path.join(dir, file));
    const messages = conversationOf(requests);
    if (!messages) continue;
    const agent = requests[0]?.agent ?? file.replace(/\.jsonl$/, '');
    out.push({
      messages,
      metadata: {
        run_id: result.run_id,
        agent,
        model: result.models[agent] ?? requests[0]?.model ?? 'unknown',
        task_id: result.task_id,
        score: result.score,
        success: result.success,
      },
    });
  }
  return out;
}
