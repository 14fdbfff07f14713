/**
 * The chat model of a bot whose brain is an MCP client (`mcp_model: "off"`): it never answers, so
 * the bot's model loop says nothing and runs nothing of its own. What reaches the bot (a player's
 * plain chat, a bot's lines, its goal loop's prompts) stays in its journal for the client to read
 * (the `readMessages` tool, log notifications); players' `!commands` and the bot's modes work as
 * ever, since they never go through a model.
 */
import { ModelAbortError, type ChatModel, type ChatRequest } from '../../models/types.ts';

/**
 * A {@link ChatModel} that answers every request with nothing, at once and at no cost: no
 * summaries (old turns are dropped, not summarised), and it never interrupts an action to answer
 * a bot.
 *
 * @example startAgents({ settings, profiles, chatModel: () => new ClientBrain() });
 */
export class ClientBrain implements ChatModel {
  /** Shown where a bot's model is named (the dashboard, logs, `joined as ...`). */
  readonly id = 'mcp-client';
  readonly summarises = false;

  /**
   * Resolves with ''.
   *
   * @throws ModelAbortError when `req.signal` has aborted, as any model's call would.
   */
  async complete(req: ChatRequest): Promise<string> {
    if (req.signal?.aborted) throw new ModelAbortError(this.id, req.signal.reason);
    return '';
  }

  respondWhileBusy(): boolean {
    return false;
  }
}
