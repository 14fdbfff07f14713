/**
 * Native tool calling for commands: JSON Schemas generated from the command declarations, and
 * the way back from a provider's tool call to the `!name(args)` text the agent already parses.
 *
 * Only the declarations are read (name, description, params), so this module depends on no
 * agent code; pass `registry.list()`.
 */
import type { ParamSpec } from '../commands/registry.ts';
import type { JsonSchema, ToolCall, ToolSpec } from './types.ts';

/** What {@link commandTools} reads of a command definition. */
export interface ToolSource {
  /** `'!craftRecipe'` (the bang is dropped in the tool name). */
  name: string;
  description: string;
  /** Declaration order = argument order. */
  params: Record<string, ParamSpec>;
}

const NAME_HINT: Partial<Record<ParamSpec['type'], string>> = {
  ItemName: 'a Minecraft item id, e.g. "oak_planks"',
  BlockName: 'a Minecraft block id, e.g. "oak_log"',
};

/**
 * The JSON Schema of one parameter: `int` → integer, `float` → number, `boolean`, `string`,
 * `ItemName`/`BlockName` → string with a description saying so; a domain `[lo, hi)` becomes
 * `minimum: lo` and `exclusiveMaximum: hi` (infinite bounds are left out).
 */
export function paramSchema(spec: ParamSpec): JsonSchema {
  const type = spec.type === 'int' ? 'integer' : spec.type === 'float' ? 'number' : spec.type === 'boolean' ? 'boolean' : 'string';
  const hint = NAME_HINT[spec.type];
  const description = [spec.description.trim(), hint].filter(Boolean).join(' — ');
  const schema: JsonSchema = { type };
  if (description) schema.description = description;
  if ((spec.type === 'int' || spec.type === 'float') && spec.domain) {
    const [lo, hi] = spec.domain;
    if (Number.isFinite(lo)) schema.minimum = lo;
    if (Number.isFinite(hi)) schema.exclusiveMaximum = hi;
  }
  return schema;
}

/**
 * One tool per command, named without the bang; every parameter is required (commands take
 * exactly their declared arguments) and no others are allowed.
 *
 * @param commands command definitions, e.g. `registry.list()`.
 * @throws Error when a command name would not be a valid tool name (`[A-Za-z0-9_-]{1,64}`).
 */
export function commandTools(commands: Iterable<ToolSource>): ToolSpec[] {
  const tools: ToolSpec[] = [];
  for (const def of commands) {
    const name = def.name.replace(/^!/, '');
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) throw new Error(`commandTools: "${def.name}" is not a valid tool name`);
    const properties: Record<string, JsonSchema> = {};
    for (const [param, spec] of Object.entries(def.params)) properties[param] = paramSchema(spec);
    tools.push({
      name,
      description: def.description,
      parameters: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
    });
  }
  return tools;
}

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
