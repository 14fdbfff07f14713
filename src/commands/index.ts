/** Every command the agents know, in one registry shared by all bots of the process. */
import type { CommandContext } from './context.ts';
import { CommandRegistry } from './registry.ts';
import { queryCommands } from './queries/index.ts';
import { actionCommands } from './actions/index.ts';
import { moreQueryCommands } from './queries/more.ts';
import { movementCommands } from './actions/movement.ts';
import { itemCommands } from './actions/items.ts';
import { worldCommands } from './actions/world.ts';
import { combatCommands } from './actions/combat.ts';
import { controlCommands } from './actions/control.ts';
import { storageCommands } from './actions/storage.ts';
import { blueprintCommands } from './queries/blueprint.ts';

/** The full command registry; an agent narrows it with `.without(blocked)`. */
export const allCommands = new CommandRegistry<CommandContext>([
  ...queryCommands, ...moreQueryCommands, ...blueprintCommands,
  ...actionCommands, ...movementCommands, ...itemCommands, ...worldCommands, ...combatCommands, ...controlCommands,
  ...storageCommands,
]);
