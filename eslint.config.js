// @ts-check
import tseslint from 'typescript-eslint';

/**
 * Lint: typescript-eslint's `recommended` rules and five that read the types (a promise neither
 * awaited nor marked `void`, a promise where a callback's result is ignored, an `await` of a
 * non-promise, a switch missing a member of its union, a type assertion that changes nothing) over
 * the sources, the tests, the benchmarks and the scripts. Each file gets the types of its own
 * tsconfig (the dashboard page's has the DOM), so a run type-checks the project: about 25 s
 * instead of 8 s. Run by `npm test` and `npm run lint`.
 */
export default tseslint.config(
  { ignores: ['node_modules/**', 'bots/**', 'results/**', 'world/**'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', '*.ts', '*.js'],
    extends: [tseslint.configs.recommended],
    languageOptions: {
      // Each file is checked with the types of its own tsconfig: the root one, or the dashboard
      // page's (src/app/dashboard/public/tsconfig.json, DOM types). The config files outside both get
      // a default program.
      parserOptions: { projectService: { allowDefaultProject: ['*.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': ['error', { allowMixedPromiseArrays: true }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // Chat and whisper encoding match control characters on purpose, and say so where they do.
      'no-control-regex': 'error',
      // `_`-prefixed names are deliberately unused (callback positions, destructuring rests).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrors: 'none',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    // Tests synchronise on events and conditions, never on a fixed sleep (see test/helpers/wait.ts).
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Promise'] CallExpression[callee.name='setTimeout'][arguments.0.type='Identifier']",
          message:
            'A fixed sleep: wait for the event or condition itself (waitUntil, once(), or the server helpers in test/helpers/world.ts: serverTicks, roundTrip, pickupDelayOver).',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'node:timers/promises',
              importNames: ['setTimeout'],
              message: 'A fixed sleep: wait for the event or condition itself (waitUntil in test/helpers/wait.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // The one polling helper waits between its checks.
    files: ['test/helpers/wait.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
