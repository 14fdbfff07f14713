/**
 * A fast first reply: what a bot's first model call would do for the first time, done at
 * start-up instead. The first reply took 50–67 ms against 2.8 ms for the later ones: the prompt
 * builder, the example search and the command docs run (and are compiled) for the first time, the
 * provider's SDK is loaded, and Node's fetch loads undici and its WebAssembly parser, resolves the
 * provider's name and opens the connection.
 *
 * Each agent builds its prompt once without sending it (a dry build), and each distinct model
 * warms up once ({@link ChatModel.warmUp}: its SDK and a connection to its endpoint; the connection
 * pool and the modules are the process's, shared by every bot on that model).
 */
import type { Agent } from '../agent/agent.ts';

/** Options of {@link warmUpAgents}. */
export interface WarmUpOptions {
  /** Stops the warm-up (the bots are closing); what is under way settles within a few seconds. */
  signal?: AbortSignal;
  /** Receives a line per agent whose dry prompt build failed (the first real call will fail the same way and say so). */
  log?: (line: string) => void;
}

/**
 * Warms the model path of every agent: a dry prompt build each, then one warm-up per distinct
 * model. Never rejects; resolves once everything settled.
 *
 * @example void warmUpAgents(running.agents, { signal }); // in the background while the bots settle in
 */
export async function warmUpAgents(agents: readonly Agent[], options: WarmUpOptions = {}): Promise<void> {
  const models = new Map<string, Agent['model']>();
  for (const agent of agents) {
    if (options.signal?.aborted) return;
    try {
      await agent.conversingPrompt();
    } catch (err) {
      options.log?.(`${agent.name}: the dry prompt build at start-up failed: ${(err as Error).message}`);
    }
    if (!models.has(agent.model.id)) models.set(agent.model.id, agent.model);
  }
  await Promise.all([...models.values()].map((model) => model.warmUp?.(options.signal)));
}
