/**
 * The one ordered list of plugins installed on every embedded server (see ./plugin.ts for the
 * contract). Services come before the features that use them. `requires` names the services a
 * plugin uses that keep state per player or per server (they must be installed, and before it)
 * and the plugins whose packet listeners it wraps; start-up fails with a clear error when the
 * list breaks it:
 * - movement wraps the teleport service's `player.teleport` (a teleport restarts its distance
 *   count), and adds its `position` listeners after teleport's confirmation gate replaced
 *   flying-squid's (so it sees every packet);
 * - digging takes over `block_dig` and passes the statuses it does not handle to the listeners
 *   installed before it (the inventory service's Q-throws);
 * - survival listens to the movement service's steps (falls).
 * Features that only react to events (`blockBroken`, `blockPlaced`, `playerDied`, `mobDied`) or
 * register with flying-squid's block registries (`onBlockInteraction`, `onItemPlace`) or its
 * command tree need no order. Features share behaviour through services only: damage
 * (./services/damage.ts), effects, game rules, the command dispatcher, text.
 *
 * The plugins that keep per-server state a run changes say how to go back on it (`checkpoint`,
 * `reset`): the world's written columns, the players' places, inventories, effects, experience,
 * health and food, the mobs and dropped items, the block entities, the weather and time, the
 * mechanics' settings. The embedded server's `reset()` runs them in this order (warm worlds).
 */
import type { ServerPlugin } from './plugin.ts';
import { installMobs, removeNonPlayers } from './services/mobs.ts';
import { installWireShapes } from './services/wire-shapes.ts';
import { installInventory, resetInventories } from './services/inventory.ts';
import { installMovement } from './services/movement.ts';
import { checkpointPlayerPlaces, installTeleport, resetPlayerPlaces } from './services/teleport.ts';
import { checkpointWorld, installWorldJournal, resetWorldBlocks } from './services/world-journal.ts';
import { removeBlockEntities } from './services/block-entities.ts';
import { checkpointMechanics, resetMechanics } from './services/game-rules.ts';
import { installBeds } from './features/beds.ts';
import { installContainers } from './features/containers.ts';
import { installCraftingTable } from './features/crafting-table.ts';
import { installCrops } from './features/crops.ts';
import { installDataCommand } from './features/data-command.ts';
import { installDigging } from './features/digging.ts';
import { installBlockCommands } from './features/fill.ts';
import { checkpointHunger, installHunger, resetHunger } from './features/hunger.ts';
import { installInteractions } from './features/interactions.ts';
import { clearSwitchTicks, installSwitches } from './features/switches.ts';
import { installBuckets } from './features/buckets.ts';
import { installVillagers } from './features/villagers.ts';
import { installNoteBlocks } from './features/note-blocks.ts';
import { installItemCommands } from './features/item-commands.ts';
import { installMobAi } from './features/mob-ai.ts';
import { installMobCombat } from './features/mob-combat.ts';
import { installMobCommands } from './features/mob-commands.ts';
import { installMobLoot } from './features/mob-loot.ts';
import { installPlacing } from './features/placing.ts';
import { installTickLoop } from './features/tick-loop.ts';
import { installPlayerState } from './features/player-state.ts';
import { installPlayerFixes } from './features/players.ts';
import { installPlayerLimits } from './features/player-limits.ts';
import { installModeration } from './features/moderation.ts';
import { installLatencyUpdates } from './features/latency.ts';
import { installSigns } from './features/signs.ts';
import { installSmelting } from './features/smelting.ts';
import { installTeleportCommand } from './features/teleport-command.ts';
import { installWhisperCommands } from './features/whisper.ts';
import { installVanillaChat } from './features/vanilla-chat.ts';
import { installTextCommands } from './features/text-commands.ts';
import { checkpointWeatherTime, installWeatherTime, resetWeatherTime } from './features/weather-time.ts';
import { installGameruleCommand } from './features/gamerule-command.ts';
import { installExecuteCommand } from './features/execute-command.ts';
import { installEffects, resetEffects } from './features/effects.ts';
import { installExperience, resetExperience } from './features/experience.ts';
import { installTeams } from './features/teams.ts';
import { installBossBars } from './features/bossbars.ts';
import { installSoundsParticles } from './features/sounds-particles.ts';
import { installTabComplete } from './features/tab-complete.ts';
import { installSurvival } from './features/survival.ts';
import { installPlayerCommands } from './features/player-commands.ts';
import { installOutOfScope } from './features/out-of-scope.ts';

/** Our plugins, in install order. */
export const BUILTIN_PLUGINS: readonly ServerPlugin[] = [
  // Services: shared machinery with per-player or per-server state.
  // First: its packet conversions are the last step before the serializer (./services/wire-shapes.ts).
  { name: 'wire-shapes', requires: [], install: installWireShapes },
  { name: 'teleport', requires: [], install: installTeleport, checkpoint: checkpointPlayerPlaces, reset: resetPlayerPlaces },
  { name: 'movement', requires: ['teleport'], install: installMovement },
  { name: 'inventory', requires: ['movement'], install: installInventory, reset: resetInventories },
  { name: 'world-journal', requires: [], install: installWorldJournal, checkpoint: checkpointWorld, reset: resetWorldBlocks },
  { name: 'mobs', requires: [], install: installMobs, reset: removeNonPlayers },
  // The tick clock: ticks on a fixed schedule that catches up, as vanilla's.
  { name: 'tick-loop', requires: [], install: installTickLoop },
  // Features: game behaviour and commands, each on services only.
  { name: 'player-limits', requires: [], install: installPlayerLimits },
  // Wraps the player limit's login listener: a ban is checked first, as vanilla does.
  { name: 'moderation', requires: ['player-limits'], install: installModeration },
  { name: 'player-fixes', requires: [], install: installPlayerFixes },
  { name: 'latency', requires: [], install: installLatencyUpdates },
  { name: 'vanilla-chat', requires: [], install: installVanillaChat },
  { name: 'teleport-command', requires: ['teleport'], install: installTeleportCommand },
  { name: 'whisper', requires: [], install: installWhisperCommands },
  { name: 'text-commands', requires: [], install: installTextCommands },
  { name: 'weather-time', requires: [], install: installWeatherTime, checkpoint: checkpointWeatherTime, reset: resetWeatherTime },
  { name: 'gamerule-command', requires: [], install: installGameruleCommand, checkpoint: checkpointMechanics, reset: resetMechanics },
  { name: 'execute-command', requires: [], install: installExecuteCommand },
  { name: 'effects', requires: [], install: installEffects, reset: resetEffects },
  { name: 'experience', requires: [], install: installExperience, reset: resetExperience },
  { name: 'teams', requires: [], install: installTeams },
  { name: 'bossbars', requires: [], install: installBossBars },
  { name: 'sounds-particles', requires: [], install: installSoundsParticles },
  { name: 'tab-complete', requires: [], install: installTabComplete },
  { name: 'survival', requires: ['movement'], install: installSurvival },
  { name: 'player-commands', requires: [], install: installPlayerCommands },
  { name: 'out-of-scope', requires: [], install: installOutOfScope },
  { name: 'item-commands', requires: ['inventory'], install: installItemCommands },
  { name: 'hunger', requires: ['movement'], install: installHunger, checkpoint: checkpointHunger, reset: resetHunger },
  { name: 'player-state', requires: ['inventory'], install: installPlayerState },
  { name: 'crops', requires: [], install: installCrops },
  { name: 'digging', requires: ['inventory', 'movement'], install: installDigging },
  { name: 'placing', requires: ['movement'], install: installPlacing },
  { name: 'beds', requires: [], install: installBeds },
  { name: 'crafting-table', requires: ['inventory'], install: installCraftingTable },
  { name: 'containers', requires: ['inventory'], install: installContainers, reset: removeBlockEntities },
  { name: 'smelting', requires: ['inventory'], install: installSmelting },
  { name: 'block-commands', requires: [], install: installBlockCommands },
  { name: 'data-command', requires: [], install: installDataCommand },
  { name: 'mob-combat', requires: ['mobs'], install: installMobCombat },
  { name: 'mob-loot', requires: ['mobs'], install: installMobLoot },
  { name: 'mob-ai', requires: ['mobs'], install: installMobAi },
  { name: 'mob-commands', requires: ['mobs'], install: installMobCommands },
  { name: 'interactions', requires: ['inventory', 'mobs'], install: installInteractions },
  // Levers, buttons and pressure plates; its scheduled ticks (a button's release) go with a reset world.
  { name: 'switches', requires: [], install: installSwitches, reset: clearSwitchTicks },
  { name: 'buckets', requires: ['inventory', 'movement'], install: installBuckets },
  { name: 'villagers', requires: ['inventory', 'mobs'], install: installVillagers },
  { name: 'note-blocks', requires: ['sounds-particles'], install: installNoteBlocks },
  { name: 'signs', requires: [], install: installSigns },
];
