/**
 * Taps that report what a bot does to a {@link RunEventSink} without changing it: its model calls
 * (prompts, replies, token usage), its commands, and the messages it sends to other bots and
 * players (what it receives is recorded by its inbox). The fleet installs them (`./fleet.ts`).
 */
import { CommandRegistry, type ArgsOf, type CommandDef, type ParamSpec } from '../commands/registry.ts';
import type { CommandContext } from '../commands/context.ts';
import type { ChatOutbox, Transport } from '../conversation/index.ts';
import { isAbortError, type ChatModel, type ChatRequest, type TokenUsage } from '../models/index.ts';
import type { RequestEvent, RunEventSink } from '../tasks/eval/records.ts';
import { type OutcomeCode, outcomeOfError } from '../skills/outcome.ts';

/**
 * The same model, reporting every `complete`/`respond` call as a request event. Everything else
 * (the oracle's own members, optional capabilities) is the model's own, so the agent cannot tell
 * the difference.
 *
 * The call's purpose is the request's `purpose`, else `conversing` for a request without a token
 * cap (the model loop) and `other` for a capped one.
 */
export function recordingModel(model: ChatModel, agent: string, sink: RunEventSink): ChatModel {
  async function record<T>(req: ChatRequest, call: (req: ChatRequest) => Promise<T>, text: (result: T) => string): Promise<T> {
    const t = Date.now();
    let usage: TokenUsage | undefined;
    let reasoning: string | undefined;
    const event = (fields: Partial<RequestEvent>): RequestEvent => ({
      type: 'request',
      t,
      agent,
      model: model.id,
      purpose: req.purpose ?? (req.maxTokens === undefined ? 'conversing' : 'other'),
      system: req.system,
      ...(req.live ? { live: req.live } : {}),
      turns: req.turns.map((turn) => ({ role: turn.role, content: turn.content })),
      ...(req.tools?.length ? { tools: req.tools.map((tool) => tool.name) } : {}),
      ...(req.maxTokens !== undefined ? { maxTokens: req.maxTokens } : {}),
      ...(usage
        ? { usage: { input: usage.input, cached: usage.cachedInput, cacheWrite: usage.cacheWriteInput, output: usage.output } }
        : {}),
      ...(reasoning ? { reasoning } : {}),
      ms: Date.now() - t,
      ...fields,
    });
    try {
      const result = await call({
        ...req,
        onUsage: (u) => {
          usage = u;
          req.onUsage?.(u);
        },
        onReasoning: (r) => {
          reasoning = r;
          req.onReasoning?.(r);
        },
      });
      sink.emit(event({ reply: text(result) }));
      return result;
    } catch (err) {
      sink.emit(event({ error: isAbortError(err) ? 'aborted' : (err as Error).message }));
      throw err;
    }
  }
  return new Proxy(model, {
    get(target, prop) {
      if (prop === 'complete')
        return (req: ChatRequest) =>
          record(
            req,
            (r) => target.complete(r),
            (reply) => reply,
          );
      if (prop === 'respond' && target.respond) {
        return (req: ChatRequest) =>
          record(
            req,
            (r) => target.respond!(r),
            (result) => result.text,
          );
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** `!givePlayer("Jill", "paper", 1)`: a command call as the model writes it. */
export function commandText(def: CommandDef<unknown>, args: Record<string, unknown>): string {
  const names = Object.keys(def.params);
  return names.length ? `${def.name}(${names.map((n) => JSON.stringify(args[n])).join(', ')})` : def.name;
}

/**
 * The same commands, each reporting a command event when it settles: its outcome's `ok`, `code`
 * and text; when it threw, `ok` false, the code of what it threw (`interrupted` or `timeout` when
 * it was stopped, a `SkillError`'s own, else `failed`) and the error's message (`interrupted` for
 * a stop).
 */
export function recordingCommands(
  registry: CommandRegistry<CommandContext>,
  agent: string,
  sink: RunEventSink,
): CommandRegistry<CommandContext> {
  return new CommandRegistry<CommandContext>(
    registry.list().map((def) => ({
      ...def,
      async perform(ctx: CommandContext, args: ArgsOf<Record<string, ParamSpec>>) {
        const t = Date.now();
        const command = commandText(def, args);
        const emit = (ok: boolean, code: OutcomeCode, output: string) =>
          sink.emit({ type: 'command', t, agent, command, kind: def.kind, ok, code, output, ms: Date.now() - t });
        try {
          const outcome = await def.perform(ctx, args);
          emit(outcome.ok, outcome.code, outcome.text);
          return outcome;
        } catch (err) {
          if (isAbortError(err)) {
            const timedOut = ctx.signal.reason instanceof DOMException && ctx.signal.reason.name === 'TimeoutError';
            emit(false, timedOut ? 'timeout' : 'interrupted', 'interrupted');
          } else emit(false, outcomeOfError(err).code, (err as Error).message);
          throw err;
        }
      },
    })),
  );
}

/** The same transport, reporting each bot message `agent` sends. */
export function recordingTransport(inner: Transport, agent: string, sink: RunEventSink): Transport {
  return {
    get kind() {
      return inner.kind;
    },
    peers: () => inner.peers(),
    isPeer: (name) => inner.isPeer(name),
    send(message) {
      inner.send(message);
      sink.emit({ type: 'message', t: Date.now(), agent, direction: 'sent', peer: message.to, channel: 'bot', text: message.text });
    },
    // What the agent receives is recorded once, by its inbox (AgentOptions.onMessage).
    listen: (handler) => inner.listen(handler),
    onPeersChanged: (handler) => inner.onPeersChanged(handler),
    close: () => inner.close(),
  };
}

/**
 * The same outbox for the agent, reporting what it says to players: public lines (`chat`) and
 * whispers. Raw packets (set-up commands, bot envelopes) are not messages and are not reported.
 */
export function recordingOutbox(outbox: ChatOutbox, agent: string, sink: RunEventSink): ChatOutbox {
  return new Proxy(outbox, {
    get(target, prop) {
      if (prop === 'chat') {
        return (text: string, ...rest: unknown[]) => {
          sink.emit({ type: 'message', t: Date.now(), agent, direction: 'sent', peer: '*', channel: 'public', text });
          return (target.chat as (...a: unknown[]) => void)(text, ...rest);
        };
      }
      if (prop === 'whisper') {
        return (to: string, text: string, ...rest: unknown[]) => {
          sink.emit({ type: 'message', t: Date.now(), agent, direction: 'sent', peer: to, channel: 'whisper', text });
          return (target.whisper as (...a: unknown[]) => void)(to, text, ...rest);
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
