/** Command feedback as a vanilla client sees it: chat components with their translation keys. */
import type { Bot } from 'mineflayer';
import { waitUntil } from './wait.ts';

/** A received chat message: its translation key (absent for plain text), its JSON and its text. */
export interface FeedbackMessage {
  translate?: string;
  json?: unknown;
  toString(): string;
}

/** What {@link feedbackRecorder} returns. */
export interface FeedbackRecorder {
  /** Every message received by the bots given to {@link listen}, oldest first. */
  readonly messages: FeedbackMessage[];
  /** Records the messages `bot` receives from now on. */
  listen(bot: Bot): void;
  /**
   * Sends `command` as `bot` and resolves with the first message after it whose translation key
   * equals `key` (a string) or whose key or text matches `key` (a RegExp); rejects after 10 s.
   */
  feedback(bot: Bot, command: string, key: string | RegExp): Promise<FeedbackMessage>;
}

/** Records chat messages and waits for a command's feedback among them. */
export function feedbackRecorder(): FeedbackRecorder {
  const messages: FeedbackMessage[] = [];
  return {
    messages,
    listen(bot) {
      bot.on('message', (message) => {
        messages.push(message);
      });
    },
    async feedback(bot, command, key) {
      const from = messages.length;
      const match = (m: FeedbackMessage): boolean =>
        typeof key === 'string' ? m.translate === key : key.test(m.translate ?? m.toString());
      bot.chat(command);
      await waitUntil(() => messages.slice(from).some(match), `feedback ${String(key)} to ${command}`, {
        state: () => messages.slice(from).map((m) => m.translate ?? m.toString()),
      });
      return messages.slice(from).find(match)!;
    },
  };
}
