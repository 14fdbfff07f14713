/** Picks each bot's model: a real provider when its key is configured, else the offline oracle. */
import { createModel, type ModelSpec } from '../models/index.ts';
import { apiKeyStatus } from '../models/spec.ts';
import { OracleModel } from '../models/oracle.ts';
import type { ChatModel } from '../models/types.ts';
import type { Agent } from './agent.ts';

export interface ModelChoice {
  model: ChatModel;
  /** Why a configured model was replaced by the oracle, if it was. */
  fallback?: string;
}

/**
 * The model for `agent`: `oracle` gives the rule-based policy; a `provider/model` spec gives that
 * provider when usable (API key present), and otherwise the oracle with the reason in `fallback`.
 */
export function chooseModel(spec: ModelSpec, agent: Agent, env: NodeJS.ProcessEnv = process.env): ModelChoice {
  const oracle = () => new OracleModel({
    name: agent.name,
    bot: agent.bot,
    data: agent.data,
    get taskTargets() { return agent.taskTargets; },
    canUse: (command) => agent.commands.get(command) !== undefined,
    partner: () => agent.conversations.active,
  });
  if (spec === 'oracle') return { model: oracle() };
  const status = apiKeyStatus(spec, env);
  if (!status.usable) return { model: oracle(), fallback: status.reason };
  return { model: createModel(spec, { env }) };
}

/** The one log line printed when bots fall back to the oracle. */
export function fallbackNotice(reasons: string[]): string {
  return `No usable model API key (${[...new Set(reasons)].join('; ')}): the bots use the offline "oracle" policy. `
    + 'To chat with a real model, export ANTHROPIC_API_KEY or OPENAI_API_KEY, or set "model" in profiles/*.json to a local server such as "ollama/llama3.1".';
}
