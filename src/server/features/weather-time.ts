/**
 * Weather and time as vanilla 1.21 (Minecraft wiki "Weather", "Commands/weather", "Commands/time",
 * "Game rule"):
 * - `/weather clear|rain|thunder [duration]`: the right game events (`start_raining` for rain and
 *   thunder, `stop_raining` for clear, then the rain and thunder levels), vanilla feedback; a new
 *   player is told the current weather;
 * - the weather cycle: while the game rule `doWeatherCycle` is true, rain and thunder start and
 *   stop after random spells (vanilla `ServerLevel.advanceWeatherCycle`: rain 12 000–24 000 ticks,
 *   clear 12 000–180 000, thunder 3 600–15 600, no thunder 12 000–180 000);
 * - `/time set|add <time>` (`day` 1000, `noon` 6000, `night` 13000, `midnight` 18000; suffixes
 *   `d`, `s`, `t`) and `/time query daytime|gametime|day`; the game rule `doDaylightCycle` stops
 *   and restarts the clock;
 * - the clock's step holds what was set meanwhile: flying-squid's day cycle computes the next time
 *   when its asynchronous `changeTime` behaviour starts and sets it when it ends, so a time set in
 *   between (the night skipped by sleeping, on the same tick) was undone; the step now applies
 *   to the time as it is when it lands;
 * - time packets as vanilla sends them (`MinecraftServer.tickChildren`: every 20 ticks, whether
 *   or not the clock runs; on `/time`, on joining, and when `doDaylightCycle` changes): the game
 *   time (`age`, ticks since the server started) and the time of day, with `tickDayTime` since
 *   1.21.2, and before it a negative time for a stopped clock (`ClientboundSetTimePacket`).
 *   flying-squid sent none while the clock stood, an age of 0 and no `tickDayTime`.
 */
import type { CommandContext, SquidPlayer, SquidServer } from '../types.ts';
import { commandAction, CommandError, usageError } from '../services/command-arguments.ts';
import { gameRule, onGameRuleChange } from '../services/game-rules.ts';
import { sendFeedback, translatable } from '../services/text.ts';
import { packetFields } from '../services/protocol.ts';

/** Spell lengths in ticks, [min, max) (vanilla `ServerLevel` constants). */
const RAIN_DURATION = [12_000, 24_000] as const;
const RAIN_DELAY = [12_000, 180_000] as const;
const THUNDER_DURATION = [3_600, 15_600] as const;
const THUNDER_DELAY = [12_000, 180_000] as const;
/** Ticks between two time packets to every player (vanilla `MinecraftServer.tickChildren`). */
const TIME_SYNC_TICKS = 20;
/** Ticks per in-game day. */
const DAY_TICKS = 24_000;
const NAMED_TIMES: Record<string, number> = { day: 1000, noon: 6000, night: 13000, midnight: 18000 };

/** The weather of the overworld. */
interface Weather {
  raining: boolean;
  thundering: boolean;
  /** Ticks until rain starts or stops (the cycle). */
  rainTime: number;
  thunderTime: number;
  /** Ticks of forced clear weather left (`/weather clear <duration>`). */
  clearTime: number;
}

function between([min, max]: readonly [number, number]): number {
  return min + Math.floor(Math.random() * (max - min));
}

/** Sends the weather to players (vanilla `PlayerList.sendLevelInfo` and the weather change events). */
function sendWeather(players: SquidPlayer[], weather: Weather): void {
  for (const player of players) {
    if (player.disconnected) continue;
    player._client.write('game_state_change', { reason: weather.raining ? 'start_raining' : 'stop_raining', gameMode: 0 });
    player._client.write('game_state_change', { reason: 'rain_level_change', gameMode: weather.raining ? 1 : 0 });
    player._client.write('game_state_change', { reason: 'thunder_level_change', gameMode: weather.thundering ? 1 : 0 });
  }
}

/**
 * A duration argument in ticks (vanilla `TimeArgument`): a number with an optional unit `d`
 * (24 000 ticks), `s` (20) or `t`.
 *
 * @throws CommandError `argument.time.invalid_unit` / `argument.time.tick_count_too_low`.
 */
function parseTime(token: string, min = 0): number {
  const match = /^(\d+(?:\.\d+)?)([dst]?)$/.exec(token);
  if (!match) throw new CommandError(translatable(/^\d/.test(token) ? 'argument.time.invalid_unit' : 'parsing.float.expected'));
  const factor = match[2] === 'd' ? DAY_TICKS : match[2] === 's' ? 20 : 1;
  const ticks = Math.round(Number(match[1]) * factor);
  if (ticks < min) throw new CommandError(translatable('argument.time.tick_count_too_low', [min, ticks]));
  return ticks;
}

/** Each server's weather, and the time of day of its last checkpoint (see {@link resetWeatherTime}). */
const weathers = new WeakMap<SquidServer, { weather: Weather; time: number }>();

/** Installs `/weather`, `/time`, the weather cycle and the day-cycle game rule. */
/** A 64-bit protocol long from a safe integer. */
const long = (n: number): bigint => BigInt(Math.trunc(n));

/** Sends `players` the game time and time of day, as vanilla's `ClientboundSetTimePacket`. */
function sendTime(serv: SquidServer, players: readonly SquidPlayer[]): void {
  const running = gameRule(serv, 'doDaylightCycle') === true;
  const time = Number(serv.time);
  const packet = packetFields(serv, 'update_time').some((f) => f.name === 'tickDayTime')
    ? { age: long(serv.tickCount), time: long(time), tickDayTime: running }
    : // Before 1.21.2 a stopped clock is a negative time (-1 for 0).
      { age: long(serv.tickCount), time: long(running ? time : time === 0 ? -1 : -time) };
  for (const player of players) if (!player.disconnected) player._client.write('update_time', packet);
}

export function installWeatherTime(serv: SquidServer): void {
  // flying-squid's setTime (its day cycle's step, /time) sends its own packet: ours replaces it.
  serv.setTime = (time: number) => {
    serv.time = time;
    sendTime(serv, serv.players);
  };
  serv.on('tick', (_delta, count) => {
    // flying-squid's day cycle sets (and so sends) the time on these ticks while the clock runs.
    if (count % TIME_SYNC_TICKS === 0 && !gameRule(serv, 'doDaylightCycle')) sendTime(serv, serv.players);
  });
  serv.on('newPlayer', (player) => sendTime(serv, [player]));
  const weather: Weather = {
    raining: false,
    thundering: false,
    rainTime: between(RAIN_DELAY),
    thunderTime: between(THUNDER_DELAY),
    clearTime: 0,
  };
  weathers.set(serv, { weather, time: Number(serv.time) });
  const setWeather = (raining: boolean, thundering: boolean): void => {
    const changed = raining !== weather.raining || thundering !== weather.thundering;
    weather.raining = raining;
    weather.thundering = thundering;
    if (changed) sendWeather(serv.players, weather);
  };

  serv.on('newPlayer', (player) => {
    player.once('spawned', () => {
      if (weather.raining) sendWeather([player], weather);
    });
  });

  // flying-squid's day cycle: `changeTime` ({ old, newTime }) is emitted after a first await, and
  // `newTime` (read back from the same object) is then set.
  (serv as unknown as NodeJS.EventEmitter).on('changeTime', (step: { old: number; newTime: number }) => {
    const now = Number(serv.time);
    if (now !== step.old) step.newTime = now + (step.newTime - step.old);
  });

  serv.on('tick', () => {
    if (!gameRule(serv, 'doWeatherCycle')) return;
    if (weather.clearTime > 0) {
      weather.clearTime--;
      weather.rainTime = weather.raining ? 0 : 1;
      weather.thunderTime = weather.thundering ? 0 : 1;
      setWeather(false, false);
      return;
    }
    let { raining, thundering } = weather;
    if (weather.thunderTime > 0) {
      if (--weather.thunderTime === 0) thundering = !thundering;
    } else weather.thunderTime = between(thundering ? THUNDER_DURATION : THUNDER_DELAY);
    if (weather.rainTime > 0) {
      if (--weather.rainTime === 0) raining = !raining;
    } else weather.rainTime = between(raining ? RAIN_DURATION : RAIN_DELAY);
    setWeather(raining, thundering);
  });

  serv.commands.add({
    base: 'weather',
    info: 'Sets the weather',
    usage: '/weather clear|rain|thunder [duration]',
    op: true,
    action: commandAction(serv, (args, ctx) => {
      const kind = args[0];
      if (!kind || args.length > 2 || !['clear', 'rain', 'thunder'].includes(kind))
        throw usageError('/weather clear|rain|thunder [duration]');
      const duration = args[1] === undefined ? -1 : parseTime(args[1], 1);
      if (kind === 'clear') {
        weather.clearTime = duration < 0 ? between(RAIN_DELAY) : duration;
        weather.rainTime = 0;
        weather.thunderTime = 0;
        setWeather(false, false);
      } else {
        weather.clearTime = 0;
        weather.rainTime = duration < 0 ? between(kind === 'rain' ? RAIN_DURATION : THUNDER_DURATION) : duration;
        weather.thunderTime = kind === 'thunder' ? weather.rainTime : 0;
        setWeather(true, kind === 'thunder');
      }
      sendFeedback(serv, ctx, translatable(`commands.weather.set.${kind}`));
    }),
  });

  onGameRuleChange(serv, (name, value) => {
    if (name !== 'doDaylightCycle') return;
    (serv as SquidServer & { doDaylightCycle: boolean }).doDaylightCycle = value === true;
    sendTime(serv, serv.players);
  });

  serv.commands.add({
    base: 'time',
    info: 'Changes or queries the time of day',
    usage: '/time set|add <time> | /time query daytime|gametime|day',
    op: true,
    action: commandAction(serv, (args, ctx) => runTime(serv, args, ctx)),
  });
}

function runTime(serv: SquidServer, args: string[], ctx: CommandContext): void {
  const usage = '/time set|add <time> | /time query daytime|gametime|day';
  const now = Number(serv.time);
  const [action, value] = args;
  if (args.length !== 2 || !action || !value) throw usageError(usage);
  if (action === 'query') {
    const answer =
      value === 'daytime'
        ? now % DAY_TICKS
        : value === 'gametime'
          ? serv.tickCount
          : value === 'day'
            ? Math.floor(now / DAY_TICKS)
            : undefined;
    if (answer === undefined) throw usageError(usage);
    sendFeedback(serv, ctx, translatable('commands.time.query', [answer]));
    return;
  }
  if (action !== 'set' && action !== 'add') throw usageError(usage);
  const ticks = action === 'set' && NAMED_TIMES[value] !== undefined ? NAMED_TIMES[value] : parseTime(value);
  const time = action === 'set' ? ticks : now + ticks;
  serv.setTime(time % DAY_TICKS);
  sendFeedback(serv, ctx, translatable('commands.time.set', [action === 'set' ? ticks : time % DAY_TICKS]));
}

/** The overworld's weather now (clear when the weather feature is not installed). */
export function weatherOf(serv: SquidServer): { raining: boolean; thundering: boolean } {
  const weather = weathers.get(serv)?.weather;
  return { raining: weather?.raining ?? false, thundering: weather?.thundering ?? false };
}

/** Takes note of the time of day, for {@link resetWeatherTime}. */
export function checkpointWeatherTime(serv: SquidServer): void {
  const state = weathers.get(serv);
  if (state) state.time = Number(serv.time);
}

/** Back to the checkpoint's time of day and clear weather, the players told (the warm world's reset). */
export function resetWeatherTime(serv: SquidServer): void {
  const state = weathers.get(serv);
  if (!state) return;
  const { weather } = state;
  const changed = weather.raining || weather.thundering;
  Object.assign(weather, { raining: false, thundering: false, clearTime: 0 });
  if (changed) sendWeather(serv.players, weather);
  serv.setTime(state.time);
}
