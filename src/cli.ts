/**
 * mindcraft-ts command line: `start` (default) runs the bots of settings.json, `server` runs the
 * embedded Minecraft server alone, `task` runs one MineCollab task and prints its result.
 */
import { parseArgs } from 'node:util';
import path from 'node:path';
import { startAgents } from './app/start-bots.ts';
import { DEFAULT_MINECRAFT_VERSION } from './game/versions.ts';
import { startEmbeddedServer } from './server/embedded.ts';
import { ConfigError, loadSettings } from './settings/index.ts';
import { loadTask, TaskError } from './tasks/loader.ts';
import { appendResult, loadTaskProfiles, runTask } from './app/run-task.ts';

const USAGE = `Usage:
  npm start                                   run the bots of settings.json
  npm run server -- [--port <n>] [--version <v>]
                                              run the embedded Minecraft server alone
  npm run task -- <task-file> <task-id> [--model <provider/model>] [--out <results.jsonl>]
                                              run one MineCollab task`;

/** Bad command-line input: printed with the usage, exit code 2. */
class UsageError extends Error {}

function log(line: string): void {
  console.error(line);
}

/** Resolves when the user presses Ctrl-C (or the process gets SIGTERM). */
function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}

async function start(): Promise<void> {
  const { settings, profiles, file } = await loadSettings();
  log(`Settings: ${file ?? 'defaults (no settings.json found)'}; bots: ${profiles.map((p) => p.name).join(', ')}`);
  const running = await startAgents({ settings, profiles, log });
  log(`Join ${running.address.host}:${running.address.port} with a Minecraft ${running.address.version} client and talk to the bots in chat. Ctrl-C stops.`);
  await untilInterrupted();
  await running.close();
}

async function server(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { port: { type: 'string' }, version: { type: 'string' } }, strict: true });
  const port = values.port === undefined ? 25565 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port expects a port number 0–65535, got "${values.port}"`);
  const srv = await startEmbeddedServer({ port, version: values.version ?? DEFAULT_MINECRAFT_VERSION });
  log(`Minecraft ${srv.version} server (offline mode, superflat) on ${srv.host}:${srv.port}.`);
  log(`Join: Multiplayer > Direct Connection > ${srv.host}:${srv.port} with a ${srv.version} client (any username). Ctrl-C stops.`);
  await untilInterrupted();
  await srv.close();
}

async function task(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: { model: { type: 'string' }, out: { type: 'string' } } });
  if (positionals.length !== 2) throw new UsageError(`task expects <task-file> <task-id>, got ${positionals.length} argument(s)`);
  const [file, id] = positionals;
  const loaded = await loadTask(file, id);
  const { settings } = await loadSettings();
  const profiles = await loadTaskProfiles(path.resolve('profiles/tasks'), loaded.agent_count);
  const result = await runTask({ task: loaded, settings, profiles, model: values.model, log });
  if (values.out) await appendResult(values.out, result);
  console.log(JSON.stringify(result));
}

async function main(argv: string[]): Promise<number> {
  const [command = 'start', ...rest] = argv;
  try {
    if (command === 'start') await start();
    else if (command === 'server') await server(rest);
    else if (command === 'task') await task(rest);
    else throw new UsageError(`unknown command "${command}"`);
    return 0;
  } catch (err) {
    const e = err as Error;
    const bad = e instanceof UsageError || e instanceof ConfigError || e instanceof TaskError || (e as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
    log(`Error: ${e.message}`);
    if (e instanceof UsageError || (e as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) log(USAGE);
    return bad || (e as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
// Bots and servers hold sockets open; leave once the work is done.
process.exit();
