/**
 * Conversations between our bots, and between bots and people, in Minecraft chat.
 *
 * - {@link Conversations}: one agent's conversation state machine per partner and turn-taking.
 * - Transports behind one interface ({@link Transport}): {@link InProcessHub} for bots of one
 *   process, {@link WhisperTransport} for bots elsewhere (discovered by a whispered handshake),
 *   {@link CompositeTransport} for both.
 * - {@link ChatOutbox}: the rate-limited, length-limited way a bot types into chat.
 * - {@link reachesBot}: which players' chat reaches which bot.
 */
export type { BotMessage, Channel, ConversationNotice, IncomingMessage, MessageVia, Transport } from './types.ts';
export { fromPlayer, noticeText } from './types.ts';
export {
  Conversations,
  DEFAULT_TIMINGS,
  MAX_HELD_LINES,
  type ConversationHost,
  type ConversationState,
  type ConversationTimings,
  type ConversationsOptions,
} from './conversations.ts';
export { InProcessHub, CompositeTransport } from './in-process.ts';
export {
  WhisperTransport,
  isEnvelope,
  parseEnvelope,
  encodePayload,
  decodePayload,
  proofMac,
  messageMac,
  type MessagePart,
  ENVELOPE_PREFIX,
  MAX_PARTS,
  type WhisperBot,
  type WhisperTransportOptions,
} from './whisper.ts';
export {
  ChatOutbox,
  CHAT_LIMIT,
  DEFAULT_MAX_QUEUED,
  DEFAULT_RATE_LIMIT,
  splitText,
  chatSafe,
  type OutboxOptions,
  type RateLimit,
  type SendOptions,
} from './outbox.ts';
export { namesBot, isPlayerName, isServerFeedback, isTeamQuery, reachesBot, type ChatRules } from './routing.ts';
