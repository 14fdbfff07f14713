/**
 * The evaluation's progress as the dashboard shows it: the evaluation tells a {@link CampaignBoard}
 * what it planned, which runs started (with their agents and timeout), each running task's score
 * as it changes, and each finished run; the dashboard subscribes and sends the page a
 * {@link CampaignView} whenever it changes.
 */
import path from 'node:path';
import type { GraphEvent } from '../../tasks/eval/records.ts';
import type { CampaignGraph, CampaignView } from './public/protocol.ts';

/** One planned run, as the board needs it. */
export interface BoardRun {
  /** `<file key>/<task id>/<episode>` (see `src/tasks/eval/campaign.ts`). */
  runId: string;
  taskId: string;
  /** The task file (as given). */
  file: string;
  /** How the run's team works together. */
  coordination?: string;
}

/** How a run ended. */
export interface BoardResult {
  success: boolean;
  /** 0–1. */
  score: number;
  /** `success`, `timeout`, `error`, ... (see `END_REASONS` in `src/tasks/eval/records.ts`). */
  endReason: string;
  /** The run's records folder; linked from the page when it lies under the board's `recordsRoot`. */
  folder?: string;
}

/**
 * Campaign progress for the dashboard (see the module comment). Unknown run ids are ignored, so
 * a late report cannot break the evaluation.
 *
 * @example
 * const board = new CampaignBoard('crafting, 2 agents', { recordsRoot: out });
 * board.plan(runs.map((r) => ({ runId: r.runId, taskId: r.task.id, file: r.task.file })));
 * board.started(run.runId, { agents: ['Andy', 'Jill'], timeoutS: 300 });
 * board.score(run.runId, 0.4);
 * board.finished(run.runId, { success: true, score: 1, endReason: 'success', folder: runFolder });
 */
export class CampaignBoard {
  readonly title: string;
  readonly #recordsRoot: string | undefined;
  readonly #startedAt = Date.now();
  readonly #planned = new Map<string, BoardRun>();
  readonly #active = new Map<string, CampaignView['active'][number]>();
  readonly #finished: CampaignView['finished'] = [];
  readonly #listeners = new Set<(view: CampaignView) => void>();

  /**
   * @param title shown above the progress, e.g. the task files' names.
   * @param options `recordsRoot`: the folder the dashboard serves at `/runs/` (the evaluation's
   *   `runs/` folder); finished runs whose folder lies under it get a link.
   */
  constructor(title: string, options: { recordsRoot?: string } = {}) {
    this.title = title;
    this.#recordsRoot = options.recordsRoot && path.resolve(options.recordsRoot);
  }

  /** The folder served at `/runs/`, if any. */
  get recordsRoot(): string | undefined {
    return this.#recordsRoot;
  }

  /** Adds runs to make (runs already planned keep their state). */
  plan(runs: readonly BoardRun[]): void {
    for (const run of runs) if (!this.#planned.has(run.runId)) this.#planned.set(run.runId, { ...run });
    this.#changed();
  }

  /** A run began: its agents and its timeout (s). */
  started(runId: string, info: { agents: readonly string[]; timeoutS: number }): void {
    const run = this.#planned.get(runId);
    if (!run) return;
    const now = Date.now();
    this.#active.set(runId, {
      runId,
      taskId: run.taskId,
      file: run.file,
      ...(run.coordination ? { coordination: run.coordination } : {}),
      agents: [...info.agents],
      score: null,
      startedAt: now,
      deadline: now + info.timeoutS * 1000,
    });
    this.#changed();
  }

  /** The running task's validator scored `score` (0–1); sent on when it changed. */
  score(runId: string, score: number): void {
    const active = this.#active.get(runId);
    if (!active || active.score === score) return;
    active.score = score;
    this.#changed();
  }

  /** A running graph strategy's graph changed (a `graph.jsonl` line): the page shows the new version. */
  graph(runId: string, event: GraphEvent): void {
    const active = this.#active.get(runId);
    if (!active) return;
    const edges: Record<string, number> = {};
    for (const e of event.edges) edges[e.origin] = (edges[e.origin] ?? 0) + 1;
    const graph: CampaignGraph = {
      version: event.version,
      change: event.change,
      nodes: event.nodes.map((n) => ({
        id: n.id,
        description: n.description,
        status: n.status,
        assigned: [...n.assigned],
        predecessors: [...n.predecessors],
      })),
      edges,
    };
    active.graph = graph;
    this.#changed();
  }

  /** A run ended. */
  finished(runId: string, result: BoardResult): void {
    const run = this.#planned.get(runId);
    if (!run) return;
    this.#active.delete(runId);
    this.#finished.unshift({
      runId,
      taskId: run.taskId,
      file: run.file,
      ...(run.coordination ? { coordination: run.coordination } : {}),
      success: result.success,
      score: result.score,
      endReason: result.endReason,
      link: this.#link(result.folder),
    });
    this.#changed();
  }

  /** The progress now. */
  view(): CampaignView {
    const done = this.#finished.length;
    const files = new Map<string, CampaignView['files'][number]>();
    for (const run of this.#planned.values()) {
      const entry = files.get(run.file) ?? { file: run.file, done: 0, successes: 0, total: 0 };
      entry.total++;
      files.set(run.file, entry);
    }
    for (const run of this.#finished) {
      const entry = files.get(run.file);
      if (!entry) continue;
      entry.done++;
      if (run.success) entry.successes++;
    }
    return {
      title: this.title,
      startedAt: this.#startedAt,
      total: this.#planned.size,
      done,
      running: this.#active.size,
      left: Math.max(0, this.#planned.size - done - this.#active.size),
      successes: this.#finished.filter((r) => r.success).length,
      files: [...files.values()],
      active: [...this.#active.values()].map((a) => ({
        ...a,
        agents: [...a.agents],
        ...(a.graph ? { graph: structuredClone(a.graph) } : {}),
      })),
      finished: this.#finished.map((f) => ({ ...f })),
    };
  }

  /** Calls `listener` with the view after every change. @returns the unsubscribe function. */
  subscribe(listener: (view: CampaignView) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #link(folder: string | undefined): string | null {
    if (!folder || !this.#recordsRoot) return null;
    const rel = path.relative(this.#recordsRoot, path.resolve(folder));
    if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
    return `/runs/${rel.split(path.sep).map(encodeURIComponent).join('/')}/`;
  }

  #changed(): void {
    const view = this.view();
    for (const listener of [...this.#listeners]) {
      try {
        listener(view);
      } catch {
        // the page's troubles never stop the evaluation
      }
    }
  }
}
