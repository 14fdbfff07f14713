/** Every command the agents know, in one registry shared by all bots of the process. */
import type { CommandContext } from './context.ts';
import { CommandRegistry } from './registry.ts';
import { queryCommands } from './queries/index.ts';
import { actionCommands } from './actions/index.ts';

/** The full command registry; an agent narrows it with `.without(blocked)`. */
export const allCommands = new CommandRegistry<CommandContext>([...queryCommands, ...actionCommands]);
