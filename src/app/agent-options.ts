/**
 * From settings and a profile to an agent's options: a pure mapping, no I/O, so that what each
 * setting does to an agent is read in one place (and tested without a server).
 */
import type { AgentOptions } from '../agent/agent.ts';
import { allCommands } from '../commands/index.ts';
import type { Profile, Settings } from '../settings/index.ts';
import type { MergedProfile } from '../settings/profiles.ts';

/** The options of an agent that come from its settings and profile alone (no bot, model or transport). */
export type ConfiguredAgentOptions = Pick<
  AgentOptions,
  | 'profile'
  | 'numExamples'
  | 'goalIdleMs'
  | 'codeTimeoutMs'
  | 'allowVision'
  | 'visionPrompt'
  | 'maxMessages'
  | 'maxCommands'
  | 'maxRepeats'
  | 'actionTimeoutMs'
  | 'cooldownMs'
  | 'minModelIntervalMs'
  | 'maxTokensPerHour'
  | 'modelTimeoutMs'
  | 'maxChatChars'
  | 'disabledCommands'
  | 'modes'
>;

/**
 * The agent options `settings` and `profile` give (seconds become ms, MINDcraft's `cooldown`
 * wins over `cooldown_ms`, commands blocked by either are listed with how to enable them).
 *
 * @example const options = { ...agentOptionsFrom(settings, profile), bot, data, names, commands, conversations, model };
 */
export function agentOptionsFrom(settings: Settings, profile: MergedProfile): ConfiguredAgentOptions {
  return {
    profile,
    numExamples: settings.num_examples,
    goalIdleMs: settings.goal_idle_ms,
    codeTimeoutMs: settings.code_timeout_s * 1000,
    allowVision: settings.allow_vision,
    ...(profile.image_analysis !== undefined ? { visionPrompt: profile.image_analysis } : {}),
    maxMessages: settings.max_messages,
    maxCommands: settings.max_commands,
    maxRepeats: settings.max_repeats,
    actionTimeoutMs: settings.action_timeout_s * 1000,
    cooldownMs: profile.cooldown ?? profile.cooldown_ms,
    minModelIntervalMs: settings.min_model_interval_ms,
    maxTokensPerHour: settings.max_tokens_per_hour,
    modelTimeoutMs: settings.model_timeout_s * 1000,
    maxChatChars: settings.max_chat_chars,
    disabledCommands: disabledCommands(settings, profile),
    modes: profile.modes,
  };
}

/** The commands blocked for every bot by the settings (`blocked_actions`, and `!newAction` without `allow_insecure_coding`). */
export function blockedForAll(settings: Settings): string[] {
  return [...settings.blocked_actions, ...(settings.allow_insecure_coding ? [] : ['!newAction'])];
}

/**
 * The commands a bot lacks by configuration, each with how to enable it (told to a player or
 * the model who names one).
 */
export function disabledCommands(settings: Settings, profile: Profile): Record<string, string> {
  const how: Record<string, string> = {};
  const bang = (name: string) => `!${name.replace(/^!/, '')}`;
  for (const name of profile.blocked_actions) how[bang(name)] = `remove it from "blocked_actions" in the profile of ${profile.name}`;
  for (const name of settings.blocked_actions) how[bang(name)] = 'remove it from "blocked_actions" in settings.json';
  if (!settings.allow_insecure_coding)
    how['!newAction'] = 'set "allow_insecure_coding": true in settings.json (the model\'s code then runs in a sandbox)';
  for (const name of Object.keys(how)) if (!allCommands.get(name)) delete how[name];
  return how;
}
