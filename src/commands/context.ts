/** What a command's `perform` receives: the bot, game data, a cancel signal and its agent. */
import type { Bot } from 'mineflayer';
import type { GameData } from '../game/data.ts';
import { defineCommandFor } from './registry.ts';

/** The parts of an agent that commands use (the Agent class implements it). */
export interface AgentControl {
  readonly name: string;
  /** Label of the running action, if any. */
  currentAction(): string | undefined;
  /** Stops the running action and the model loop. */
  stop(reason: string): Promise<void>;
  /** `!help` text for this agent's (possibly restricted) commands. */
  help(): string;
  /** Names of the other bots of ours this agent can converse with. */
  knownBots(): string[];
  /** @throws Error when `partner` is not a bot of ours. */
  startConversation(partner: string, message: string): Promise<string>;
  endConversation(partner: string): string;
  /** `!setMode`: switches a mode on or off; returns a sentence for the model. */
  setMode?(name: string, on: boolean): string;
  /** `!modes`: every mode with its switch and description. */
  modesSummary?(): string;
}

export interface CommandContext {
  bot: Bot;
  data: GameData;
  /** Fires when the command must stop (`!stop`, a newer action, the time bound). */
  signal: AbortSignal;
  agent: AgentControl;
}

/** `defineCommand` with the context fixed: every command file uses this. */
export const defineCommand = defineCommandFor<CommandContext>();
