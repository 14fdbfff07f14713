/** Reasoning blocks are split off replies before anything parses them. */
import { describe, expect, test } from 'vitest';
import { splitReasoning } from '../../src/models/reasoning.ts';

describe('splitReasoning', () => {
  test.each([
    ['<think>Need planks first.</think>Sure! !craftRecipe("oak_planks", 1)', 'Sure! !craftRecipe("oak_planks", 1)', 'Need planks first.'],
    ['<THINK>\nupper case\n</THINK>\n\nOK', 'OK', 'upper case'],
    ['<thinking>a</thinking>Hi <think>b</think>there', 'Hi there', 'a\n\nb'],
    // The template opened the block in the prompt: the reply starts inside it.
    [
      'I could !stop here, but no.</think>On my way. !goToPlayer("steve", 3)',
      'On my way. !goToPlayer("steve", 3)',
      'I could !stop here, but no.',
    ],
    // Cut off while thinking: everything after the tag is reasoning.
    ['Let me see. <think>maybe !attack("zombie")', 'Let me see.', 'maybe !attack("zombie")'],
    ['<think>only thinking</think>', '', 'only thinking'],
  ])('%j', (reply, text, reasoning) => {
    expect(splitReasoning(reply)).toEqual({ text, reasoning });
  });

  test('a reply without tags comes back unchanged, untrimmed', () => {
    expect(splitReasoning('  Hello! !stats ')).toEqual({ text: '  Hello! !stats ', reasoning: '' });
  });
});
