/**
 * Vanilla `/execute` (Minecraft wiki "Commands/execute"), the subcommands that change who runs a
 * command, where and when:
 * - `as <targets>`: once per target, as that entity (`@s` is it; the feedback still goes to the caller);
 * - `at <targets>`: once per target, at its position, rotation and world;
 * - `in <dimension>`: in `minecraft:overworld` (the nether is out of scope, as with vanilla's
 *   `allow-nether=false`);
 * - `positioned <x y z>` / `positioned as <targets>`: at a position;
 * - `if|unless entity <targets>`, `if|unless block <pos> <block>`: only when the condition holds;
 * - `run <command>`: the command, through the dispatcher (../services/commands.ts).
 * Without `run`, the last condition is reported (`commands.execute.conditional.pass` /
 * `pass_count`, or the red `commands.execute.conditional.fail`).
 *
 * Forks are bounded as in vanilla 1.20.3+: the game rule `maxCommandForkCount` (default 65536,
 * wiki "Game rule": "the maximum number of contexts that can be used by commands like 'execute
 * as'") caps the contexts a subcommand may produce; one more fails the command with
 * `command.forkLimit` ("Maximum number of contexts (%s) reached"), before anything runs
 * (vanilla `BuildContexts`, `ExecutionContext.forkLimit`). So `execute as @a as @a …` cannot
 * multiply without bound.
 */
import type { CommandContext, SquidEntity, SquidServer } from '../types.ts';
import {
  callerPosition,
  callerWorld,
  commandAction,
  CommandError,
  parseBlockArgument,
  parseBlockPos,
  parseLocation,
  restAfter,
  usageError,
} from '../services/command-arguments.ts';
import { runCommand } from '../services/commands.ts';
import { byteToDegrees } from '../services/geometry.ts';
import { isPlayer, resolveTargets } from '../services/selectors.ts';
import { gameRule } from '../services/game-rules.ts';
import { sendFeedback, translatable } from '../services/text.ts';

const USAGE =
  '/execute (as|at <targets>|in <dimension>|positioned <pos>|if|unless entity <targets>|if|unless block <pos> <block>)... run <command>';

/** A context that runs as `entity` (vanilla `CommandSourceStack.withEntity`). */
function asEntity(ctx: CommandContext, entity: SquidEntity): CommandContext {
  const output = ctx.output === undefined ? (ctx.player ?? null) : ctx.output;
  return isPlayer(entity) ? { ...ctx, player: entity, entity: undefined, output } : { ...ctx, player: undefined, entity, output };
}

/** Entities a selector matches, or none (conditions and forks do not fail on no match). */
function targetsOrNone(serv: SquidServer, selector: string, ctx: CommandContext): SquidEntity[] {
  try {
    return resolveTargets(serv, selector, ctx);
  } catch (err) {
    if (err instanceof CommandError && /notfound/.test(err.component.translate ?? '')) return [];
    throw err;
  }
}

/**
 * The contexts `each` makes of every context, stopped with vanilla's `command.forkLimit` error
 * as soon as there are more than the game rule `maxCommandForkCount` allows (counted as they are
 * made, so a fork that would explode never builds its list).
 *
 * @throws CommandError `command.forkLimit` past the limit.
 */
function fork(serv: SquidServer, contexts: CommandContext[], each: (c: CommandContext) => CommandContext[]): CommandContext[] {
  const limit = gameRule(serv, 'maxCommandForkCount');
  const out: CommandContext[] = [];
  for (const context of contexts) {
    for (const next of each(context)) {
      if (out.length >= limit) throw new CommandError(translatable('command.forkLimit', [limit]));
      out.push(next);
    }
  }
  return out;
}

/** Registers `/execute` (op only). */
export function installExecuteCommand(serv: SquidServer): void {
  serv.commands.add({
    base: 'execute',
    info: 'Runs a command as, at or in something, or on a condition',
    usage: USAGE,
    op: true,
    action: commandAction(serv, async (args, ctx, raw) => {
      let contexts: CommandContext[] = [ctx];
      let lastCount: number | undefined;
      for (let i = 0; i < args.length;) {
        const sub = args[i]!;
        if (sub === 'run') {
          const command = restAfter(raw, args, i + 1);
          if (!command) throw usageError(USAGE);
          for (const context of contexts) await runCommand(serv, command, context);
          return;
        }
        const arg = args[i + 1];
        if (arg === undefined) throw usageError(USAGE);
        switch (sub) {
          case 'as':
            contexts = fork(serv, contexts, (c) => targetsOrNone(serv, arg, c).map((e) => asEntity(c, e)));
            i += 2;
            break;
          case 'at':
            contexts = fork(serv, contexts, (c) =>
              targetsOrNone(serv, arg, c).map((e) => ({
                ...c,
                position: e.position.clone(),
                world: e.world,
                rotation: { yaw: byteToDegrees(e.yaw), pitch: byteToDegrees(e.pitch) },
              })),
            );
            i += 2;
            break;
          case 'in': {
            const name = arg.replace(/^minecraft:/, '');
            // The nether is out of scope (README): like a vanilla server with allow-nether=false.
            const world = name === 'overworld' ? serv.overworld : undefined;
            if (!world) throw new CommandError(translatable('argument.dimension.invalid', [arg]));
            contexts = contexts.map((c) => ({ ...c, world }));
            i += 2;
            break;
          }
          case 'positioned':
            if (arg === 'as') {
              const selector = args[i + 2];
              if (!selector) throw usageError(USAGE);
              contexts = fork(serv, contexts, (c) => targetsOrNone(serv, selector, c).map((e) => ({ ...c, position: e.position.clone() })));
              i += 3;
            } else {
              contexts = contexts.map((c) => ({ ...c, position: parseLocation(args.slice(i + 1, i + 4), callerPosition(c)) }));
              i += 4;
            }
            break;
          case 'if':
          case 'unless': {
            const wanted = sub === 'if';
            if (arg === 'entity') {
              const selector = args[i + 2];
              if (!selector) throw usageError(USAGE);
              const counts = contexts.map((c) => targetsOrNone(serv, selector, c).length);
              contexts = contexts.filter((_, k) => counts[k]! > 0 === wanted);
              lastCount = wanted ? counts.reduce((a, b) => a + b, 0) : contexts.length;
              i += 3;
            } else if (arg === 'block') {
              const blockToken = args[i + 5];
              if (!blockToken) throw usageError(USAGE);
              const expected = parseBlockArgument(serv, blockToken);
              const kept: CommandContext[] = [];
              for (const c of contexts) {
                const block = await callerWorld(serv, c).getBlock(parseBlockPos(args.slice(i + 2, i + 5), c));
                const written =
                  /\[([^\]]*)\]/
                    .exec(blockToken)?.[1]
                    ?.split(',')
                    .map((p) => p.split('=')[0]!.trim())
                    .filter(Boolean) ?? [];
                const properties = block.getProperties() as Record<string, unknown>;
                const matches = block.name === expected.name && written.every((k) => String(properties[k]) === expected.properties[k]);
                if (matches === wanted) kept.push(c);
              }
              contexts = kept;
              lastCount = kept.length;
              i += 6;
            } else throw usageError(USAGE);
            break;
          }
          default:
            throw new CommandError(translatable('command.unknown.argument'));
        }
      }
      if (lastCount === undefined) throw usageError(USAGE);
      if (contexts.length === 0) throw new CommandError(translatable('commands.execute.conditional.fail'));
      sendFeedback(
        serv,
        ctx,
        lastCount === 1
          ? translatable('commands.execute.conditional.pass')
          : translatable('commands.execute.conditional.pass_count', [lastCount]),
      );
    }),
  });
}
