/**
 * The dashboard page: preact components written with htm (tagged templates, no build step),
 * fed by one WebSocket that carries the messages of `./protocol.ts`. The server sends the whole
 * state first and every change after it; the page never polls (a one-second clock only redraws
 * elapsed and remaining times). Everything the page sends is answered with a reply, shown beside
 * the control that sent it; add-bot form errors are shown beside their fields.
 */
import { html, render } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { describeEvent, type BotEvent } from '../../../agent/events.ts';
import { profileSchema } from '../../../settings/schema.ts';
import {
  CLOSE_BAD_TOKEN,
  fieldErrors,
  serverMessageSchema,
  type BotView,
  type CampaignGraph,
  type CampaignView,
  type ClientMessage,
  type PlayerView,
  type Reply,
  type ServerMessage,
} from './protocol.ts';

/** Events shown per bot (the newest). */
const SHOWN_EVENTS = 60;
/** Wait before reconnecting a dropped WebSocket (ms). */
const RECONNECT_MS = 2000;

/** Everything the page knows. */
interface PageState {
  connection: 'connecting' | 'open' | 'closed' | 'token';
  bots: BotView[];
  players: PlayerView[];
  events: Map<string, BotEvent[]>;
  campaign: CampaignView | null;
  viewer: boolean;
  server: { version: string; address: string } | null;
  /** A message from the server that did not match the protocol. */
  protocolError: string | null;
  /** The bots' voices on this page: played or not, lines received and played, the last played. */
  voice: { on: boolean; received: number; played: number; last: { bot: string; text: string; seconds: number } | null };
}

/** A line a bot spoke, as the server sends it to a page that plays the voices. */
type VoiceLine = Extract<ServerMessage, { type: 'voice' }>;

/** Lines waiting to be played at most; a line past it drops the oldest waiting. */
const VOICE_QUEUE = 10;

/** Plays the bots' lines one after another, each as an audio element of its sound. */
class VoicePlayer {
  #queue: VoiceLine[] = [];
  #audio: HTMLAudioElement | undefined;
  readonly #onPlayed: (line: VoiceLine, seconds: number) => void;

  constructor(onPlayed: (line: VoiceLine, seconds: number) => void) {
    this.#onPlayed = onPlayed;
  }

  push(line: VoiceLine): void {
    if (this.#queue.length >= VOICE_QUEUE) this.#queue.shift();
    this.#queue.push(line);
    if (!this.#audio) this.#next();
  }

  /** Ends the line playing and forgets the waiting ones. */
  stop(): void {
    this.#queue = [];
    this.#audio?.pause();
    this.#audio = undefined;
  }

  #next(): void {
    const line = this.#queue.shift();
    this.#audio = undefined;
    if (!line) return;
    const audio = new Audio(`data:${line.mime};base64,${line.data}`);
    this.#audio = audio;
    const after = (played: boolean) => {
      if (this.#audio !== audio) return; // stopped meanwhile
      if (played) this.#onPlayed(line, audio.duration);
      this.#next();
    };
    audio.onended = () => after(true);
    audio.onerror = () => after(false);
    audio.play().catch(() => after(false)); // the browser refused (no gesture yet): the next line may play
  }
}

type Request = ClientMessage extends infer M ? (M extends unknown ? Omit<M, 'id'> : never) : never;

/** The WebSocket and the requests waiting for their reply. */
class Link {
  #socket: WebSocket | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, (reply: Reply) => void>();
  readonly #onState: (change: (s: PageState) => PageState) => void;
  readonly #onVoice: (line: VoiceLine) => void;

  constructor(onState: (change: (s: PageState) => PageState) => void, onVoice: (line: VoiceLine) => void) {
    this.#onState = onState;
    this.#onVoice = onVoice;
  }

  connect(): void {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}/ws`);
    this.#socket = socket;
    this.#onState((s) => ({ ...s, connection: 'connecting' }));
    socket.onmessage = (e) => this.#receive(String(e.data));
    socket.onclose = (e) => {
      for (const [, resolve] of this.#pending)
        resolve({ type: 'reply', id: 0, ok: false, error: 'The connection to the dashboard was lost.' });
      this.#pending.clear();
      if (e.code === CLOSE_BAD_TOKEN) {
        this.#onState((s) => ({ ...s, connection: 'token' }));
        return;
      }
      this.#onState((s) => ({ ...s, connection: 'closed' }));
      setTimeout(() => this.connect(), RECONNECT_MS);
    };
  }

  /** Sends `request` and resolves with the server's reply. */
  send(request: Request): Promise<Reply> {
    const id = this.#nextId++;
    const socket = this.#socket;
    if (!socket || socket.readyState !== WebSocket.OPEN)
      return Promise.resolve({ type: 'reply', id, ok: false, error: 'Not connected to the dashboard.' });
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      socket.send(JSON.stringify({ ...request, id }));
    });
  }

  #receive(text: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      raw = undefined;
    }
    const parsed = serverMessageSchema.safeParse(raw);
    if (!parsed.success) {
      const why = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      this.#onState((s) => ({ ...s, protocolError: `A message from the server did not match the protocol: ${why}` }));
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'hello': {
        const events = new Map<string, BotEvent[]>();
        for (const event of message.events) events.set(event.bot, [...(events.get(event.bot) ?? []), event].slice(-SHOWN_EVENTS));
        this.#onState((s) => ({
          ...s,
          connection: 'open',
          bots: message.bots,
          players: message.players,
          events,
          campaign: message.campaign,
          viewer: message.viewer,
          server: message.server,
        }));
        break;
      }
      case 'bots':
        this.#onState((s) => ({ ...s, bots: message.bots }));
        break;
      case 'players':
        this.#onState((s) => ({ ...s, players: message.players }));
        break;
      case 'campaign':
        this.#onState((s) => ({ ...s, campaign: message.campaign }));
        break;
      case 'event': {
        const { event } = message;
        this.#onState((s) => {
          const events = new Map(s.events);
          events.set(event.bot, [...(events.get(event.bot) ?? []), event].slice(-SHOWN_EVENTS));
          return { ...s, events };
        });
        break;
      }
      case 'voice':
        this.#onVoice(message);
        break;
      case 'reply': {
        const resolve = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        resolve?.(message);
        break;
      }
    }
  }
}

const initial: PageState = {
  connection: 'connecting',
  bots: [],
  players: [],
  events: new Map(),
  campaign: null,
  viewer: false,
  server: null,
  protocolError: null,
  voice: { on: false, received: 0, played: 0, last: null },
};

/** Seconds as `1 m 05 s` / `42 s`. */
function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)} m ${String(s % 60).padStart(2, '0')} s` : `${s} s`;
}

function time(t: number): string {
  return new Date(t).toLocaleTimeString([], { hour12: false });
}

/** The outcome line under a control: the reply's text, or its error in red. */
function Outcome({ reply, seq }: { reply: Reply | null; seq?: number }) {
  if (!reply) return null;
  return reply.ok
    ? html`<div class="outcome ok" data-role="outcome" data-seq=${seq}>${reply.text}</div>`
    : html`<div class="outcome error" data-role="outcome" data-seq=${seq} role="alert">${reply.error}</div>`;
}

/** A one-line form: an optional "as player" field, a text field and a button. */
function LineForm(props: {
  label: string;
  placeholder: string;
  name: string;
  withPlayer?: boolean;
  onSend: (text: string, from: string) => Promise<Reply>;
}) {
  const [text, setText] = useState('');
  const [from, setFrom] = useState(() => localStorage.getItem('dashboard.player') ?? 'Steve');
  const [reply, setReply] = useState<{ reply: Reply; seq: number } | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    localStorage.setItem('dashboard.player', from);
    const r = await props.onSend(text, from);
    setReply((last) => ({ reply: r, seq: (last?.seq ?? 0) + 1 }));
    if (r.ok) setText('');
  };
  return html`<form class="line" data-form=${props.name} onSubmit=${submit}>
    ${props.withPlayer ? html`<input class="player" name="from" aria-label="as player" title="as player" value=${from} onInput=${(e: Event) => setFrom((e.target as HTMLInputElement).value)} />` : null}
    <input
      name="text"
      placeholder=${props.placeholder}
      value=${text}
      onInput=${(e: Event) => setText((e.target as HTMLInputElement).value)}
    />
    <button type="submit">${props.label}</button>
    <${Outcome} reply=${reply?.reply ?? null} seq=${reply?.seq} />
  </form>`;
}

/** `memory.json` rendered: the summary, goal, partner, places, modes and the recent turns. */
function Memory({ data }: { data: unknown }) {
  if (typeof data !== 'object' || data === null) return html`<pre>${JSON.stringify(data, null, 2)}</pre>`;
  const entries = Object.entries(data as Record<string, unknown>);
  return html`<div class="memory" data-role="memory">
    ${entries.map(
      ([key, value]) =>
        html`<div class="memory-entry">
          <h4>${key}</h4>
          ${
            key === 'turns' && Array.isArray(value)
              ? html`<ol class="turns">
                  ${value.map((t: { role?: string; content?: string }) => html`<li class=${`turn ${t.role ?? ''}`}><b>${t.role}</b> ${t.content}</li>`)}
                </ol>`
              : typeof value === 'string'
                ? html`<p class="pre">${value || '—'}</p>`
                : html`<pre>${JSON.stringify(value, null, 2)}</pre>`
          }
        </div>`,
    )}
  </div>`;
}

function BotLog({ events }: { events: BotEvent[] }) {
  return html`<ol class="log" data-role="log">
    ${[...events]
      .reverse()
      .map(
        (e) =>
          html`<li
            class=${`ev ev-${e.type}${(e.type === 'command' && !e.ok) || (e.type === 'connection' && e.state !== 'online') || (e.type === 'model' && e.error) ? ' failed' : ''}`}
            data-type=${e.type}
          >
            <time>${time(e.t)}</time> <span class="text">${describeEvent(e)}</span>
          </li>`,
      )}
  </ol>`;
}

function BotCard({ bot, events, link, now, viewer }: { bot: BotView; events: BotEvent[]; link: Link; now: number; viewer: boolean }) {
  const [reply, setReply] = useState<Reply | null>(null);
  const [memory, setMemory] = useState<unknown>(undefined);
  const [view, setView] = useState<string | null>(null);
  const act = async (request: Request) => setReply(await link.send(request));
  const running = bot.status !== 'stopped';
  const items = Object.entries(bot.inventory).sort(([a], [b]) => a.localeCompare(b));
  const showMemory = async () => {
    if (memory !== undefined) {
      setMemory(undefined);
      return;
    }
    const r = await link.send({ type: 'memory', bot: bot.name });
    if (r.ok) setMemory(r.data ?? null);
    else setReply(r);
  };
  const showView = async () => {
    if (view) {
      setView(null);
      return;
    }
    const r = await link.send({ type: 'viewer', bot: bot.name });
    if (r.ok) setView(`${location.protocol}//${location.hostname}:${(r.data as { port: number }).port}/`);
    else setReply(r);
  };
  return html`<section class=${`bot status-${bot.status}`} data-bot=${bot.name}>
    <header>
      <h2>${bot.name}</h2>
      <span class="badge" data-field="status">${bot.status}</span>
      <span class="model" data-field="model">${bot.model}</span>
    </header>
    <dl class="facts">
      <dt>Health</dt>
      <dd data-field="health">${bot.health ?? '—'}</dd>
      <dt>Food</dt>
      <dd data-field="food">${bot.food ?? '—'}</dd>
      <dt>Position</dt>
      <dd data-field="position">${bot.position ? `${bot.position.x}, ${bot.position.y}, ${bot.position.z}` : '—'}</dd>
      <dt>Action</dt>
      <dd data-field="action">${bot.action ? `${bot.action.label} (${duration(now - bot.action.since)})` : 'idle'}</dd>
      <dt>Goal</dt>
      <dd data-field="goal">${bot.goal.state}${bot.goal.text ? `: ${bot.goal.text}` : ''}</dd>
      <dt>Talking to</dt>
      <dd data-field="partner">${bot.partner ?? '—'}</dd>
      <dt>Modes on</dt>
      <dd class="modes" data-field="modes">
        ${
          Object.entries(bot.modes)
            .filter(([, on]) => on)
            .map(([mode]) => mode)
            .join(', ') || '—'
        }
      </dd>
      <dt>Inventory</dt>
      <dd class="inventory" data-field="inventory">
        ${items.length ? items.map(([name, count]) => html`<span class="item" data-item=${name}>${name} × ${count}</span>`) : html`<span class="muted">empty</span>`}
      </dd>
    </dl>
    ${
      running
        ? html` <${LineForm}
              name="say"
              label="Send"
              placeholder="Message to the bot"
              withPlayer=${true}
              onSend=${(text: string, from: string) => link.send({ type: 'say', bot: bot.name, from, text })}
            />
            <${LineForm}
              name="command"
              label="Run"
              placeholder="!command, e.g. !stats"
              withPlayer=${true}
              onSend=${(text: string, from: string) => link.send({ type: 'command', bot: bot.name, from, text })}
            />
            <${LineForm}
              name="goal"
              label="Start goal"
              placeholder="A goal for the goal loop"
              onSend=${(goal: string) => link.send({ type: 'goal', bot: bot.name, goal })}
            />`
        : null
    }
    <div class="buttons">
      ${
        running
          ? html` <button data-action="stop" onClick=${() => act({ type: 'stop', bot: bot.name })}>Stop action</button>
              <button data-action="endGoal" onClick=${() => act({ type: 'endGoal', bot: bot.name })}>End goal</button>
              <button data-action="stopBot" onClick=${() => act({ type: 'stopBot', bot: bot.name })}>Stop bot</button>`
          : null
      }
      <button data-action="restartBot" onClick=${() => act({ type: 'restartBot', bot: bot.name })}>
        ${running ? 'Restart bot' : 'Start bot'}
      </button>
      <button data-action="memory" onClick=${showMemory}>${memory === undefined ? 'Memory' : 'Hide memory'}</button>
      ${viewer && running ? html`<button data-action="viewer" onClick=${showView}>${view ? 'Hide 3D view' : '3D view'}</button>` : null}
    </div>
    <${Outcome} reply=${reply} />
    ${memory !== undefined ? html`<${Memory} data=${memory} />` : null}
    ${view ? html`<iframe class="viewer" src=${view} title=${`3D view of ${bot.name}`}></iframe>` : null}
    <${BotLog} events=${events} />
  </section>`;
}

/** The add-bot form: the profile's main fields, checked with the profile schema here and on the server. */
function AddBot({ link }: { link: Link }) {
  const [fields, setFields] = useState({
    name: '',
    model: 'oracle',
    persona: '',
    tool_calling: 'text',
    cooldown_ms: '0',
    blocked_actions: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [reply, setReply] = useState<Reply | null>(null);
  const set = (key: keyof typeof fields) => (e: Event) => setFields({ ...fields, [key]: (e.target as HTMLInputElement).value });
  const submit = async (e: Event) => {
    e.preventDefault();
    const cooldown = Number(fields.cooldown_ms);
    const profile = {
      name: fields.name.trim(),
      model: fields.model.trim(),
      persona: fields.persona,
      tool_calling: fields.tool_calling,
      cooldown_ms: fields.cooldown_ms.trim() === '' || Number.isNaN(cooldown) ? fields.cooldown_ms : cooldown,
      blocked_actions: fields.blocked_actions
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    };
    const checked = profileSchema.safeParse(profile);
    if (!checked.success) {
      setErrors(fieldErrors(checked.error.issues));
      setReply({ type: 'reply', id: 0, ok: false, error: 'The profile is not valid: see the fields marked.' });
      return;
    }
    setErrors({});
    setReply({ type: 'reply', id: 0, ok: true, text: `Starting ${profile.name}…` });
    const r = await link.send({ type: 'addBot', profile });
    setReply(r);
    if (!r.ok && r.fields) setErrors(r.fields);
  };
  const field = (key: keyof typeof fields, label: string, input: unknown) =>
    html`<label class="field" data-field=${key}>
      <span>${label}</span>${input}<span class="field-error" role=${errors[key] ? 'alert' : undefined}>${errors[key] ?? ''}</span></label
    >`;
  return html`<form class="add-bot" data-form="addBot" onSubmit=${submit}>
    <h2>Add a bot</h2>
    ${field('name', 'Name', html`<input name="name" value=${fields.name} onInput=${set('name')} />`)}
    ${field('model', 'Model', html`<input name="model" value=${fields.model} onInput=${set('model')} placeholder="oracle or provider/model" />`)}
    ${field('persona', 'Persona', html`<input name="persona" value=${fields.persona} onInput=${set('persona')} />`)}
    ${field(
      'tool_calling',
      'Commands by',
      html`<select name="tool_calling" value=${fields.tool_calling} onChange=${set('tool_calling')}>
        <option value="text">text</option>
        <option value="native">native tools</option>
      </select>`,
    )}
    ${field('cooldown_ms', 'Cooldown (ms)', html`<input name="cooldown_ms" value=${fields.cooldown_ms} onInput=${set('cooldown_ms')} />`)}
    ${field('blocked_actions', 'Blocked commands', html`<input name="blocked_actions" value=${fields.blocked_actions} onInput=${set('blocked_actions')} placeholder="!attackPlayer, !discard" />`)}
    <button type="submit">Add bot</button>
    <${Outcome} reply=${reply} />
  </form>`;
}

function Campaign({ campaign, now }: { campaign: CampaignView; now: number }) {
  const share = campaign.total ? Math.round((campaign.done / campaign.total) * 100) : 0;
  return html`<section class="campaign" data-role="campaign">
    <h2>${campaign.title}</h2>
    <div class="progress"><div class="bar" style=${`width: ${share}%`}></div></div>
    <p data-field="counts">
      ${campaign.done} done · ${campaign.running} running · ${campaign.left} left · ${campaign.successes} succeeded ·
      ${duration(now - campaign.startedAt)} so far
    </p>
    <table>
      <thead>
        <tr>
          <th>Task file</th>
          <th>Done</th>
          <th>Success so far</th>
        </tr>
      </thead>
      <tbody>
        ${campaign.files.map(
          (f) =>
            html`<tr>
              <td>${f.file}</td>
              <td>${f.done} / ${f.total}</td>
              <td>${f.done ? `${Math.round((f.successes / f.done) * 100)} % (${f.successes})` : '—'}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${
      campaign.active.length
        ? html`<h3>Running</h3>
            <table>
              <thead>
                <tr>
                  <th>Task</th>
                  <th>Strategy</th>
                  <th>Agents</th>
                  <th>Score</th>
                  <th>Time left</th>
                </tr>
              </thead>
              <tbody>
                ${campaign.active.map(
                  (a) =>
                    html`<tr data-run=${a.runId}>
                      <td>${a.taskId}</td>
                      <td data-field="coordination">${a.coordination ?? 'chat'}</td>
                      <td>${a.agents.join(', ')}</td>
                      <td>${a.score === null ? '—' : a.score.toFixed(2)}</td>
                      <td>${duration(a.deadline - now)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            ${campaign.active.filter((a) => a.graph).map((a) => html`<${LiveGraph} runId=${a.runId} taskId=${a.taskId} graph=${a.graph!} />`)}`
        : null
    }
    ${
      campaign.finished.length
        ? html`<h3>Finished</h3>
            <table>
              <thead>
                <tr>
                  <th>Task</th>
                  <th>Strategy</th>
                  <th>Result</th>
                  <th>Score</th>
                  <th>Records</th>
                </tr>
              </thead>
              <tbody>
                ${campaign.finished.map(
                  (f) =>
                    html`<tr data-run=${f.runId}>
                      <td>${f.taskId}</td>
                      <td>${f.coordination ?? 'chat'}</td>
                      <td class=${f.success ? 'ok' : 'error'}>${f.success ? 'success' : f.endReason}</td>
                      <td>${f.score.toFixed(2)}</td>
                      <td>${f.link ? html`<a href=${f.link} target="_blank">records</a>` : '—'}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
        : null
    }
  </section>`;
}

/**
 * A running graph strategy's graph as a tree: each node under the first of its predecessors (its
 * other predecessors named), with its status and agents; the last change above.
 */
function LiveGraph({ runId, taskId, graph }: { runId: string; taskId: string; graph: CampaignGraph }) {
  const children = new Map<string, CampaignGraph['nodes']>();
  const roots: CampaignGraph['nodes'] = [];
  const ids = new Set(graph.nodes.map((n) => n.id));
  for (const n of graph.nodes) {
    const parent = n.predecessors.find((p) => ids.has(p));
    if (parent === undefined) roots.push(n);
    else children.set(parent, [...(children.get(parent) ?? []), n]);
  }
  const item = (n: CampaignGraph['nodes'][number]): unknown => {
    const others = n.predecessors.slice(1);
    return html`<li data-node=${n.id} class=${`node ${n.status}`}>
      <b>${n.id}</b> [${n.status}]
      ${n.description}${n.assigned.length ? ` — ${n.assigned.join(', ')}` : ''}${others.length ? ` (also after ${others.join(', ')})` : ''}
      ${
        children.get(n.id)?.length
          ? html`<ul>
              ${children.get(n.id)!.map(item)}
            </ul>`
          : null
      }
    </li>`;
  };
  const edges = Object.entries(graph.edges)
    .map(([origin, n]) => `${n} ${origin}`)
    .join(', ');
  return html`<div class="live-graph" data-graph=${runId}>
    <h4>${taskId}: graph v${graph.version}${edges ? ` · edges ${edges}` : ''}</h4>
    <p class="change">${graph.change}</p>
    ${graph.commands ? html`<p class="commands">commands: ${graph.commands.join(', ') || 'nobody (one agent)'}</p>` : null}
    <ul>
      ${roots.map(item)}
    </ul>
  </div>`;
}

function TokenForm({ onToken }: { onToken: (token: string) => void }) {
  const [token, setToken] = useState('');
  return html`<form
    class="token"
    data-form="token"
    onSubmit=${(e: Event) => {
      e.preventDefault();
      onToken(token);
    }}
  >
    <h2>This dashboard needs its token</h2>
    <p>
      Open the address <code>npm start</code> printed (it carries the token), or enter the <code>dashboard_token</code> of settings.json.
    </p>
    <input type="password" name="token" value=${token} onInput=${(e: Event) => setToken((e.target as HTMLInputElement).value)} />
    <button type="submit">Open</button>
  </form>`;
}

/** The header's switch of the bots' voices on this page, and the line played last. */
function VoiceSwitch({ voice, onSwitch }: { voice: PageState['voice']; onSwitch: (on: boolean) => Promise<Reply> }) {
  const [reply, setReply] = useState<Reply | null>(null);
  const toggle = async () => {
    const r = await onSwitch(!voice.on);
    setReply(r.ok ? null : r);
  };
  const { last } = voice;
  return html`<span class="voice">
    <button type="button" data-action="voice" aria-pressed=${voice.on} onClick=${toggle}>${voice.on ? 'Voices on' : 'Voices off'}</button>
    <span class="muted" data-role="voice" data-received=${voice.received} data-played=${voice.played} data-seconds=${last?.seconds}>
      ${last ? `${last.bot}: ${last.text}` : ''}
    </span>
    <${Outcome} reply=${reply} />
  </span>`;
}

function App() {
  const [state, setState] = useState<PageState>(initial);
  const [player] = useState(
    () =>
      new VoicePlayer((line, seconds) =>
        setState((s) => ({ ...s, voice: { ...s.voice, played: s.voice.played + 1, last: { bot: line.bot, text: line.text, seconds } } })),
      ),
  );
  const [link] = useState(
    () =>
      new Link(
        (change) => setState(change),
        (line) => {
          setState((s) => ({ ...s, voice: { ...s.voice, received: s.voice.received + 1 } }));
          player.push(line);
        },
      ),
  );
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    link.connect();
    const clock = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(clock);
  }, [link]);
  const switchVoice = async (on: boolean) => {
    if (!on) player.stop();
    const r = await link.send({ type: 'voice', on });
    if (r.ok) setState((s) => ({ ...s, voice: { ...s.voice, on } }));
    return r;
  };
  // The server forgets a page's voice with its socket: ask again on every (re)connection.
  useEffect(() => {
    if (state.connection === 'open' && state.voice.on) void link.send({ type: 'voice', on: true });
  }, [state.connection]);
  // The server checks the token and keeps it as a cookie this page's scripts cannot read.
  const onToken = (token: string) => location.assign(`/?token=${encodeURIComponent(token)}`);
  return html`<main>
    <header class="top">
      <h1>mindcraft-ts</h1>
      <span class=${`conn conn-${state.connection}`} data-role="connection">${state.connection}</span>
      ${state.server ? html`<span class="muted">Minecraft ${state.server.version} on ${state.server.address}</span>` : null}
      ${state.server ? html`<${VoiceSwitch} voice=${state.voice} onSwitch=${switchVoice} />` : null}
    </header>
    ${state.protocolError ? html`<div class="outcome error" role="alert">${state.protocolError}</div>` : null}
    ${state.connection === 'token' ? html`<${TokenForm} onToken=${onToken} />` : null}
    ${state.campaign ? html`<${Campaign} campaign=${state.campaign} now=${now} />` : null}
    ${
      state.server || state.players.length
        ? html`<section class="players" data-role="players">
            <h2>Players</h2>
            ${
              state.players.length
                ? html`<ul>
                    ${state.players.map((p) => html`<li data-player=${p.name}>${p.name}${p.bot ? ' (bot)' : ''}${p.position ? html` <span class="muted">${p.position.x}, ${p.position.y}, ${p.position.z}</span>` : null}</li>`)}
                  </ul>`
                : html`<p class="muted">nobody</p>`
            }
          </section>`
        : null
    }
    <div class="bots">
      ${state.bots.map((bot) => html`<${BotCard} key=${bot.name} bot=${bot} events=${state.events.get(bot.name) ?? []} link=${link} now=${now} viewer=${state.viewer} />`)}
    </div>
    ${state.server ? html`<${AddBot} link=${link} />` : null}
  </main>`;
}

const root = document.getElementById('app')!;
root.textContent = '';
render(html`<${App} />`, root);
