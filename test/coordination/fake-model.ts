/**
 * A chat model for the coordination tests: it answers each request with a function of the request
 * (its system prompt and turns), reports fixed token usage, and keeps every request.
 */
import type { ChatModel, ChatRequest } from '../../src/models/types.ts';

/** One answer: text, an error to throw, or a promise (which may never settle: a hung model). */
export type Answer = string | Error | Promise<string>;

export class FakeModel implements ChatModel {
  readonly id = 'fake/coordination';
  readonly requests: ChatRequest[] = [];
  readonly #answer: (req: ChatRequest, call: number) => Answer;
  /** Usage reported per answer. */
  usage = { input: 100, cachedInput: 20, cacheWriteInput: 0, output: 10 };

  constructor(answer: (req: ChatRequest, call: number) => Answer) {
    this.#answer = answer;
  }

  /** A model that answers from a list, one per call (the last one again when the list runs out). */
  static script(answers: Answer[]): FakeModel {
    return new FakeModel((_req, call) => answers[Math.min(call, answers.length - 1)]!);
  }

  async complete(req: ChatRequest): Promise<string> {
    const call = this.requests.length;
    this.requests.push(req);
    const a = this.#answer(req, call);
    if (a instanceof Error) throw a;
    const text = await a;
    req.onUsage?.(this.usage);
    return text;
  }

  /** The last user turn of request `i`. */
  lastUser(i: number): string {
    const turns = this.requests[i]!.turns.filter((t) => t.role === 'user');
    return turns[turns.length - 1]!.content;
  }
}
