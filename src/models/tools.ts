/**
 * Native tool calling, the way back: from a provider's tool call to the `!name(args)` text the
 * agent already parses. The tools themselves are generated from the command declarations
 * (`src/commands/tools.ts`).
 */
import type { ToolCall, ToolSpec } from './types.ts';

function renderValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  return JSON.stringify(JSON.stringify(value) ?? String(value));
}

/**
 * The command text for a tool call: `!craftRecipe("stick", 4)`. Arguments follow the tool's
 * property order; strings are double-quoted with escapes, numbers and booleans bare. Arguments
 * stop at the first missing one and unknown ones are dropped, so the command parser reports a
 * wrong count to the model as it would for a typed command. An unknown tool is rendered by name.
 *
 * @param call the model's tool call.
 * @param tools the tools that were offered (for argument order).
 */
export function toolCallToCommand(call: Pick<ToolCall, 'name' | 'arguments'>, tools: readonly ToolSpec[]): string {
  const tool = tools.find((t) => t.name === call.name);
  const args = call.arguments ?? {};
  const order = tool ? Object.keys(tool.parameters.properties) : Object.keys(args);
  const values: string[] = [];
  for (const key of order) {
    if (!Object.hasOwn(args, key)) break;
    values.push(renderValue(args[key]));
  }
  if (values.length === 0) return `!${call.name}`;
  return `!${call.name}(${values.join(', ')})`;
}

/**
 * A reply as text the agent parses: the text, then the FIRST tool call as a command (only the
 * first command of a reply runs anyway). Without tool calls, the text unchanged.
 */
export function renderReply(text: string, toolCalls: readonly ToolCall[], tools: readonly ToolSpec[]): string {
  const first = toolCalls[0];
  if (!first) return text;
  const command = toolCallToCommand(first, tools);
  const t = text.trim();
  return t ? `${t} ${command}` : command;
}

/**
 * Parses a tool call's JSON argument text (OpenAI sends a string); undefined unless it is a JSON object.
 */
export function parseToolArguments(raw: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(raw || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
