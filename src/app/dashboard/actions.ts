/**
 * What a person can do from the dashboard page, as typed actions over the running bots: message
 * a bot as a named player, run a command as one, stop its action, start and end its goal, stop,
 * restart and add bots, read a memory file, open the 3D view. Every message goes to the agent's
 * one way in (`Agent.receive`); bad input is a {@link PageError} the page shows as it is.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Agent } from '../../agent/agent.ts';
import { profileSchema, type Profile } from '../../settings/index.ts';
import { fieldErrors, type BotRequest } from './public/protocol.ts';
import type { DashboardBots } from './views.ts';
import { openViewer, ViewerUnavailableError, type BotViewer } from './viewer.ts';

/** An error the page shows as it is (with form errors by field). */
export class PageError extends Error {
  readonly fields: Record<string, string> | undefined;

  constructor(message: string, fields?: Record<string, string>) {
    super(message);
    this.fields = fields;
  }
}

/** What the actions work on. */
export interface DashboardActionsOptions {
  /** The bots to control; without them (an evaluation) only the campaign is shown. */
  bots?: DashboardBots;
  /** Folder of the bots' memory files, for stopped bots. */
  botsDir: string;
  /** The 3D view is offered. */
  viewer: boolean;
  /** The dashboard's address and token (the 3D view serves beside it, behind the same token). */
  host: string;
  token: string;
  /** The name of the dashboard's token cookie (known once it listens), which the 3D view accepts too. */
  cookie: () => string;
  /** `dashboard_allowed_hosts`: the 3D view takes requests under the same names. */
  allowedHosts: readonly string[];
}

/** The page's actions and the state they keep (stopped bots, open 3D views). */
export class DashboardActions {
  readonly #options: DashboardActionsOptions;
  readonly #stopped = new Set<string>();
  readonly #viewers = new Map<string, Promise<BotViewer>>();

  constructor(options: DashboardActionsOptions) {
    this.#options = options;
  }

  /** A bot's connection changed: a bot stopped on purpose is told apart from one that never existed. */
  connection(bot: string, state: string, detail: string | undefined): void {
    if (state === 'closed' && detail === 'stopped') this.#stopped.add(bot);
    if (state === 'online') this.#stopped.delete(bot);
  }

  /**
   * Carries out one action of the page.
   *
   * @returns the text the page shows, and data for it (a memory file, the 3D view's port).
   * @throws PageError with what was wrong (an unknown or stopped bot, an invalid profile...).
   */
  async handle(message: BotRequest): Promise<{ text: string; data?: unknown }> {
    const bots = this.#options.bots;
    if (message.type === 'addBot') {
      if (!bots) throw new PageError('This dashboard has no bots to add to (an evaluation runs its own).');
      const parsed = profileSchema.safeParse(message.profile);
      if (!parsed.success) throw new PageError('The profile is not valid: see the fields marked.', fieldErrors(parsed.error.issues));
      const foreign = presetOnlyProblems(parsed.data);
      if (foreign)
        throw new PageError("A bot added from the page uses its provider's own address and key: see the fields marked.", foreign);
      if (bots.agents.some((a) => a.name === parsed.data.name))
        throw new PageError(`A bot named "${parsed.data.name}" is running already.`, { name: 'a bot of this name is running already' });
      const agent = await bots.addBot(parsed.data);
      this.#stopped.delete(agent.name);
      return { text: `${agent.name} joined as ${agent.model.id}.` };
    }
    if (!bots) throw new PageError('This dashboard shows an evaluation; it has no bots to control.');
    if (message.type === 'restartBot') {
      if (!bots.profiles().some((p) => p.name === message.bot)) throw new PageError(this.#noBot(message.bot));
      const agent = await bots.restartBot(message.bot);
      this.#stopped.delete(agent.name);
      return { text: `${agent.name} restarted.` };
    }
    if (message.type === 'memory' && !this.#agent(message.bot)) {
      if (!bots.profiles().some((p) => p.name === message.bot)) throw new PageError(this.#noBot(message.bot));
      return { text: 'memory.json', data: await memoryFile(path.join(this.#options.botsDir, message.bot, 'memory.json')) };
    }
    const agent = this.#agent(message.bot);
    if (!agent) throw new PageError(this.#noBot(message.bot));
    switch (message.type) {
      case 'say': {
        const received = agent.receive({ from: message.from, text: message.text, channel: 'whisper', via: 'dashboard' });
        if (received.kind === 'dropped') throw new PageError(`${agent.name} dropped your message: ${received.reason}.`);
        return { text: `${agent.name} got your message as ${message.from}'s whisper.` };
      }
      case 'command': {
        if (!message.text.trim().startsWith('!')) throw new PageError(`"${message.text}" is not a command. !help lists them.`);
        const received = agent.receive({ from: message.from, text: message.text, channel: 'whisper', via: 'dashboard' });
        if (received.kind === 'error') throw new PageError(received.error);
        if (received.kind === 'dropped') throw new PageError(`${agent.name} dropped it: ${received.reason}.`);
        if (received.kind === 'chat') throw new PageError(`"${message.text}" is not a command ${agent.name} knows. !help lists them.`);
        return { text: `${agent.name} runs ${received.command}; its output follows in the log.` };
      }
      case 'stop':
        await agent.stop('stopped from the dashboard');
        return { text: `${agent.name} stopped its action and goal.` };
      case 'goal':
        return { text: agent.setGoal(message.goal) };
      case 'endGoal':
        return { text: agent.endGoal() };
      case 'stopBot':
        await bots.stopBot(agent.name);
        this.#stopped.add(agent.name);
        this.#viewers.get(agent.name)?.then(
          (v) => v.close(),
          () => {},
        );
        this.#viewers.delete(agent.name);
        return { text: `${agent.name} left the server. Restart brings it back.` };
      case 'memory':
        return {
          text: 'memory.json',
          data: agent.memoryStore.file ? await memoryFile(agent.memoryStore.file) : { memory: agent.memory, turns: agent.history },
        };
      case 'viewer': {
        if (!this.#options.viewer) throw new PageError('The 3D view is off: set "dashboard_viewer": true in settings.json.');
        let viewer = this.#viewers.get(agent.name);
        if (!viewer) {
          viewer = openViewer(agent.bot, {
            host: this.#options.host,
            token: this.#options.token,
            cookie: this.#options.cookie(),
            allowedHosts: this.#options.allowedHosts,
          });
          this.#viewers.set(agent.name, viewer);
          viewer.catch(() => this.#viewers.delete(agent.name));
        }
        const { port } = await viewer.catch((err: unknown) => {
          throw new PageError(
            err instanceof ViewerUnavailableError ? err.message : `The 3D view could not start: ${(err as Error).message}`,
          );
        });
        return { text: `3D view of ${agent.name}`, data: { port } };
      }
    }
  }

  /** Closes every open 3D view. */
  close(): void {
    for (const viewer of this.#viewers.values())
      viewer.then(
        (v) => v.close(),
        () => {},
      );
  }

  #agent(name: string): Agent | undefined {
    return this.#options.bots?.agents.find((a) => a.name === name);
  }

  #noBot(name: string): string {
    const known = this.#options.bots ? this.#options.bots.profiles().map((p) => p.name) : [];
    return this.#stopped.has(name)
      ? `${name} is stopped: restart it first.`
      : `There is no bot named "${name}"${known.length ? ` (bots: ${known.join(', ')})` : ''}.`;
  }
}

/** The profile keys that name a model (each may be an object spec with `url` and `apiKeyEnv`). */
const MODEL_KEYS = ['model', 'code_model', 'vision_model', 'embedding'] as const;

/**
 * Form errors for the model fields of a profile from the page that set `url` or `apiKeyEnv`, or
 * undefined when none does. A bot added from the page takes its provider's preset address and
 * key variable: otherwise any page that could reach the dashboard could send a provider's key
 * (or any variable) to a server of its choosing as the bearer token.
 */
export function presetOnlyProblems(profile: Profile): Record<string, string> | undefined {
  const problems: Record<string, string> = {};
  for (const key of MODEL_KEYS) {
    const spec = profile[key];
    if (!spec || typeof spec !== 'object') continue;
    const set = (['url', 'apiKeyEnv'] as const).filter((k) => k in spec && spec[k as keyof typeof spec] !== undefined);
    if (set.length)
      problems[key] =
        `${set.join(' and ')} cannot be set from the page: write "provider/model" (its preset's address and key), or put the model in a profile file`;
  }
  return Object.keys(problems).length ? problems : undefined;
}

async function memoryFile(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (err) {
    throw new PageError(
      (err as NodeJS.ErrnoException).code === 'ENOENT'
        ? `No memory file yet (${file}): it is written once the bot has something to remember.`
        : `${file}: ${(err as Error).message}`,
    );
  }
}
