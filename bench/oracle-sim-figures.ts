/**
 * The offline policy's success on generated tasks in the in-memory stand-in of the game
 * (test/oracle/oracle-sim.ts: hand-overs, crafting, smelting, gathering and blueprint cells, no
 * server, no pathfinding): 100 generated tasks per type by default, with fixed seeds, and the
 * shared MineCollab files when `--shared <dir>` is given. Seconds, where the server takes hours.
 * `--write <dir>` also writes the generated tasks there as MineCollab task files
 * (`generated_crafting.json`, `generated_cooking.json`, `generated_construction.json`), so the
 * server plays the very same tasks: `npm run eval -- <dir> --model oracle`.
 *
 *   npx node bench/oracle-sim-figures.ts [--count 100] [--shared ../shared/minecollab] [--write <dir>]
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gameData } from '../src/game/data.ts';
import { generateConstructionTasks, generateCookingTasks, generateCraftingTasks } from '../src/tasks/generate.ts';
import { seededRandom } from '../src/tasks/random.ts';
import { checkBlueprint, normalizeBlockName } from '../src/tasks/blueprint.ts';
import { goalFor, loadTaskFile, perAgentTargets, taskTargets } from '../src/tasks/loader.ts';
import type { Task } from '../src/tasks/schema.ts';
import { COOKING_WORLD as COOKING, FLAT_WORLD as FLAT, simulate } from '../test/oracle/oracle-sim.ts';

const { values } = parseArgs({ options: { count: { type: 'string' }, shared: { type: 'string' }, write: { type: 'string' } } });
const count = Number(values.count ?? 100);
const data = gameData('1.21.4');
const NAMES = ['Andy', 'Jill', 'Bob', 'Sally', 'Mike'];
function play(id: string, task: Task): { success: boolean; unsolvable?: string } {
  const own = perAgentTargets({ ...task, id });
  const all = taskTargets({ ...task, id });
  const team = Array.from({ length: task.agent_count }, (_, i) => ({
    name: NAMES[i]!,
    inventory: task.initial_inventory[String(i)] ?? {},
    blocked: task.blocked_actions?.[String(i)] ?? [],
    targets: task.type === 'construction' ? undefined : own ? { [own[String(i)]!]: 1 } : all,
    blueprint: task.blueprint,
    goal: goalFor(task, i),
  }));
  const r = simulate(data, team, task.type === 'cooking' ? COOKING : FLAT, 20_000);
  const agents = [...r.agents.values()];
  const unsolvable = agents.map((a) => a.policy.unsolvable).find(Boolean);
  let success: boolean;
  if (task.type === 'construction')
    success =
      checkBlueprint(task.blueprint!, (x, y, z) => normalizeBlockName(r.world.get(`${x},${y},${z}`) ?? 'air')).mismatches.length === 0;
  else if (own) success = agents.every((a, i) => (a.inventory[own[String(i)]!] ?? 0) >= 1);
  else success = agents.some((a) => Object.entries(all).every(([k, n]) => (a.inventory[k] ?? 0) >= n));
  return { success, ...(unsolvable ? { unsolvable } : {}) };
}

async function report(name: string, tasks: [string, Task][], file?: string): Promise<void> {
  if (file && values.write) {
    await mkdir(values.write, { recursive: true });
    await writeFile(path.join(values.write, file), `${JSON.stringify(Object.fromEntries(tasks), null, 2)}\n`);
  }
  const results = tasks.map(([id, t]) => ({ id, ...play(id, t) }));
  const solved = results.filter((r) => r.success).length;
  const said = results.filter((r) => r.unsolvable);
  console.log(`${name}: ${solved}/${results.length} solved, ${said.length} reported unsolvable`);
  for (const r of results.filter((x) => !x.success)) console.log(`  ${r.id}: ${r.unsolvable ?? 'not solved'}`);
}

const rng = seededRandom(2024);
const crafting: [string, Task][] = [];
for (let k = 0; crafting.length < count; k++) {
  const agents = 1 + (k % 5);
  const depth = k % 3;
  const blocked = rng.next() < 0.3 ? ['!craftRecipe'] : [];
  crafting.push(...Object.entries(generateCraftingTasks(data, { agents, count: 1, seed: 5000 + k, depth, blocked })));
}
await report(`generated crafting (${count})`, crafting.slice(0, count), 'generated_crafting.json');
const cooking: [string, Task][] = [];
for (let k = 0; cooking.length < count; k++) {
  const hk = k % 5 === 4;
  cooking.push(...Object.entries(generateCookingTasks(data, { agents: hk ? 2 : 1 + (k % 5), count: 1, seed: 6000 + k, hellsKitchen: hk })));
}
await report(`generated cooking (${count})`, cooking.slice(0, count), 'generated_cooking.json');
const construction: [string, Task][] = [];
for (let k = 0; construction.length < count; k++) {
  construction.push(
    ...Object.entries(generateConstructionTasks(data, { agents: 1 + (k % 3), count: 1, seed: 7000 + k, size: 6, levels: 3 })),
  );
}
await report(`generated construction (${count})`, construction.slice(0, count), 'generated_construction.json');

if (values.shared) {
  const files: string[] = [];
  const walk = async (dir: string) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith('.json')) files.push(p);
    }
  };
  await walk(values.shared);
  for (const file of files.sort()) {
    if (file.endsWith('example_tasks.json')) continue;
    await report(path.relative(values.shared, file), [...(await loadTaskFile(file)).entries()]);
  }
}
