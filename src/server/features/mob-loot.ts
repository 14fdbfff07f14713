/**
 * What dying mobs drop: their minecraft-data `entityLoot` as item entities (player-kill-only
 * entries when a player dealt the killing blow; babies drop nothing), spawned where the mob died.
 * An unsheared sheep also drops one wool of its colour (vanilla 1.21's per-colour sheep loot
 * tables, `entities/sheep/<colour>`, which minecraft-data's `entityLoot` does not list).
 */
import type { SquidServer } from '../types.ts';
import { dropFromEntity } from '../services/drops.ts';
import { mobDrops } from '../services/loot.ts';
import { mobState, WOOL_COLOURS } from '../services/mobs.ts';

/** vanilla: item entities spawned by a dying mob can be picked up after 10 ticks. */
const LOOT_PICKUP_DELAY_TICKS = 10;

/** Installs mob loot (on the mob service's `mobDied`). */
export function installMobLoot(serv: SquidServer): void {
  serv.on('mobDied', ({ entity, killer }) => {
    const mob = mobState(serv, entity);
    if (!mob || mob.baby) return;
    const drops = mobDrops(serv, mob.name, killer !== undefined);
    if (mob.wool && !mob.wool.sheared) drops.push({ item: `${WOOL_COLOURS[mob.wool.colour]}_wool`, count: 1 });
    dropFromEntity(serv, entity, drops, LOOT_PICKUP_DELAY_TICKS);
  });
}
