/** Which players' chat reaches which bot (the human side of conversations). */

/** Public chat names the bot when its name appears as a whole word (any case). */
export function namesBot(text: string, name: string): boolean {
  return new RegExp(`(^|[^\\w])${name}([^\\w]|$)`, 'i').test(text);
}

/** Start of server feedback that some servers send as chat; never meant for a bot. */
const FEEDBACK = [
  /^Set own game mode to /i,
  /^Set the time to /i,
  /^Set the difficulty to /i,
  /^Teleported /i,
  /^Set the weather to /i,
  /^Gamerule /i,
  /^Gave \d+ /i,
  /^Cleared the inventory /i,
  /^Removed \d+ item/i,
  /^Unknown (or incomplete )?command/i,
  /^You whisper to /i,
  /^\[\w+: .*\]$/,
];

/**
 * A name a vanilla server lets a player join with: at most 16 characters, none of them a space,
 * a control character or beyond ASCII (vanilla `StringUtil.isValidPlayerName`, checked at login).
 * `.Steve` and `Ev` are valid player names: a line's sender must come from the packet (see
 * `agent/chat-identity.ts`), never from reading the rendered text.
 */
export function isPlayerName(name: string): boolean {
  return /^[\x21-\x7e]{1,16}$/.test(name);
}

/** True for lines the server produced (command feedback, senders like "Server"), which bots ignore. */
export function isServerFeedback(from: string, text: string): boolean {
  if (/^(server|rcon|@)$/i.test(from) || !isPlayerName(from)) return true;
  return FEEDBACK.some((re) => re.test(text.trim()));
}

export interface ChatRules {
  /** This bot's name. */
  self: string;
  /** How many of our bots run, this one included (public chat reaches a lone bot without naming it). */
  botCount: number;
  /** When non-empty, only these players may talk to and command the bot. */
  onlyChatWith: readonly string[];
  /** True for a bot of ours (their chat is never a player's). */
  isBot: (name: string) => boolean;
  /**
   * This bot answers for all of them a public line that names none and asks what every bot would
   * answer alike (a bare `!help`, see {@link isTeamQuery}): true for one bot only (the fleet's
   * first by name), so such a line gets one answer, not none nor one per bot.
   */
  speaksForAll?: boolean;
}

/** A public line any bot would answer alike: `!help`, bare or with a command name. */
export function isTeamQuery(text: string): boolean {
  return /^\s*!help\s*(\(.*\))?\s*$/i.test(text);
}

/**
 * Decides whether a player's chat line reaches the bot: whispers always do; public chat does when
 * it names the bot, when this is the only bot, or when it is a team query ({@link isTeamQuery})
 * and this bot speaks for all ({@link ChatRules.speaksForAll}). Bots of ours, the bot itself,
 * players outside `only_chat_with` and server feedback never do.
 */
export function reachesBot(rules: ChatRules, from: string, text: string, channel: 'whisper' | 'public'): boolean {
  if (from === rules.self || rules.isBot(from) || isServerFeedback(from, text)) return false;
  if (rules.onlyChatWith.length > 0 && !rules.onlyChatWith.includes(from)) return false;
  if (channel === 'whisper' || rules.botCount === 1 || namesBot(text, rules.self)) return true;
  return rules.speaksForAll === true && isTeamQuery(text);
}
