/**
 * The counterfactual role of CausalMACE's causal intervention (Chai et al. 2025, §3.4): for a game
 * rule r_i, a rule r_i* that contradicts it ("You must have a block before you place it" → "You can
 * place a block even if you do not have it"), which replaces r_i in R_i*. Answer:
 * `{"counterfactual": "..."}`; it must differ from the rule.
 */
import { z } from 'zod';
import type { RoleSpec } from './role.ts';
import { withKeys } from './shape.ts';

/** The rule to contradict. */
export interface CounterfactualInput {
  rule: string;
}

const schema = withKeys(z.object({ counterfactual: z.string().trim().min(1, 'the counterfactual rule is empty') }), {
  counterfactual_rule: 'counterfactual',
  r_star: 'counterfactual',
}).transform((r) => r.counterfactual);

const EXAMPLE = `{"counterfactual": "You can place a block even if you do not have it."}`;

/** The counterfactual role (see the module header). */
export const counterfactualRole: RoleSpec<CounterfactualInput, string> = {
  name: 'counterfactual',
  system: `You write counterfactual game rules. Given a rule of Minecraft, write one rule that contradicts it, as short and plain as the rule (for "You must have a block before you place it.": "You can place a block even if you do not have it.").
Answer with one JSON object only:
${EXAMPLE}`,
  expect: 'object',
  schema,
  example: EXAMPLE,
  prompt(input) {
    return `The rule: ${input.rule}\nWrite its counterfactual as the JSON object.`;
  },
  check(value, input) {
    const norm = (s: string) =>
      s
        .trim()
        .toLowerCase()
        .replace(/[.!]+$/, '');
    return norm(value) === norm(input.rule) ? ['the counterfactual repeats the rule: write a rule that contradicts it'] : [];
  },
};
