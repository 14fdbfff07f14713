/**
 * The VillagerBench judges on the fixtures of test/fixtures/villagerbench/, against scores worked
 * out by hand (each test says how).
 */
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadTaskFile } from '../../../src/tasks/loader.ts';
import type { LoadedTask } from '../../../src/tasks/schema.ts';
import { validatorFor, type TaskState } from '../../../src/tasks/validators.ts';
import { constructionComplexity, placeBlueprint } from '../../../src/tasks/villager/construction.ts';
import { contributionRate } from '../../../src/tasks/villager/cooking.ts';
import { atomFileSchema, blockCommands, chainRooms, EscapeJudge, type Atom, type EscapeChain } from '../../../src/tasks/villager/escape.ts';
import type { BlockState } from '../../../src/tasks/villager/states.ts';

const fixture = (name: string) => path.resolve('test/fixtures/villagerbench', name);
const load = async (file: string, id: string) => (await loadTaskFile(fixture(file))).get(id)!;

/** A world of the given blocks, air elsewhere. */
function world(blocks: Record<string, BlockState> = {}) {
  const at = new Map(Object.entries(blocks));
  return {
    set: (x: number, y: number, z: number, s: BlockState) => at.set(`${x},${y},${z}`, s),
    states: (x: number, y: number, z: number) => at.get(`${x},${y},${z}`) ?? { name: 'air', properties: {} },
  };
}
const state = (partial: Partial<TaskState>): TaskState => ({ inventories: () => [], lookup: () => 'air', ...partial });

describe('construction: completion and VHR', () => {
  test('complexity of the hut, block by block', async () => {
    const hut = await load('construction.json', 'task_0');
    // planks A: 1 neighbour, h 1 → 2(1/2 + .02) = 1.04; stairs W: east and above (not its west) → 2(1/3 + .02);
    // log axis y: only west/east → 1 → 1.04; glass N at h 2: the stairs below → 2(1/2 + .04) = 1.08.
    expect(hut.villager?.scenario === 'construction' && constructionComplexity(hut.villager.blueprint)).toBeCloseTo(
      1.04 + 2 * (1 / 3 + 0.02) + 1.04 + 1.08,
      6,
    );
  });

  test('an empty site scores 0; wrong facing and a missing block: completion 2/4, VHR by view', async () => {
    const hut = await load('construction.json', 'task_0');
    const validate = validatorFor(hut)!;
    const w = world();
    expect(validate(state({ states: w.states }))).toMatchObject({ success: false, score: 0, metrics: { completion: 0, vhr: 0 } });
    // Placed at x − ⌈3/2⌉ − 8: planks (−10), stairs (−9), log (−8) at y −60; glass (−9, −59).
    const spec = hut.villager!;
    if (spec.scenario !== 'construction') throw new Error('not construction');
    expect(placeBlueprint(spec.blueprint).map((b) => [b.x, b.y, b.z])).toEqual([
      [-10, -60, 0],
      [-9, -60, 0],
      [-8, -60, 0],
      [-9, -59, 0],
    ]);
    w.set(-10, -60, 0, { name: 'oak_planks', properties: {} });
    w.set(-9, -60, 0, { name: 'oak_stairs', properties: { facing: 'east', half: 'bottom' } });
    w.set(-8, -60, 0, { name: 'oak_log', properties: { axis: 'y' } });
    // front and back: 3 of 4 rays agree (glass missing) → .75 each; left and right: 1 of 2 → .5 each;
    // top: planks, stairs (glass expected), log → 2/3. VHR = (.75 + .75 + .5 + .5 + 2/3) / 5.
    const v = validate(state({ states: w.states }));
    expect(v.score).toBe(0.5);
    expect(v.metrics).toMatchObject({ completion: 0.5, blocks_matched: 2, blocks: 4 });
    expect(v.metrics!.vhr).toBeCloseTo((0.75 + 0.75 + 0.5 + 0.5 + 2 / 3) / 5, 4);
    // The views for the records: the front's top row has the glass only in the blueprint.
    const front = (v.detail!.views as { legend: string[]; views: { name: string; expected: string[]; built: string[] }[] }).views[0]!;
    expect(front).toMatchObject({ name: 'front', expected: ['.0.', '123'], built: ['...', '123'], iou: 0.75 });
    // The cells at fault, wanted (as the blueprint gives it) and actual: the stairs facing the wrong
    // way, the glass missing.
    expect(v.detail!.wrong).toEqual([
      { x: -9, y: -60, z: 0, wanted: 'oak_stairs[facing=west]', actual: 'oak_stairs[facing=east,half=bottom]' },
      { x: -9, y: -59, z: 0, wanted: 'glass[facing=north]', actual: 'air' },
    ]);
    // Facing right, and glass (which has no facing: the N is not asked of it): complete.
    w.set(-9, -60, 0, { name: 'oak_stairs', properties: { facing: 'west', half: 'top' } });
    w.set(-9, -59, 0, { name: 'glass', properties: {} });
    const whole = validate(state({ states: w.states }));
    expect(whole).toMatchObject({ success: true, score: 1, metrics: { completion: 1, vhr: 1 } });
    expect(whole.detail!.wrong).toBeUndefined();
  });

  test('a log on the wrong axis does not count; a stray block lowers the VHR only', async () => {
    const pillar = await load('construction.json', 'task_1');
    const validate = validatorFor(pillar)!;
    // size x 1: x = 0 − 1 − 8 = −9.
    const w = world({ '-9,-60,0': { name: 'stone_bricks', properties: {} }, '-9,-59,0': { name: 'oak_log', properties: { axis: 'y' } } });
    expect(validate(state({ states: w.states })).metrics).toMatchObject({ completion: 0.5, vhr: 1 });
    w.set(-9, -59, 0, { name: 'oak_log', properties: { axis: 'x' } });
    w.set(-9, -59, 0, { name: 'oak_log', properties: { axis: 'x' } });
    expect(validate(state({ states: w.states })).metrics).toMatchObject({ completion: 1, vhr: 1 });
    // Unloaded cells: no judgement yet.
    expect(validate(state({ states: () => undefined }))).toEqual({ success: false, score: 0 });
  });
});

describe('cooking: checkpoints and ACR', () => {
  test('sub-checkpoints count until their parent is done; the dish alone scores 100', async () => {
    const cake = await load('cooking.json', 'cake_farm');
    const validate = validatorFor(cake)!;
    const inv: Record<string, number>[] = [{}, {}];
    const check = () => validate(state({ inventories: () => inv, agents: ['alice', 'bob'] }));
    inv[0] = { hay_block: 1 };
    inv[1] = { egg: 1 };
    // hay 15 + egg 10; firsts [1, 1]: σ = σmin = 0 → ACR 1.
    expect(check()).toMatchObject({ success: false, score: 0.25, metrics: { points: 25, acr: 1, checkpoints: 2 } });
    inv[0] = { wheat: 3 };
    // wheat done supersedes hay (which stays done, uncounted): egg 10 + wheat 25; firsts [2, 1]: σ = σmin → 1.
    expect(check().metrics).toMatchObject({ points: 35, acr: 1 });
    inv[0] = { wheat: 3, milk_bucket: 3 };
    // + milk 30 = 65; firsts [3, 1]: σ 1, σmax σ([4, 0]) = 2, σmin 0 → 1 − 1/2.
    expect(check().metrics).toMatchObject({ points: 65, acr: 0.5 });
    inv[1] = { egg: 1, sugar_cane: 1 };
    // One cane of two: not done, but bob held it first: [3, 2], σ .5 = σmin → 1.
    expect(check().metrics).toMatchObject({ points: 65, acr: 1 });
    inv[0] = { cake: 1 };
    // The cake supersedes everything else: 100; firsts [4, 2]: σ 1, σmax 3, σmin 0 → 1 − 1/3.
    const done = check();
    expect(done).toMatchObject({ success: true, score: 1, metrics: { points: 100, checkpoints: 1 } });
    expect(done.metrics!.acr).toBeCloseTo(2 / 3, 4);
  });

  test('points are capped at 100 when checkpoints sum past it', async () => {
    const bread = await load('cooking.json', 'bread_chest');
    const validate = validatorFor(bread)!;
    const inv: Record<string, number>[] = [{ wheat: 3 }, {}];
    expect(validate(state({ inventories: () => inv }))).toMatchObject({ score: 0.6, success: false });
    inv[1] = { bread: 1 };
    expect(validate(state({ inventories: () => inv }))).toMatchObject({ score: 1, success: true });
  });

  test('ACR: nothing held scores 0; one agent holding all of two agents scores 0', () => {
    expect(contributionRate([0, 0])).toBe(0);
    expect(contributionRate([4, 0])).toBe(0);
    expect(contributionRate([2, 2])).toBe(1);
    expect(contributionRate([3])).toBe(1);
  });
});

describe('escape: rooms, wait intervals, and/or, effects', () => {
  async function escapeTask(id: string): Promise<{ task: LoadedTask; chain: EscapeChain; atoms: Atom[] }> {
    const task = await load('escape.json', id);
    if (task.villager?.scenario !== 'escape') throw new Error('not escape');
    const chain = chainRooms(task.villager.atoms, task.villager.rooms, task.villager.seed, task.agent_count, { x: 0, y: -60, z: 0 });
    return { task: { ...task, villager: { ...task.villager, chain } }, chain, atoms: task.villager.atoms };
  }
  const plate = (powered: boolean): BlockState => ({ name: 'oak_pressure_plate', properties: { powered: String(powered) } });
  const stone = (powered: boolean): BlockState => ({ name: 'stone_pressure_plate', properties: { powered: String(powered) } });
  const lever = (powered: boolean): BlockState => ({
    name: 'lever',
    properties: { face: 'floor', facing: 'north', powered: String(powered) },
  });

  test('the same seed chains the same rooms; rooms go along +z, 10 apart', async () => {
    const a = await escapeTask('escape_3_1');
    const b = chainRooms(a.atoms, 3, 1, 2, { x: 0, y: -60, z: 0 });
    expect(b.rooms.map((r) => r.atom)).toEqual(a.chain.rooms.map((r) => r.atom));
    expect(a.chain.rooms.map((r) => r.atom).sort()).toEqual([0, 1, 2]);
    expect(a.chain.rooms.map((r) => r.centre.z)).toEqual([0, 10, 20]);
  });

  test('an and room with wait_interval 2 s: plates 1 s apart open it, 3 s apart do not; an or room opens with one lever', async () => {
    const { task, chain } = await escapeTask('escape_3_1');
    const at = (atom: number) => chain.rooms.find((r) => r.atom === atom)!;
    const plates = at(0);
    const levers = at(1);
    const door = at(2);
    const run = (moves: [number, (w: ReturnType<typeof world>) => void][]) => {
      const validate = validatorFor(task)!;
      const w = world();
      const commands: string[] = [];
      const results = moves.map(([t, move]) => {
        move(w);
        return validate(state({ states: w.states, now: () => t, runner: { command: (lines) => commands.push(...lines) } }));
      });
      return { last: results.at(-1)!, commands };
    };
    const [pa, pb] = plates.conditions.map((c) => c.at);
    // 3 s apart: each room's best is one condition of two (or room: nothing yet) → (1/2 + 0 + 0) / 3.
    const apart = run([
      [0, (w) => w.set(pa!.x, pa!.y, pa!.z, plate(true))],
      [3000, (w) => (w.set(pa!.x, pa!.y, pa!.z, plate(false)), w.set(pb!.x, pb!.y, pb!.z, stone(true)))],
    ]);
    expect(apart.last.score).toBeCloseTo(0.5 / 3, 6);
    expect(apart.commands).toEqual([]);
    // 1 s apart: the first still counts; the room is done and its effects clear the exit.
    const together = run([
      [0, (w) => w.set(pa!.x, pa!.y, pa!.z, plate(true))],
      [1000, (w) => (w.set(pa!.x, pa!.y, pa!.z, plate(false)), w.set(pb!.x, pb!.y, pb!.z, stone(true)))],
    ]);
    expect(together.last.metrics).toMatchObject({ rooms_done: 1, rooms: 3 });
    expect(together.last.score).toBeCloseTo(1 / 3, 6);
    expect(together.commands).toEqual([`/setblock 0 -60 ${plates.exit.z} air`, `/setblock 0 -59 ${plates.exit.z} air`]);
    // The or room: one lever of two; its gate (an iron door the chain put in) opens.
    const l = levers.conditions[1]!.at;
    const d = door.conditions[0]!.at;
    const all = run([
      [0, (w) => (w.set(pa!.x, pa!.y, pa!.z, plate(true)), w.set(pb!.x, pb!.y, pb!.z, stone(true)), w.set(l.x, l.y, l.z, lever(true)))],
      [50, (w) => w.set(d.x, d.y, d.z, lever(true))],
    ]);
    expect(levers.gate).toBe(true);
    expect(all.commands).toContain(`/setblock 0 -60 ${levers.exit.z} iron_door[facing=south,open=true,half=lower]`);
    // The door room's effect opens its own door, keeping the facing and hinge of its init.
    expect(all.commands).toContain(`/setblock 0 -59 ${door.exit.z} iron_door[facing=north,open=true,hinge=left,half=upper]`);
    expect(all.last).toMatchObject({ success: true, score: 1, metrics: { rooms_done: 3 } });
  });

  test('activate_duration: once it has passed and the lever is off, the door the lever opened closes again; the room stays done', async () => {
    const { atoms } = await escapeTask('escape_3_1');
    const doorAtom = atoms.find((a) => a.effect.some((e) => e.name === 'iron_door'))!;
    const chain = chainRooms([{ ...doorAtom, activate_duration: 3 }], 1, 0, 2, { x: 0, y: -60, z: 0 });
    const room = chain.rooms[0]!;
    const lever = room.conditions[0]!.at;
    const door = (open: boolean, half: string): BlockState => ({
      name: 'iron_door',
      properties: { facing: 'north', half, hinge: 'left', open: String(open), powered: 'false' },
    });
    const w = world();
    w.set(room.exit.x, room.exit.y, room.exit.z, door(false, 'lower'));
    w.set(room.exit.x, room.exit.y + 1, room.exit.z, door(false, 'upper'));
    const judge = new EscapeJudge(chain);
    const commands: string[] = [];
    const check = (t: number) => judge.check(w.states, { command: (lines) => commands.push(...lines) }, t);
    const closed = [
      `/setblock ${room.exit.x} ${room.exit.y} ${room.exit.z} iron_door[facing=north,hinge=left,open=false,powered=false,half=lower]`,
      `/setblock ${room.exit.x} ${room.exit.y + 1} ${room.exit.z} iron_door[facing=north,hinge=left,open=false,powered=false,half=upper]`,
    ];
    const pull = (on: boolean) =>
      w.set(lever.x, lever.y, lever.z, { name: 'lever', properties: { face: 'floor', facing: 'north', powered: String(on) } });

    pull(true);
    expect(check(0)).toMatchObject({ done: 1, escaped: true });
    expect(commands.join('\n')).toContain('open=true');
    commands.length = 0;
    pull(false);
    // Within the 3 s, and the lever's own wait interval (4 s, the default) still counting it: nothing.
    check(1000);
    check(2999);
    expect(commands).toEqual([]);
    // From 3 s on the group may fire or be undone, but the lever counts until 4 s (its wait interval,
    // from its last time on at 0 s): past that, the door closes, once.
    check(5001);
    expect(commands).toEqual(closed);
    expect(check(6000)).toMatchObject({ done: 1, escaped: true, rooms: [1] });
    expect(commands).toEqual(closed);
    // Pulled again: it opens again.
    pull(true);
    check(7000);
    expect(commands.slice(2).join('\n')).toContain('open=true');
  });

  test('a lever held on keeps its door open past activate_duration; effects at a condition cell are never undone', async () => {
    const { atoms } = await escapeTask('escape_3_1');
    const doorAtom = atoms.find((a) => a.effect.some((e) => e.name === 'iron_door'))!;
    const cond = doorAtom.condition[0]!;
    // An effect that also sets the lever's own cell (as some atoms reset a switch): never put back.
    const atom = { ...doorAtom, activate_duration: 2, effect: [...doorAtom.effect, { ...cond, powered: false }] };
    const chain = chainRooms([atom], 1, 0, 2, { x: 0, y: -60, z: 0 });
    const room = chain.rooms[0]!;
    const lever = room.conditions[0]!.at;
    const w = world();
    const commands: string[] = [];
    const judge = new EscapeJudge(chain);
    const check = (t: number) => judge.check(w.states, { command: (lines) => commands.push(...lines) }, t);
    w.set(lever.x, lever.y, lever.z, { name: 'lever', properties: { face: 'floor', facing: 'north', powered: 'true' } });
    check(0);
    const fired = commands.length;
    expect(fired).toBeGreaterThan(0);
    // Held on: at 2 s it fires again rather than being undone.
    check(2000);
    expect(commands.length).toBe(2 * fired);
    w.set(lever.x, lever.y, lever.z, { name: 'lever', properties: { face: 'floor', facing: 'north', powered: 'false' } });
    check(9000);
    const undone = commands.slice(2 * fired);
    expect(undone.length).toBeGreaterThan(0);
    expect(undone.filter((c) => c.includes(`${lever.x} ${lever.y} ${lever.z} `))).toEqual([]);
  });

  test('without laid-out rooms the escape validator says so', async () => {
    const task = await load('escape.json', 'escape_1_0');
    expect(() => validatorFor(task)).toThrow(/no rooms laid out yet/);
  });
});

describe('escape chains of rooms of different widths', () => {
  test('a wide room pushes the next one farther, so that no walls overlap', () => {
    const narrow = { condition: [{ name: 'lever', position: [0, 0, 0], powered: true }] };
    const wide = { ...narrow, room_width: 6, wall_width: 2 };
    const atoms = atomFileSchema.parse([wide, narrow]);
    const chain = chainRooms(atoms, 2, 0, 1, { x: 0, y: 0, z: 0 });
    const [a, b] = chain.rooms;
    // Half-widths with walls 6 + 2 and 3 + 1, plus 2: 14 apart (more than 10), whichever comes first.
    expect(b!.centre.z - a!.centre.z).toBe(14);
    expect(a!.exit.z).toBeLessThan(b!.centre.z - b!.width - b!.wall);
  });
});

describe('escape blocks as commands', () => {
  const at = { x: 1, y: -60, z: 2 };
  const next = { x: 0, y: -60, z: 10 };
  test('init blocks are always placed, without the states the block lacks; an effect with only a command runs it alone', () => {
    const torch = { name: 'redstone_torch', at, states: { facing: 'east' }, subEvent: '' };
    const propertiesOf = (name: string) => (name === 'redstone_torch' ? ['lit'] : undefined);
    expect(blockCommands(torch, next, { init: true, propertiesOf })).toEqual(['/setblock 1 -60 2 redstone_torch']);
    const chest = { name: 'chest', at, states: {}, command: '/item replace block _pos_ container.0 with gold_block', subEvent: '' };
    expect(blockCommands(chest, next, { init: true })).toEqual([
      '/setblock 1 -60 2 chest',
      '/item replace block 1 -60 2 container.0 with gold_block',
    ]);
    const teleport = { name: 'lever', at, states: {}, command: '/tp @r[_position_,distance=..2] _merge_pos_', subEvent: '' };
    expect(blockCommands(teleport, next)).toEqual(['/tp @r[x=1,y=-60,z=2,distance=..2] 0 -60 10']);
  });
});
