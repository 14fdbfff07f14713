/**
 * Native tool calling for commands: one JSON Schema tool per command, generated from the command
 * declarations (name, description, params), so the tools and the parser cannot drift apart. The
 * way back, from a tool call to `!name(args)` text, is in `src/models/tools.ts`.
 */
import type { JsonSchema, ToolSpec } from '../models/types.ts';
import type { ParamSpec } from './registry.ts';

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
  if (spec.default !== undefined) schema.default = spec.default;
  if ((spec.type === 'int' || spec.type === 'float') && spec.domain) {
    const [lo, hi] = spec.domain;
    if (Number.isFinite(lo)) schema.minimum = lo;
    if (Number.isFinite(hi)) schema.exclusiveMaximum = hi;
  }
  return schema;
}

/**
 * One tool per command, named without the bang; every parameter but the `optional` ones is
 * required and no others are allowed.
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
      parameters: {
        type: 'object',
        properties,
        required: Object.keys(properties).filter((p) => !def.params[p]!.optional),
        additionalProperties: false,
      },
    });
  }
  return tools;
}
