/** The data a VillagerBench task carries (`LoadedTask.villager`), by scenario; loaded by `./load.ts`. */
import type { PlacedBlock, TimeBudget, VillagerBlueprint } from './construction.ts';
import type { FarmTask } from './cooking.ts';
import type { Atom, EscapeChain } from './escape.ts';

/** The VillagerBench scenarios. */
export type VillagerScenario = 'construction' | 'cooking' | 'escape';

/** A VillagerBench task's own data, by scenario. */
export type VillagerSpec =
  | {
      scenario: 'construction';
      blueprint: VillagerBlueprint;
      /** The blocks at their places: superflat ones as loaded, the ground found once set up. */
      blocks: PlacedBlock[];
      budget: TimeBudget;
      /** The material chests as the set-up placed them (block positions), west to east, with what each holds (item → count). */
      chests?: { x: number; y: number; z: number; items: Record<string, number> }[];
    }
  | { scenario: 'cooking'; farm: FarmTask; budget: TimeBudget }
  | {
      scenario: 'escape';
      atoms: Atom[];
      rooms: number;
      seed: number;
      budget: TimeBudget;
      /** The rooms as laid out for the run (the set-up chains them where the team stands); the judge needs them. */
      chain?: EscapeChain;
    };
