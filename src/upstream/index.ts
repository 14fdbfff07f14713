/**
 * Fixes of hot spots in the libraries under the bots and the server, each to be sent upstream
 * (the patch text is in docs/upstream/<library>.md). Each one checks first whether the library
 * it fixes still needs it, by behaviour, not by version number, and does nothing when it does not:
 * updating the library retires the fix by itself.
 *
 * | library | fix | where |
 * | --- | --- | --- |
 * | minecraft-data | the factory memoised per version | ./minecraft-data.ts |
 * | minecraft-data | tier-gated blocks (ores, obsidian) get their `mineable/*` material: dug at their tool's speed | ./minecraft-data.ts |
 * | minecraft-protocol | packet framing without a thrown error per chunk | ./minecraft-protocol.ts |
 * | minecraft-protocol | a client's `end` after the packets read before it (a kick's reason kept) | ./minecraft-protocol.ts |
 * | mineflayer | `_playerFromUUID` through `uuidToUsername` | ./mineflayer.ts |
 * | mineflayer | furnace properties read with the window given to `openFurnace` | ./mineflayer.ts |
 * | mineflayer | a bot's first packets read once its plugins listen (a login refusal kept) | ./mineflayer.ts |
 * | mineflayer | a dig started in the air waits for the bot to land (not vanilla's fivefold time to the end) | ./mineflayer.ts |
 * | mineflayer | `findBlocks` looks at every block within its distance (not an octahedron of sections) | ./mineflayer.ts |
 * | mineflayer | 1.21.6+ `entity_action` ids by name, 1.21.9+ velocities in blocks per tick | ./mineflayer-versions.ts |
 * | prismarine-block | `Block.fromStateId` from a per-state template | ./prismarine-block.ts |
 * | prismarine-chunk | palette containers keep the 1.21.5+ format through JSON | ./prismarine-chunk.ts |
 * | prismarine-chunk | a section's `palette` is its container's, single-value ones included | ./prismarine-chunk.ts |
 * | mineflayer-tool | `equipForBlock` with no tool chests ends instead of retrying without end | ./mineflayer-tool.ts |
 * | mineflayer-pathfinder | open doors, trapdoors and gates walked through; doors and gates never dug | ./mineflayer-pathfinder.ts |
 * | protodef | compiled packet code kept on disk between processes (a cache, not a fix) | ./protodef.ts |
 *
 * This layer imports libraries only; every other layer may import it.
 */
import type { Bot } from 'mineflayer';
import { memoiseMinecraftData, mineableMaterials, type FixStatus } from './minecraft-data.ts';
import { fixPacketFraming } from './minecraft-protocol.ts';
import { playerLookup } from './mineflayer.ts';
import { fastFromStateId } from './prismarine-block.ts';
import { keepChunkFormatInJson, livePalettes } from './prismarine-chunk.ts';
import { cacheProtodefCode } from './protodef.ts';

export type { FixStatus } from './minecraft-data.ts';
export { digOnTheGround, findBlocksInRange, furnaceProperties, packetsAfterPlugins, playerLookup } from './mineflayer.ts';
export { versionFixes } from './mineflayer-versions.ts';
export { mineableMaterialsOf } from './minecraft-data.ts';
export { toolWithoutChests } from './mineflayer-tool.ts';
export { doorways } from './mineflayer-pathfinder.ts';
export { packetsBeforeEnd } from './minecraft-protocol.ts';

/** What {@link applyUpstreamFixes} found for each process-wide fix. */
export interface UpstreamFixes {
  'minecraft-data': FixStatus;
  /** minecraft-data's materials of tier-gated blocks (their dig speed). */
  'minecraft-data materials': FixStatus;
  'minecraft-protocol': FixStatus;
  'prismarine-block': FixStatus;
  'prismarine-chunk': FixStatus;
  /** prismarine-chunk's section palettes, which mineflayer's `findBlocks` reads to skip a section. */
  'prismarine-chunk palettes': FixStatus;
  /** protodef's compiled packet code, cached on disk. */
  protodef: FixStatus;
}

/**
 * Applies the process-wide fixes (minecraft-data, minecraft-protocol, prismarine-block,
 * prismarine-chunk) that the
 * installed libraries still need. Idempotent; call it before the first bot or server is made (the
 * block classes made before it keep the old `fromStateId`). Cheap: each probe is a call or two.
 */
export function applyUpstreamFixes(): UpstreamFixes {
  return {
    'minecraft-data': memoiseMinecraftData(),
    'minecraft-data materials': mineableMaterials(),
    'minecraft-protocol': fixPacketFraming(),
    'prismarine-block': fastFromStateId(),
    'prismarine-chunk': keepChunkFormatInJson(),
    'prismarine-chunk palettes': livePalettes(),
    protodef: cacheProtodefCode(),
  };
}

/**
 * A mineflayer plugin: the process-wide fixes ({@link applyUpstreamFixes}) and the bot's own
 * ({@link playerLookup}). Load it right after `createBot`.
 *
 * @example bot.loadPlugin(upstreamFixes);
 */
export function upstreamFixes(bot: Bot): void {
  applyUpstreamFixes();
  playerLookup(bot);
}
