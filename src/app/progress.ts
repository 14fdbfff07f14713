/**
 * The evaluation's progress bar (cli-progress): done/total, successes so far, tokens so far, runs
 * in progress and the ETA, on one line of the terminal; other lines are printed above it.
 */
import cliProgress from 'cli-progress';
import type { EvaluationProgress } from './evaluate.ts';
import { compactCount } from '../tasks/eval/summary.ts';

/** A progress bar bound to one stream. */
export interface ProgressBar {
  /** Shows `progress` (the bar starts at the first call). */
  update(progress: EvaluationProgress): void;
  /** Prints a line above the bar. */
  log(line: string): void;
  stop(): void;
}

/**
 * A progress bar on `stream` (stderr, so stdout keeps only the summary). Where the stream is not
 * a terminal (CI, a pipe) there is no bar: one line per finished run instead.
 */
export function progressBar(stream: NodeJS.WriteStream): ProgressBar {
  if (!stream.isTTY) {
    return {
      update(p) {
        if (!p.last) return;
        const r = p.last;
        stream.write(
          `[${p.done}/${p.total}] ${r.run_id}: ${r.end_reason}, score ${r.score}, ${r.duration_s} s; ${p.successes} succeeded, ${compactCount(p.tokens)} tokens so far\n`,
        );
      },
      log: (line) => {
        stream.write(`${line}\n`);
      },
      stop: () => {},
    };
  }
  const multi = new cliProgress.MultiBar(
    {
      stream,
      format: 'eval |{bar}| {value}/{total} runs | {successes} succeeded | {tokens} tokens | {running} running | ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  let bar: cliProgress.SingleBar | undefined;
  return {
    update(p) {
      const payload = { successes: p.successes, tokens: compactCount(p.tokens), running: p.running };
      if (!bar) bar = multi.create(p.total, p.done, payload);
      else bar.update(p.done, payload);
    },
    log: (line) => {
      multi.log(`${line}\n`);
    },
    stop: () => {
      multi.stop();
    },
  };
}
