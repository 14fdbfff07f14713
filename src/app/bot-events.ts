/**
 * Where the run records' taps (`./recording.ts`) meet the bots' event stream: every
 * {@link RunEvent} a tap reports is published on the {@link BotEventBus} as the matching
 * {@link BotEvent}, and still handed to the run's own sink when there is one. So one stream feeds
 * the terminal and `bots/<name>/log.jsonl` (`./logging.ts`), the dashboard and the run records.
 */
import type { BotEventBus, BotEventInput } from '../agent/events.ts';
import type { RunEvent, RunEventSink } from '../tasks/eval/records.ts';

/** The bus event of a tap's run event; none for run phases and graph versions (they belong to the run, not a bot). */
export function botEventOf(event: RunEvent): BotEventInput | undefined {
  switch (event.type) {
    case 'request': {
      const { usage } = event;
      return {
        type: 'model',
        t: event.t + event.ms,
        bot: event.agent,
        model: event.model,
        purpose: event.purpose,
        ms: event.ms,
        ...(event.reply !== undefined ? { reply: event.reply } : {}),
        ...(event.error !== undefined ? { error: event.error } : {}),
        ...(usage
          ? { usage: { input: usage.input, cachedInput: usage.cached, cacheWriteInput: usage.cacheWrite, output: usage.output } }
          : {}),
        request: {
          system: event.system,
          turns: event.turns,
          ...(event.tools ? { tools: event.tools } : {}),
          ...(event.maxTokens !== undefined ? { maxTokens: event.maxTokens } : {}),
        },
      };
    }
    case 'command':
      return {
        type: 'command',
        t: event.t + event.ms,
        bot: event.agent,
        command: event.command,
        kind: event.kind,
        ok: event.ok,
        ...(event.code !== undefined ? { code: event.code } : {}),
        output: event.output,
        ms: event.ms,
      };
    case 'message':
      return {
        type: 'chat',
        t: event.t,
        bot: event.agent,
        direction: event.direction === 'sent' ? 'out' : 'in',
        channel: event.channel,
        peer: event.peer,
        text: event.text,
      };
    case 'phase':
    case 'graph':
      return undefined;
  }
}

/**
 * A sink for the taps that publishes each event on `bus` (see {@link botEventOf}) and then hands
 * it to `forward` (a run's recorder), if given.
 */
export function busSink(bus: BotEventBus, forward?: RunEventSink): RunEventSink {
  return {
    emit(event) {
      const published = botEventOf(event);
      if (published) bus.publish(published);
      forward?.emit(event);
    },
  };
}
