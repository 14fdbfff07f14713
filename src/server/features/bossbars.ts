/**
 * Vanilla `/bossbar` (Minecraft wiki "Commands/bossbar"): `add <id> <name>`, `remove <id>`,
 * `list`, `set <id> name|color|style|value|max|visible|players …` and
 * `get <id> value|max|visible|players`, with vanilla feedback and errors, and the `boss_bar`
 * packets (add, remove, health, title, style, flags) for the bar's players while it is visible,
 * so mineflayer's `bossBarCreated` / `bossBarUpdated` / `bossBarDeleted` fire.
 */
import { randomUUID } from 'node:crypto';
import type { CommandContext, SquidPlayer, SquidServer } from '../types.ts';
import { commandAction, CommandError, parseComponent, parseInteger, restAfter, usageError } from '../services/command-arguments.ts';
import { displayName, resolvePlayers } from '../services/selectors.ts';
import { encodeComponent, sendFeedback, translatable, type TextComponent } from '../services/text.ts';

/** Protocol ids of boss bar colours and styles (vanilla `BossEvent.BossBarColor` / `BossBarOverlay`). */
const COLOURS = ['pink', 'blue', 'red', 'green', 'yellow', 'purple', 'white'];
const STYLES = ['progress', 'notched_6', 'notched_10', 'notched_12', 'notched_20'];
/** `boss_bar` actions (protocol). */
const ACTION = { add: 0, remove: 1, health: 2, title: 3, style: 4, flags: 5 } as const;

/** One custom boss bar (vanilla `CustomBossEvent`). */
interface BossBar {
  id: string;
  uuid: string;
  name: TextComponent;
  color: string;
  style: string;
  value: number;
  max: number;
  visible: boolean;
  players: Set<SquidPlayer>;
}

/** A bar id argument: `namespace:path`, `minecraft:` by default (vanilla `ResourceLocation`). */
function parseId(token: string | undefined): string {
  if (!token || !/^([a-z0-9_.-]+:)?[a-z0-9_./-]+$/.test(token)) throw new CommandError(translatable('argument.id.invalid'));
  return token.includes(':') ? token : `minecraft:${token}`;
}

/** Installs `/bossbar` (op only). */
export function installBossBars(serv: SquidServer): void {
  const bars = new Map<string, BossBar>();
  const write = (bar: BossBar, action: number, players: Iterable<SquidPlayer> = bar.players): void => {
    if (!bar.visible && action !== ACTION.remove) return;
    const params = {
      entityUUID: bar.uuid,
      action,
      title: encodeComponent(serv, bar.name),
      health: bar.max > 0 ? bar.value / bar.max : 0,
      color: COLOURS.indexOf(bar.color),
      dividers: STYLES.indexOf(bar.style),
      flags: 0,
    };
    for (const player of players) if (!player.disconnected) player._client.write('boss_bar', params);
  };
  serv.on('newPlayer', (player) => {
    const forget = (): void => {
      for (const bar of bars.values()) bar.players.delete(player);
    };
    player.on('disconnected', forget);
  });
  const get = (token: string | undefined): BossBar => {
    const id = parseId(token);
    const bar = bars.get(id);
    if (!bar) throw new CommandError(translatable('commands.bossbar.unknown', [id]));
    return bar;
  };
  const label = (bar: BossBar): TextComponent => ({ text: '[', extra: [bar.name, ']'] });

  serv.commands.add({
    base: 'bossbar',
    info: 'Creates and manages boss bars',
    usage: '/bossbar add|remove|list|set|get …',
    op: true,
    action: commandAction(serv, (args, ctx, raw) => {
      const [action, idToken, property] = args;
      switch (action) {
        case 'add': {
          const id = parseId(idToken);
          if (args.length < 3) throw usageError('/bossbar add <id> <name>');
          if (bars.has(id)) throw new CommandError(translatable('commands.bossbar.create.failed', [id]));
          const bar: BossBar = {
            id,
            uuid: randomUUID(),
            name: parseComponent(restAfter(raw, args, 2)),
            color: 'white',
            style: 'progress',
            value: 0,
            max: 100,
            visible: true,
            players: new Set(),
          };
          bars.set(id, bar);
          sendFeedback(serv, ctx, translatable('commands.bossbar.create.success', [label(bar)]));
          return;
        }
        case 'remove': {
          const bar = get(idToken);
          write(bar, ACTION.remove);
          bars.delete(bar.id);
          sendFeedback(serv, ctx, translatable('commands.bossbar.remove.success', [label(bar)]));
          return;
        }
        case 'list':
          sendFeedback(
            serv,
            ctx,
            bars.size === 0
              ? translatable('commands.bossbar.list.bars.none')
              : translatable('commands.bossbar.list.bars.some', [
                  bars.size,
                  { text: '', extra: [...bars.values()].flatMap((b, i) => (i ? [', ', label(b)] : [label(b)])) },
                ]),
          );
          return;
        case 'get': {
          const bar = get(idToken);
          switch (property) {
            case 'value':
              sendFeedback(serv, ctx, translatable('commands.bossbar.get.value', [label(bar), bar.value]));
              return;
            case 'max':
              sendFeedback(serv, ctx, translatable('commands.bossbar.get.max', [label(bar), bar.max]));
              return;
            case 'visible':
              sendFeedback(serv, ctx, translatable(`commands.bossbar.get.visible.${bar.visible ? 'visible' : 'hidden'}`, [label(bar)]));
              return;
            case 'players':
              sendFeedback(
                serv,
                ctx,
                bar.players.size === 0
                  ? translatable('commands.bossbar.get.players.none', [label(bar)])
                  : translatable('commands.bossbar.get.players.some', [
                      label(bar),
                      bar.players.size,
                      [...bar.players].map(displayName).join(', '),
                    ]),
              );
              return;
            case undefined: // no property given
            default:
              throw usageError('/bossbar get <id> value|max|visible|players');
          }
        }
        case 'set':
          setProperty(serv, get(idToken), property, args.slice(3), ctx, raw, args, write, label);
          return;
        case undefined: // no subcommand given
        default:
          throw usageError('/bossbar add|remove|list|set|get …');
      }
    }),
  });
}

function setProperty(
  serv: SquidServer,
  bar: BossBar,
  property: string | undefined,
  values: string[],
  ctx: CommandContext,
  raw: string,
  args: string[],
  write: (bar: BossBar, action: number, players?: Iterable<SquidPlayer>) => void,
  label: (bar: BossBar) => TextComponent,
): void {
  const value = values[0];
  const done = (key: string, ...extra: Array<TextComponent | string | number>): void =>
    sendFeedback(serv, ctx, translatable(`commands.bossbar.set.${key}`, [label(bar), ...extra]));
  switch (property) {
    case 'name':
      if (value === undefined) throw usageError('/bossbar set <id> name <name>');
      bar.name = parseComponent(restAfter(raw, args, 3));
      write(bar, ACTION.title);
      done('name.success');
      return;
    case 'color':
      if (!value || !COLOURS.includes(value)) throw usageError(`/bossbar set <id> color ${COLOURS.join('|')}`);
      if (bar.color === value) throw new CommandError(translatable('commands.bossbar.set.color.unchanged'));
      bar.color = value;
      write(bar, ACTION.style);
      done('color.success');
      return;
    case 'style':
      if (!value || !STYLES.includes(value)) throw usageError(`/bossbar set <id> style ${STYLES.join('|')}`);
      if (bar.style === value) throw new CommandError(translatable('commands.bossbar.set.style.unchanged'));
      bar.style = value;
      write(bar, ACTION.style);
      done('style.success');
      return;
    case 'value': {
      const n = parseInteger(value ?? '', 0, 2_147_483_647);
      if (bar.value === n) throw new CommandError(translatable('commands.bossbar.set.value.unchanged'));
      bar.value = n;
      write(bar, ACTION.health);
      done('value.success', n);
      return;
    }
    case 'max': {
      const n = parseInteger(value ?? '', 1, 2_147_483_647);
      if (bar.max === n) throw new CommandError(translatable('commands.bossbar.set.max.unchanged'));
      bar.max = n;
      write(bar, ACTION.health);
      done('max.success', n);
      return;
    }
    case 'visible': {
      if (value !== 'true' && value !== 'false') throw new CommandError(translatable('parsing.bool.invalid', [value ?? '']));
      const visible = value === 'true';
      if (bar.visible === visible)
        throw new CommandError(translatable(`commands.bossbar.set.visibility.unchanged.${visible ? 'visible' : 'hidden'}`));
      if (visible) {
        bar.visible = true;
        write(bar, ACTION.add);
      } else {
        write(bar, ACTION.remove);
        bar.visible = false;
      }
      done(`visible.success.${visible ? 'visible' : 'hidden'}`);
      return;
    }
    case 'players': {
      const players = value === undefined ? [] : resolvePlayers(serv, value, ctx);
      const next = new Set(players);
      if (next.size === bar.players.size && [...next].every((p) => bar.players.has(p)))
        throw new CommandError(translatable('commands.bossbar.set.players.unchanged'));
      write(
        bar,
        ACTION.remove,
        [...bar.players].filter((p) => !next.has(p)),
      );
      write(
        bar,
        ACTION.add,
        [...next].filter((p) => !bar.players.has(p)),
      );
      bar.players = next;
      if (next.size === 0) done('players.success.none');
      else done('players.success.some', next.size, players.map(displayName).join(', '));
      return;
    }
    case undefined: // no property given
    default:
      throw usageError('/bossbar set <id> name|color|style|value|max|visible|players …');
  }
}
