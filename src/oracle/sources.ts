/**
 * What the world gives the policy's plans: the sources of what the agent sees and reaches
 * (`sourcesFrom`), less what it has found gone, with fuel for a furnace found empty.
 */
import type { GameData } from '../game/data.ts';
import type { Counts, ProductionSources } from '../game/production.ts';
import { sourcesFrom } from '../skills/surroundings.ts';
import { GONE_RADIUS, type OracleMemory } from './memory.ts';
import type { Observation } from './observation.ts';

/**
 * What the world around the agent gives its plans ({@link sourcesFrom}): what it sees and reaches,
 * less the blocks and mobs it found gone near here, and fuel for a furnace found empty.
 */
export function worldSources(m: OracleMemory, obs: Observation, data: GameData, inventory: Counts = obs.inventory): ProductionSources {
  const p = obs.position;
  const here = (name: string) => {
    if (!m.gone.has(name)) return true;
    const at = m.gone.get(name);
    return at !== undefined && p !== undefined && Math.hypot(p.x - at.x, p.z - at.z) > GONE_RADIUS;
  };
  return sourcesFrom(data, {
    blocks: obs.blocks.filter(here),
    reachable: obs.reachable?.filter(here),
    mobs: obs.mobs.filter(here),
    inventory,
    supplies: obs.task?.supplies,
    unfuelled: m.unfuelled,
  });
}
