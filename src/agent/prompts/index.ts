/** Prompt templates and few-shot example selection. */
export {
  fillTemplate,
  templateVariables,
  PROMPT_VARIABLES,
  type FilledTemplate,
  type PromptValues,
  type PromptVariable,
} from './template.ts';
export {
  cosineSimilarity,
  exampleKey,
  ExampleSelector,
  EXAMPLES_DIR,
  formatExamples,
  TextRanker,
  type Embedder,
  type Example,
  type ExampleSelectorOptions,
  type ExampleTurn,
} from './examples.ts';
