/**
 * Prompt templates: `$NAME`-style variables filled in one pass. A variable without a value stays
 * visible in the text (so a broken template shows in the prompt log) and is reported.
 */

/** The variables the shipped prompts use. */
export const PROMPT_VARIABLES = [
  'NAME',
  'PERSONA',
  'STATS',
  'INVENTORY',
  'ACTION',
  'COMMAND_DOCS',
  'CODE_DOCS',
  'EXAMPLES',
  'MEMORY',
  'TO_SUMMARIZE',
  'CONVO',
  'SELF_PROMPT',
] as const;

/** A variable name in {@link PROMPT_VARIABLES}. */
export type PromptVariable = (typeof PROMPT_VARIABLES)[number];

/** Values by variable name (without `$`); any `UPPER_CASE` name may be given, not only the standard ones. */
export type PromptValues = Partial<Record<PromptVariable, string>> & Record<string, string | undefined>;

/** The result of {@link fillTemplate}. */
export interface FilledTemplate {
  text: string;
  /** Variables found in the template without a value, in order of first appearance, without `$`. */
  unknown: string[];
}

const VARIABLE = /\$([A-Z][A-Z0-9_]*)/g;

/**
 * Replaces every `$VAR` (upper case, digits, `_`) that has a value in `values`. Values are
 * inserted literally (a `$NAME` inside a value is not expanded again). Variables without a value
 * are left as written and listed in `unknown`.
 *
 * @param template text with `$VARIABLES`.
 * @param values strings by variable name (without `$`); `undefined` counts as missing.
 */
export function fillTemplate(template: string, values: PromptValues): FilledTemplate {
  const unknown: string[] = [];
  const text = template.replace(VARIABLE, (whole, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value !== undefined) return value;
    if (!unknown.includes(name)) unknown.push(name);
    return whole;
  });
  return { text, unknown };
}

/** The variables a template uses, without `$`, in order of first appearance. */
export function templateVariables(template: string): string[] {
  return [...new Set([...template.matchAll(VARIABLE)].map((m) => m[1]!))];
}
