/**
 * Setting up the VillagerBench scenarios, through op commands typed by agent 0 as the MineCollab
 * set-up does (`./task-setup.ts`), each step waiting until its bot sees the effect:
 * - construction: the blocks moved onto the ground found around agent 0 (y = −60 on superflat,
 *   as VillagerBench places them), the site cleared, the materials in chests south of it, the
 *   agents beside the chests;
 * - cooking: the farm task's yard around agent 0 (its structures, blocks, filled chests,
 *   animals), the agents at its centre;
 * - escape: the run's rooms chained by its seed from where agent 0 stands, the agents in the
 *   first, and the rooms' description as the goal.
 * It returns the task as placed: the blocks or rooms where the judge will read them.
 */
import { Vec3 } from 'vec3';
import type { Agent } from '../agent/agent.ts';
import type { GameData } from '../game/data.ts';
import type { LoadedTask } from '../tasks/schema.ts';
import { blueprintMaterials, describeBlocks, shiftBlocks, SUPERFLAT_GROUND_Y } from '../tasks/villager/construction.ts';
import { chainRooms, describeChain, escapeBuildCommands, type Pos } from '../tasks/villager/escape.ts';
import { constructionChestCommands, constructionLayout, farmWorld } from '../tasks/villager/layout.ts';
import { levelsBlueprint, type VillagerSpec } from '../tasks/villager/load.ts';
import { fillBoxCommands } from '../tasks/worlds.ts';
import { botBlockLookup } from './task-play.ts';
import { groundLevel, must, teleportAll, type Commander } from './setup-steps.ts';

/** How far from the yard's centre the summoned animals are looked for (blocks). */
const ANIMAL_RADIUS = 40;

/**
 * Sets up a VillagerBench task (see the module comment) with agent 0 standing at `origin`.
 *
 * @returns the task as placed, and where human players meet the team.
 * @throws Error (set-up timed out: what did not happen) as the MineCollab set-up does; Error for a
 *   farm structure this project does not build or a blueprint block no item places.
 */
export async function setUpVillager(
  task: LoadedTask,
  spec: VillagerSpec,
  agents: Agent[],
  commanders: Commander[],
  origin: Pos,
  stepMs: number,
): Promise<{ task: LoadedTask; meeting: Pos }> {
  const bot = agents[0]!.bot;
  const data = bot.registry as unknown as GameData;
  const commands = commanders[0]!;
  const nameAt = (p: Pos) => bot.blockAt(new Vec3(p.x, p.y, p.z))?.name;
  switch (spec.scenario) {
    case 'construction': {
      const ground = groundLevel(bot, origin) ?? origin.y;
      const blocks = shiftBlocks(spec.blocks, ground - SUPERFLAT_GROUND_Y);
      const layout = constructionLayout(data, blocks, blueprintMaterials(data, blocks));
      // In order: flying-squid runs commands concurrently, and a clearing /fill must not land after the chests.
      await commands.sendInOrder(fillBoxCommands(layout.clear, 'air'));
      const lookup = botBlockLookup(bot);
      // The whole cleared box, the chests' row included, before the chests: a clearing /fill still
      // under way there (flying-squid runs commands concurrently) would take a chest placed first.
      const cleared = layout.clear;
      await must(
        'the construction site was not cleared',
        () => {
          for (let x = cleared.min.x; x <= cleared.max.x; x++)
            for (let y = cleared.min.y; y <= cleared.max.y; y++)
              for (let z = cleared.min.z; z <= cleared.max.z; z++) if (lookup(x, y, z) !== 'air') return false;
          return true;
        },
        commands,
        stepMs,
      );
      await commands.sendInOrder(constructionChestCommands(data, layout));
      await must('the material chests were not placed', () => layout.chests.every((c) => nameAt(c.at) === 'chest'), commands, stepMs);
      await teleportAll(agents, commanders, layout.start, stepMs);
      const where = layout.chests.map((c) => `[${c.at.x} ${c.at.y} ${c.at.z}]`).join(' ');
      const goal = [...describeBlocks(spec.blueprint.name, blocks), `The materials are in the chest(s) at ${where}.`].join('\n');
      return {
        task: {
          ...task,
          goal,
          blueprint: levelsBlueprint(blocks, (n) => data.blocksByName[n]?.states?.map((st) => st.name)),
          villager: { ...spec, blocks, chests: layout.chests.map((c) => ({ ...c.at, items: c.items })) },
        },
        meeting: layout.start(agents.length),
      };
    }
    case 'cooking': {
      const world = farmWorld(data, spec.farm, origin);
      await commands.sendInOrder(world.blocks);
      await must(
        `the farm was not built (${world.landmarks.map((l) => l.name).join(', ')})`,
        () => world.landmarks.every((l) => nameAt(l.at) === l.name),
        commands,
        stepMs,
      );
      commands.send([...world.chestItems, ...world.summons]);
      const centre = new Vec3(origin.x, origin.y, origin.z + 12);
      await must(
        'the animals did not appear',
        () =>
          Object.entries(world.animals).every(
            ([type, n]) =>
              Object.values(bot.entities).filter((e) => e.name === type && e.position.distanceTo(centre) < ANIMAL_RADIUS).length >= n,
          ),
        commands,
        stepMs,
      );
      await teleportAll(agents, commanders, world.start, stepMs);
      return { task, meeting: world.start(agents.length) };
    }
    case 'escape': {
      const chain = chainRooms(spec.atoms, spec.rooms, spec.seed, agents.length, origin);
      const propertiesOf = (name: string) => data.blocksByName[name]?.states?.map((st) => st.name);
      await commands.sendInOrder(escapeBuildCommands(chain, propertiesOf));
      const last = chain.rooms.at(-1)!;
      const corner = { x: last.centre.x + last.width + last.wall, y: last.centre.y, z: last.centre.z + last.width + last.wall };
      await must(
        'the escape rooms were not built',
        () => nameAt(corner) === 'bedrock' && (!last.gate || nameAt(last.exit) === 'iron_door'),
        commands,
        stepMs,
      );
      await teleportAll(agents, commanders, (i) => chain.starts[i]!, stepMs);
      return { task: { ...task, goal: describeChain(chain), villager: { ...spec, chain } }, meeting: chain.starts[0]! };
    }
  }
}
