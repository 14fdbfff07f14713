/**
 * Reasoning output of open models: DeepSeek-R1, QwQ, Qwen3 and their distillations write their
 * chain of thought into the reply as `<think>…</think>` before the answer. It must not reach the
 * command parser (a `!command` inside the thinking would run) nor the chat, so the adapters split
 * it off every reply; the run records keep it.
 *
 * Shapes handled (tags case-insensitive, `<thinking>` too):
 * - `<think>reasoning</think>answer`, any number of blocks anywhere in the text;
 * - `reasoning</think>answer`: chat templates that open the block in the prompt (the reply starts
 *   inside it), so only the closing tag appears;
 * - `answer<think>reasoning` without a closing tag: the reply was cut off while thinking, so
 *   everything from the tag on is reasoning.
 */

const BLOCK = /<(think|thinking)>([\s\S]*?)<\/\1>/gi;
const CLOSE = /<\/(think|thinking)>/i;
const OPEN = /<(think|thinking)>/i;

/** A reply split into its answer and its reasoning. */
export interface SplitReply {
  /** The answer: the reply without reasoning, trimmed. */
  text: string;
  /** The reasoning blocks' contents, trimmed, joined by a blank line; '' when there was none. */
  reasoning: string;
}

/**
 * Splits the reasoning off a model reply.
 *
 * @example splitReasoning('<think>I need planks.</think>Sure! !craftRecipe("oak_planks", 1)')
 *   // → { text: 'Sure! !craftRecipe("oak_planks", 1)', reasoning: 'I need planks.' }
 * @param reply the reply's text as the provider sent it.
 * @returns the text unchanged (not even trimmed) and `reasoning: ''` when there is no tag.
 */
export function splitReasoning(reply: string): SplitReply {
  if (!/<\/?(think|thinking)>/i.test(reply)) return { text: reply, reasoning: '' };
  const parts: string[] = [];
  let text = reply;
  // A closing tag before any opening one: the reply began inside a block the prompt opened.
  const close = CLOSE.exec(text);
  const open = OPEN.exec(text);
  if (close && (!open || close.index < open.index)) {
    parts.push(text.slice(0, close.index));
    text = text.slice(close.index + close[0].length);
  }
  text = text.replace(BLOCK, (_whole, _tag: string, inner: string) => {
    parts.push(inner);
    return '';
  });
  // An opening tag left without its closing one: cut off while thinking.
  const unclosed = OPEN.exec(text);
  if (unclosed) {
    parts.push(text.slice(unclosed.index + unclosed[0].length));
    text = text.slice(0, unclosed.index);
  }
  text = text.replace(/<\/(think|thinking)>/gi, '');
  return {
    text: text.trim(),
    reasoning: parts
      .map((p) => p.trim())
      .filter(Boolean)
      .join('\n\n'),
  };
}
