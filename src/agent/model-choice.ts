/**
 * Picks each bot's model: a real provider when its key is configured, else (for `npm start` only)
 * the offline oracle. Task runs and evaluations never fall back: {@link requireUsableModels}.
 */
import { createModel, type ModelSpec } from '../models/index.ts';
import { apiKeyStatus } from '../models/spec.ts';
import { ConfigError } from '../settings/index.ts';
import type { AgentView } from '../commands/context.ts';
import { OracleModel } from '../oracle/model.ts';
import type { ChatModel } from '../models/types.ts';

export interface ModelChoice {
  model: ChatModel;
  /** Why a configured model was replaced by the oracle, if it was. */
  fallback?: string;
}

/** Options of {@link chooseModel}. */
export interface ChooseOptions {
  /**
   * Play with the oracle when the model cannot be used (default true, for `npm start`). False
   * (task runs, evaluations): an unusable model throws instead.
   */
  fallback?: boolean;
  /**
   * Per-attempt timeout of the provider's SDK, in ms (default the model layer's). The agent also
   * bounds each whole call, retries included, by its `model_timeout_s` with an AbortSignal.
   */
  timeoutMs?: number;
}

/**
 * The model for the agent seen through `agent`: `oracle` gives the rule-based policy; a `provider/model` spec gives that
 * provider when usable (API key present), and otherwise the oracle with the reason in `fallback`.
 *
 * @throws ConfigError when the model cannot be used and `options.fallback` is false.
 */
export function chooseModel(
  spec: ModelSpec,
  agent: AgentView,
  env: NodeJS.ProcessEnv = process.env,
  options: ChooseOptions = {},
): ModelChoice {
  const oracle = () => new OracleModel(agent);
  if (spec === 'oracle') return { model: oracle() };
  const status = apiKeyStatus(spec, env);
  if (!status.usable) {
    if (options.fallback === false)
      throw new ConfigError(unusableModelMessage({ owner: `profile "${agent.name}"`, spec }, status.reason, status.keyEnv));
    return { model: oracle(), fallback: status.reason };
  }
  return { model: createModel(spec, { env, timeoutMs: options.timeoutMs }) };
}

/** A model some bot is to play with, and who configured it (for error messages). */
export interface ModelUse {
  /** Who asked for it, e.g. `profile "Andy" (profiles/tasks/agent_0_andy.json)` or `--model`. */
  owner: string;
  spec: ModelSpec;
}

function specText(spec: ModelSpec): string {
  return typeof spec === 'string' ? spec : spec.model;
}

function unusableModelMessage(use: ModelUse, reason: string, keyEnv: string | undefined): string {
  const fix = keyEnv ? `set ${keyEnv} in the environment or in keys.json` : 'write it as "<provider>/<model>"';
  return (
    `${use.owner} cannot use model "${specText(use.spec)}" (${reason}); ${fix}, or choose another model. ` +
    'Task runs and evaluations never fall back to the offline oracle: pass --model oracle to play with it on purpose.'
  );
}

/**
 * Checks, before anything starts, that every bot can play with the model it is given: the spec
 * resolves to a provider (bare names by the rules of `BARE_MODEL_RULES`) and its API key is set.
 * Makes no network request.
 *
 * @throws ConfigError naming the owner (profile or `--model`), the model and the environment
 *   variable to set, for the first unusable model.
 */
export function requireUsableModels(uses: readonly ModelUse[], env: NodeJS.ProcessEnv = process.env): void {
  for (const use of uses) {
    if (use.spec === 'oracle') continue;
    const status = apiKeyStatus(use.spec, env);
    if (!status.usable) throw new ConfigError(unusableModelMessage(use, status.reason, status.keyEnv));
  }
}

/**
 * The one chat line said when bots fall back to the oracle (`npm start` only), so the players
 * know who they are talking to.
 *
 * @param names the bots that fell back.
 */
export function fallbackChatLine(names: readonly string[]): string {
  return `${names.join(', ')}: no usable model (see the log), so ${names.length > 1 ? 'we play' : 'I play'} as the offline "oracle" policy: commands work, chat does not. Set "model" in the profile and export its API key to talk with a real model.`;
}

/** The one log line printed when bots fall back to the oracle. */
export function fallbackNotice(reasons: string[]): string {
  return (
    `No usable model API key (${[...new Set(reasons)].join('; ')}): the bots use the offline "oracle" policy. ` +
    'To chat with a real model, export ANTHROPIC_API_KEY or OPENAI_API_KEY, or set "model" in profiles/*.json to a local server such as "ollama/llama3.1".'
  );
}
