/** `!newAction`: model-written JavaScript in an SES Compartment inside a worker thread, in a memory-capped child process. */
export {
  checkCode,
  DEFAULT_MAX_MEMORY_MB,
  runSandboxed,
  WORKER_START_LIMIT_MS,
  type SandboxError,
  type SandboxErrorKind,
  type SandboxOptions,
  type SandboxResult,
  type SkillFunction,
  type SkillTable,
} from './runner.ts';
export {
  DEFAULT_CODING_PROMPT,
  extractCode,
  writeAndRunCode,
  type CodingAttempt,
  type CodingResult,
  type WriteAndRunOptions,
} from './coding.ts';
