/**
 * The steps of a task's set-up, shared by the MineCollab set-up (`./task-setup.ts`) and the
 * VillagerBench one (`./villager-setup.ts`): op commands typed in chat through a fast outbox, each
 * step waiting (time-bounded) until a bot sees its effect.
 */
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { Agent } from '../agent/agent.ts';
import { ChatOutbox, type RateLimit } from '../conversation/outbox.ts';
import { waitFor } from '../util/abort.ts';
import type { Pos } from '../tasks/worlds.ts';

/**
 * Rate of set-up commands from an operator: a burst of 20, then one every 50 ms (20 a second).
 * Operators are exempt from vanilla's chat-spam kick (ServerGamePacketListenerImpl.detectRateSpam
 * skips ops; Spigot and Paper do the same), and set-up needs op anyway. Agents' own chat keeps
 * the default limit of their outbox ({@link ChatOutbox}).
 */
export const SETUP_RATE_LIMIT: RateLimit = { burst: 20, intervalMs: 50 };

/**
 * How long an ordered set-up command may go without feedback before the next is sent (ms), on a
 * server that has not answered a command yet (one with `sendCommandFeedback` off never does).
 */
const FEEDBACK_WAIT_MS = 500;
/**
 * The same once the server has answered one: it answers, so a late answer is a busy server (a
 * large `/fill` on a loaded machine took over 500 ms, and the chests placed next were filled over).
 */
const ANSWERED_FEEDBACK_WAIT_MS = 10_000;
/**
 * System lines that are not a command's feedback: joins, leaves, deaths and advancements
 * (vanilla's translation keys), which arrive on their own while a set-up runs.
 */
const NOT_FEEDBACK = /^(multiplayer\.player\.|death\.|chat\.type\.advancement\.)/;

/** Sends set-up op commands for one bot. */
export interface Commander {
  /** Sends `lines` through a fast outbox ({@link SETUP_RATE_LIMIT}), without waiting. */
  send(lines: string[]): void;
  /**
   * Sends `lines` one at a time, each after the previous one's feedback line (or after
   * {@link FEEDBACK_WAIT_MS} without one, e.g. on a server with `sendCommandFeedback` off;
   * {@link ANSWERED_FEEDBACK_WAIT_MS} once the server has answered a command). Use it
   * when commands overlap: some servers (flying-squid) run commands concurrently, so a `/fill` of
   * grass could otherwise land after the farmland that should replace it.
   */
  sendInOrder(lines: string[]): Promise<void>;
  /**
   * The first error line the server answered a command with that says the bot may not run it
   * (vanilla's unknown-command error, which it gives for commands above a player's permission
   * level, or a "no permission" line), if any.
   */
  refused(): string | undefined;
  close(): void;
}

/** A {@link Commander} typing through `bot`'s chat; `close()` it when done. */
export function commander(bot: Bot): Commander {
  const outbox = new ChatOutbox((line) => bot.chat(line), SETUP_RATE_LIMIT);
  let refused: string | undefined;
  const onMessage = (message: { translate?: string; toString(): string }, position: string) => {
    if (refused !== undefined || position !== 'system') return;
    if (message.translate === 'command.unknown.command' || /permission/i.test(message.toString())) refused = message.toString();
  };
  bot.on('message', onMessage);
  let answered = false;
  const feedback = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        bot.off('messagestr', onMessage);
        resolve();
      };
      const onMessage = (_text: string, position: string, message: { translate?: string }) => {
        if (position !== 'system' && position !== 'game_info') return;
        if (NOT_FEEDBACK.test(message?.translate ?? '')) return;
        answered = true;
        done();
      };
      const timer = setTimeout(done, answered ? ANSWERED_FEEDBACK_WAIT_MS : FEEDBACK_WAIT_MS);
      bot.on('messagestr', onMessage);
    });
  return {
    send: (lines) => lines.forEach((l) => outbox.raw(l)),
    async sendInOrder(lines) {
      for (const line of lines) {
        const answered = feedback();
        outbox.raw(line);
        await answered;
      }
    },
    refused: () => refused,
    close: () => {
      bot.off('message', onMessage);
      outbox.close();
    },
  };
}

/**
 * Waits until `check` holds, at most `timeoutMs`.
 *
 * @throws Error saying the set-up timed out, what did not happen, and, when the server refused
 *   one of `commands`' commands, that the bot may not be an operator.
 */
export async function must(what: string, check: () => boolean, commands: Commander, timeoutMs: number): Promise<void> {
  if (await waitFor(check, timeoutMs)) return;
  const refused = commands.refused();
  throw new Error(
    `set-up timed out after ${Math.round(timeoutMs / 100) / 10} s: ${what}${refused ? ` (the server refused a set-up command: "${refused}"; is the bot an operator on this server?)` : ''}`,
  );
}

/** How far around a point {@link groundLevel} looks, and the spacing of the columns it reads (blocks). */
const GROUND_RADIUS = 16;
const GROUND_STEP = 2;

/**
 * The natural ground height around `at`: in each column of a square of {@link GROUND_RADIUS}
 * blocks around it (every {@link GROUND_STEP} blocks), going up from the bottom of the world, the
 * first block that is not a full block once solid ground has begun (the air above a flat world's
 * surface); the height most columns give (the lowest of equals). Buildings standing on the
 * ground, also one under `at` itself (a bot that spawned on a table: flying-squid puts players on
 * top of whatever is at a random spot), cover few of the columns and do not count. Meant for flat
 * worlds, as construction tasks are.
 *
 * @param bot what reads the world: mineflayer's `blockAt` and the dimension's height.
 * @returns undefined when no column around `at` is loaded.
 */
export function groundLevel(bot: Pick<Bot, 'blockAt' | 'game'>, at: Pos): number | undefined {
  const game = bot.game as { minY?: number; height?: number };
  const minY = game.minY ?? 0;
  const maxY = minY + (game.height ?? 384);
  const column = (x: number, z: number): number | undefined => {
    let solidBelow = false;
    for (let y = minY; y < maxY; y++) {
      const block = bot.blockAt(new Vec3(x, y, z));
      if (!block) return undefined;
      const solid = block.boundingBox === 'block';
      if (solidBelow && !solid) return y;
      solidBelow ||= solid;
    }
    return undefined;
  };
  const votes = new Map<number, number>();
  for (let dx = -GROUND_RADIUS; dx <= GROUND_RADIUS; dx += GROUND_STEP) {
    for (let dz = -GROUND_RADIUS; dz <= GROUND_RADIUS; dz += GROUND_STEP) {
      const y = column(at.x + dx, at.z + dz);
      if (y !== undefined) votes.set(y, (votes.get(y) ?? 0) + 1);
    }
  }
  let best: [number, number] | undefined;
  for (const [y, n] of votes) if (!best || n > best[1] || (n === best[1] && y < best[0])) best = [y, n];
  return best?.[0];
}

/** Teleports agent i to `to(i)` (through its own commander) and waits until its bot stands there. */
export async function teleportAll(agents: Agent[], commanders: Commander[], to: (i: number) => Pos, stepMs: number): Promise<void> {
  await Promise.all(
    agents.map(async (agent, i) => {
      const p = to(i);
      commanders[i]!.send([`/tp ${agent.name} ${p.x + 0.5} ${p.y} ${p.z + 0.5}`]);
      await must(
        `${agent.name} was not teleported to (${p.x}, ${p.y}, ${p.z})`,
        () => agent.bot.entity.position.distanceTo(new Vec3(p.x + 0.5, p.y, p.z + 0.5)) < 1.5,
        commanders[i]!,
        stepMs,
      );
    }),
  );
}
