/**
 * The folder one run leaves with `--out`: `requests/<agent>.jsonl`, `commands.jsonl`,
 * `messages.jsonl`, `graph.jsonl` (graph strategies), `inventories.json`, `blueprint-diff.txt` (construction) and `result.json`
 * (the formats are in `src/tasks/eval/records.ts`).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { RunEvent, RunResult } from '../tasks/eval/records.ts';

/** What a run writes once it has ended. */
export interface RunEnding {
  result: RunResult;
  /** Agent name → item → count, as each bot saw its inventory at the end. */
  inventories: Record<string, Record<string, number>>;
  /** Construction: the diff lines of the world against the blueprint (empty when it matches). */
  blueprintDiff?: string[];
}

/** Writes one run's records as they come (see the module comment). */
export class RunFolder {
  readonly dir: string;
  readonly #streams = new Map<string, WriteStream>();

  private constructor(dir: string) {
    this.dir = dir;
  }

  /**
   * Makes the run's folder empty and ready: records of an earlier, interrupted attempt at the
   * same run are removed.
   */
  static async create(dir: string): Promise<RunFolder> {
    await rm(dir, { recursive: true, force: true });
    await mkdir(path.join(dir, 'requests'), { recursive: true });
    return new RunFolder(dir);
  }

  /** Appends `event` to its file (phases are kept in the result, not written). */
  write(event: RunEvent): void {
    const file =
      event.type === 'request'
        ? path.join('requests', `${event.agent.replace(/[^\w.-]/g, '_')}.jsonl`)
        : event.type === 'command'
          ? 'commands.jsonl'
          : event.type === 'message'
            ? 'messages.jsonl'
            : event.type === 'graph'
              ? 'graph.jsonl'
              : undefined;
    if (!file) return;
    let stream = this.#streams.get(file);
    if (!stream) {
      stream = createWriteStream(path.join(this.dir, file), { flags: 'a' });
      stream.on('error', () => {}); // a full disk must not crash the run; the result says what it can
      this.#streams.set(file, stream);
    }
    stream.write(`${JSON.stringify(event)}\n`);
  }

  /** Closes the event files and writes the final state and the result. */
  async finish(ending: RunEnding): Promise<void> {
    await Promise.all(
      [...this.#streams.values()].map(async (s) => {
        s.end();
        await finished(s).catch(() => {});
      }),
    );
    this.#streams.clear();
    await writeFile(path.join(this.dir, 'inventories.json'), `${JSON.stringify(ending.inventories, null, 2)}\n`);
    if (ending.blueprintDiff)
      await writeFile(
        path.join(this.dir, 'blueprint-diff.txt'),
        ending.blueprintDiff.length ? `${ending.blueprintDiff.join('\n')}\n` : 'The world matches the blueprint.\n',
      );
    await writeFile(path.join(this.dir, 'result.json'), `${JSON.stringify(ending.result, null, 2)}\n`);
  }
}
