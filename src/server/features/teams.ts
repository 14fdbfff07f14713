/**
 * Vanilla `/team` (Minecraft wiki "Commands/team", "Scoreboard#Teams"): `add <team> [displayName]`,
 * `remove <team>`, `empty <team>`, `join <team> [members]`, `leave <members>`, `list [team]` and
 * `modify <team> color|friendlyFire|seeFriendlyInvisibles|nametagVisibility|collisionRule|
 * displayName|prefix|suffix <value>`, with vanilla feedback and errors. Every client gets the
 * `teams` packets (create, remove, update, add and remove members), also for the teams that
 * existed before it joined, so mineflayer's `bot.teams` follows.
 */
import type { CommandContext, SquidPlayer, SquidServer } from '../types.ts';
import { commandAction, CommandError, parseComponent, restAfter, usageError } from '../services/command-arguments.ts';
import { displayName, resolveTargets } from '../services/selectors.ts';
import { encodeComponent, sendFeedback, translatable, type TextComponent } from '../services/text.ts';

/** Team colours in the protocol's `formatting` order (vanilla `ChatFormatting` ids); `reset` is 21. */
const COLOURS = [
  'black',
  'dark_blue',
  'dark_green',
  'dark_aqua',
  'dark_red',
  'dark_purple',
  'gold',
  'gray',
  'dark_gray',
  'blue',
  'green',
  'aqua',
  'red',
  'light_purple',
  'yellow',
  'white',
];
const RESET = 21;
const VISIBILITY = ['always', 'never', 'hideForOtherTeams', 'hideForOwnTeam'];
const COLLISION = ['always', 'never', 'pushOtherTeams', 'pushOwnTeam'];

/** One team (vanilla `PlayerTeam`). */
interface Team {
  name: string;
  displayName: TextComponent;
  color: string;
  friendlyFire: boolean;
  seeFriendlyInvisibles: boolean;
  nametagVisibility: string;
  collisionRule: string;
  prefix: TextComponent;
  suffix: TextComponent;
  members: Set<string>;
}

/** The packet fields describing a team (modes 0 and 2). */
function teamInfo(serv: SquidServer, team: Team): object {
  return {
    name: encodeComponent(serv, team.displayName),
    friendlyFire: (team.friendlyFire ? 1 : 0) | (team.seeFriendlyInvisibles ? 2 : 0),
    nameTagVisibility: team.nametagVisibility,
    collisionRule: team.collisionRule,
    formatting: team.color === 'reset' ? RESET : COLOURS.indexOf(team.color),
    prefix: encodeComponent(serv, team.prefix),
    suffix: encodeComponent(serv, team.suffix),
  };
}

/** The team name shown in feedback: `[display name]` in its colour (vanilla `PlayerTeam.getFormattedDisplayName`). */
function formatted(team: Team): TextComponent {
  return { text: '[', extra: [team.displayName, ']'], ...(team.color !== 'reset' ? { color: team.color } : {}) };
}

/** Installs the teams and `/team` (op only). */
export function installTeams(serv: SquidServer): void {
  const teams = new Map<string, Team>();
  const write = (params: object, players: SquidPlayer[] = serv.players): void => {
    for (const player of players) if (!player.disconnected) player._client.write('teams', params);
  };
  serv.on('newPlayer', (player) => {
    player.once('spawned', () => {
      for (const team of teams.values()) write({ team: team.name, mode: 0, ...teamInfo(serv, team), players: [...team.members] }, [player]);
    });
  });
  const teamOf = (member: string): Team | undefined => [...teams.values()].find((t) => t.members.has(member));
  const leave = (member: string): boolean => {
    const team = teamOf(member);
    if (!team) return false;
    team.members.delete(member);
    write({ team: team.name, mode: 4, players: [member] });
    return true;
  };
  const get = (name: string): Team => {
    const team = teams.get(name);
    if (!team) throw new CommandError(translatable('team.notFound', [name]));
    return team;
  };
  const memberNames = (selector: string, ctx: CommandContext): string[] =>
    resolveTargets(serv, selector, ctx).map((e) => (e.type === 'player' ? displayName(e) : (e.uuid ?? String(e.id))));

  serv.commands.add({
    base: 'team',
    info: 'Manages teams',
    usage: '/team add|remove|empty|join|leave|list|modify …',
    op: true,
    action: commandAction(serv, (args, ctx, raw) => {
      const [action, name] = args;
      switch (action) {
        case 'add': {
          if (!name) throw usageError('/team add <team> [displayName]');
          if (teams.has(name)) throw new CommandError(translatable('commands.team.add.duplicate'));
          const team: Team = {
            name,
            displayName: args.length > 2 ? parseComponent(restAfter(raw, args, 2)) : { text: name },
            color: 'reset',
            friendlyFire: true,
            seeFriendlyInvisibles: true,
            nametagVisibility: 'always',
            collisionRule: 'always',
            prefix: { text: '' },
            suffix: { text: '' },
            members: new Set(),
          };
          teams.set(name, team);
          write({ team: name, mode: 0, ...teamInfo(serv, team), players: [] });
          sendFeedback(serv, ctx, translatable('commands.team.add.success', [formatted(team)]));
          return;
        }
        case 'remove': {
          const team = get(name ?? '');
          teams.delete(team.name);
          write({ team: team.name, mode: 1 });
          sendFeedback(serv, ctx, translatable('commands.team.remove.success', [formatted(team)]));
          return;
        }
        case 'empty': {
          const team = get(name ?? '');
          if (team.members.size === 0) throw new CommandError(translatable('commands.team.empty.unchanged'));
          const count = team.members.size;
          write({ team: team.name, mode: 4, players: [...team.members] });
          team.members.clear();
          sendFeedback(serv, ctx, translatable('commands.team.empty.success', [count, formatted(team)]));
          return;
        }
        case 'join': {
          const team = get(name ?? '');
          const members = args[2] ? memberNames(args[2], ctx) : ctx.player ? [ctx.player.username] : [];
          if (members.length === 0) throw new CommandError(translatable('permissions.requires.entity'));
          for (const member of members) {
            if (team.members.has(member)) continue;
            leave(member);
            team.members.add(member);
          }
          write({ team: team.name, mode: 3, players: members });
          sendFeedback(
            serv,
            ctx,
            members.length === 1
              ? translatable('commands.team.join.success.single', [members[0]!, formatted(team)])
              : translatable('commands.team.join.success.multiple', [members.length, formatted(team)]),
          );
          return;
        }
        case 'leave': {
          if (!name) throw usageError('/team leave <members>');
          const members = memberNames(name, ctx);
          const left = members.filter(leave);
          if (left.length === 0) throw new CommandError(translatable('commands.team.leave.failure'));
          sendFeedback(
            serv,
            ctx,
            left.length === 1
              ? translatable('commands.team.leave.success.single', [left[0]!])
              : translatable('commands.team.leave.success.multiple', [left.length]),
          );
          return;
        }
        case 'list': {
          if (name) {
            const team = get(name);
            sendFeedback(
              serv,
              ctx,
              team.members.size === 0
                ? translatable('commands.team.list.members.empty', [formatted(team)])
                : translatable('commands.team.list.members.success', [formatted(team), team.members.size, [...team.members].join(', ')]),
            );
            return;
          }
          sendFeedback(
            serv,
            ctx,
            teams.size === 0
              ? translatable('commands.team.list.teams.empty')
              : translatable('commands.team.list.teams.success', [teams.size, [...teams.values()].map((t) => `[${t.name}]`).join(', ')]),
          );
          return;
        }
        case 'modify': {
          const team = get(name ?? '');
          const option = args[2];
          const value = args[3];
          if (!option || value === undefined) throw usageError('/team modify <team> <option> <value>');
          const bool = (): boolean => {
            if (value !== 'true' && value !== 'false') throw new CommandError(translatable('parsing.bool.invalid', [value]));
            return value === 'true';
          };
          let key: string;
          let args2: Array<TextComponent | string> = [formatted(team)];
          switch (option) {
            case 'color':
              if (value !== 'reset' && !COLOURS.includes(value)) throw new CommandError(translatable('argument.color.invalid', [value]));
              team.color = value;
              key = 'commands.team.option.color.success';
              args2 = [formatted(team), value];
              break;
            case 'friendlyFire':
              team.friendlyFire = bool();
              key = `commands.team.option.friendlyfire.${team.friendlyFire ? 'enabled' : 'disabled'}`;
              break;
            case 'seeFriendlyInvisibles':
              team.seeFriendlyInvisibles = bool();
              key = `commands.team.option.seeFriendlyInvisibles.${team.seeFriendlyInvisibles ? 'enabled' : 'disabled'}`;
              break;
            case 'nametagVisibility':
              if (!VISIBILITY.includes(value))
                throw usageError('/team modify <team> nametagVisibility always|never|hideForOtherTeams|hideForOwnTeam');
              team.nametagVisibility = value;
              key = 'commands.team.option.nametagVisibility.success';
              args2 = [formatted(team), translatable(`team.visibility.${value}`)];
              break;
            case 'collisionRule':
              if (!COLLISION.includes(value)) throw usageError('/team modify <team> collisionRule always|never|pushOtherTeams|pushOwnTeam');
              team.collisionRule = value;
              key = 'commands.team.option.collisionRule.success';
              args2 = [formatted(team), translatable(`team.collision.${value}`)];
              break;
            case 'displayName':
              team.displayName = parseComponent(restAfter(raw, args, 3));
              key = 'commands.team.option.name.success';
              args2 = [formatted(team)];
              break;
            case 'prefix':
              team.prefix = parseComponent(restAfter(raw, args, 3));
              key = 'commands.team.option.prefix.success';
              args2 = [team.prefix];
              break;
            case 'suffix':
              team.suffix = parseComponent(restAfter(raw, args, 3));
              key = 'commands.team.option.suffix.success';
              args2 = [team.suffix];
              break;
            default:
              throw new CommandError(translatable('command.unknown.argument'));
          }
          write({ team: team.name, mode: 2, ...teamInfo(serv, team) });
          sendFeedback(serv, ctx, translatable(key, args2));
          return;
        }
        case undefined: // no subcommand given
        default:
          throw usageError('/team add|remove|empty|join|leave|list|modify …');
      }
    }),
  });
}
