/**
 * The system prompt. Its static part (role, rules, command docs) comes first and is the same on
 * every call, so providers' prompt caching applies; the bot's current state follows.
 */
import type { Bot } from 'mineflayer';
import { formatCounts } from '../skills/crafting-plan.ts';
import { inventoryCounts } from '../skills/items.ts';

export interface PromptInput {
  name: string;
  persona: string;
  commandDocs: string;
  bot: Bot;
  currentAction: string | undefined;
  goal: string | undefined;
  partner: string | undefined;
}

/** Builds the system prompt for one model call. */
export function systemPrompt(p: PromptInput): string {
  const pos = p.bot.entity?.position;
  return [
    `You are ${p.name}, a Minecraft bot playing beside people and other bots. ${p.persona}`.trim(),
    'Reply briefly, like a player in chat. To act, write one command in your reply, e.g. !inventory or !craftRecipe("stick", 4); only the first command runs, and its output comes back to you as a SYSTEM message. Do not invent command output. A reply without a command ends your turn.',
    'Commands:',
    p.commandDocs,
    '---',
    `Position: ${pos ? `(${pos.x.toFixed(0)}, ${pos.y.toFixed(0)}, ${pos.z.toFixed(0)})` : 'unknown'}; health ${Math.round(p.bot.health ?? 20)}/20; action: ${p.currentAction ?? 'idle'}`,
    `Inventory: ${formatCounts(inventoryCounts(p.bot)) || 'empty'}`,
    p.goal ? `Goal: ${p.goal}` : '',
    p.partner ? `In conversation with ${p.partner}.` : '',
  ].filter(Boolean).join('\n');
}
