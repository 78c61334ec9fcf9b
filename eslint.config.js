// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { vigilBoundaries } from './scripts/eslint-boundaries.mjs';
import {
  coreImports,
  electronLayerZones,
  nodeBuiltins,
  nodeGlobals,
  rendererImports,
  transportGlobals,
  wsOutsideTransport,
} from './scripts/eslint-import-rules.mjs';

/** Feature folders of the renderer: each may not import another. */
const rendererFeatures = readdirSync(new URL('./renderer/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The app never blocks its event loop on the file system (tests and scripts may). */
const noSyncCalls = [
  {
    selector: 'CallExpression[callee.property.name=/Sync$/]',
    message: 'No *Sync calls in the app: they block the event loop.',
  },
  {
    selector: 'ImportSpecifier[imported.name=/Sync$/]',
    message: 'No *Sync calls in the app: they block the event loop.',
  },
];

/** One owner for the checkpoint engine's events, so what the UI receives is decided in one file. */
const checkpointEventsOwner = {
  selector: "CallExpression[callee.property.name='emit'][arguments.0.value=/^checkpoints:/]",
  message:
    'Only CheckpointAnnouncer (electron/checkpoints/events/checkpoint-announcer.ts) emits checkpoints:* events: call its method for the event.',
};

export default tseslint.config(
  {
    ignores: ['out/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'bench/results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['eslint.config.js', 'scripts/*.mjs', '.ci/*.mjs', 'bench/*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { vigil: vigilBoundaries },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      'vigil/no-default-export': 'error',
      'vigil/no-duplicate-imports': 'error',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: globals.node },
  },
  // Config files must default-export.
  { files: ['*.config.ts', '*.config.js', 'bench/*.config.ts'], rules: { 'vigil/no-default-export': 'off' } },

  // ── Boundaries (house-style.md) ──────────────────────────────────────────────
  // shared/ imports only shared/: no Node, no Electron, no React, no DOM.
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: nodeBuiltins, message: 'shared/ is pure TypeScript: no Node built-ins.' },
            {
              group: ['electron', 'react', 'react-dom', 'react/*', 'zustand', 'zustand/*', 'ws'],
              message: 'shared/ may not import Electron, React, the store or ws.',
            },
            {
              group: ['**/electron/**', '**/renderer/**', '../electron', '../renderer'],
              message: 'shared/ imports only shared/.',
            },
          ],
        },
      ],
    },
  },
  // The core never imports Electron: only the shell (main.ts, preload.ts, shell/) may. Only the
  // transport layer (server/, gateway/, transport/) speaks raw WebSocket with `ws`.
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/main.ts', 'electron/preload.ts', 'electron/shell/**'],
    rules: { 'no-restricted-imports': coreImports() },
  },
  {
    files: ['electron/server/**/*.ts', 'electron/gateway/**/*.ts', 'electron/transport/**/*.ts'],
    rules: { 'no-restricted-imports': coreImports({ isTransport: true }) },
  },
  {
    files: ['electron/main.ts', 'electron/preload.ts', 'electron/shell/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [wsOutsideTransport] }] },
  },
  // The main process's layers: no import runs up from lib/ or a feature folder to the composition.
  // Tests and their helpers sit above every layer: they may build the whole app to test one part.
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/**/*.test.ts', 'electron/**/test-support/**'],
    rules: { 'vigil/restricted-paths': ['error', { zones: electronLayerZones }] },
  },
  // Faces by convention (house-style.md): every electron/<folder>/index.ts is that folder's one public
  // face, and so is the index.ts of any folder below (policy/shell/). Other folders, benchmarks and
  // scripts import only the face; tests and test support may reach inside, to test one part alone.
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['e2e/**'],
    rules: { 'vigil/public-face': ['error', { root: './electron', skip: ['test-support'] }] },
  },
  // The app never blocks its event loop on the file system (tests and scripts may).
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/**/*.test.ts', 'electron/**/test-support/**'],
    rules: {
      'no-restricted-syntax': ['error', ...noSyncCalls, checkpointEventsOwner],
    },
  },
  // The announcer is the one file that emits `checkpoints:*` events.
  {
    files: ['electron/checkpoints/events/checkpoint-announcer.ts'],
    rules: { 'no-restricted-syntax': ['error', ...noSyncCalls] },
  },
  // The renderer is a sandboxed web page: no Node, no Electron, no main-process code.
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': rendererImports(),
      ...transportGlobals,
      'vigil/restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './renderer/components',
              from: ['./renderer/stores', './renderer/features', './renderer/api', './renderer/app'],
              message: 'components/ are presentational: data comes in through props.',
            },
            {
              target: './renderer/stores',
              from: ['./renderer/features', './renderer/components', './renderer/app'],
              message: 'stores/ hold state and actions, not UI.',
            },
            {
              target: './renderer/model',
              from: [
                './renderer/stores',
                './renderer/components',
                './renderer/features',
                './renderer/api',
                './renderer/app',
              ],
              message: 'model/ is pure logic: no state, UI or transport.',
            },
            {
              target: './renderer/features',
              from: ['./renderer/app', './renderer/api'],
              message: 'features/ reach the core through the store.',
            },
            ...rendererFeatures.map((feature) => ({
              target: `./renderer/features/${feature}`,
              from: './renderer/features',
              except: [`./${feature}`],
              message: 'Features do not import each other; share through components/ or stores/.',
            })),
          ],
        },
      ],
    },
  },
  // Renderer tests run in Node: they may stand up real servers (Node built-ins, ws) to talk to.
  { files: ['renderer/**/*.test.{ts,tsx}'], rules: { 'no-restricted-imports': rendererImports({ isTest: true }) } },
  // The transport (renderer/api/): the one folder allowed to touch WebSocket and the preload bridge.
  {
    files: ['renderer/api/**/*.ts'],
    rules: {
      'no-restricted-imports': rendererImports({ isTransport: true }),
      'no-restricted-globals': ['error', ...nodeGlobals],
      'no-restricted-properties': 'off',
    },
  },
  {
    files: ['renderer/api/**/*.test.ts'],
    rules: { 'no-restricted-imports': rendererImports({ isTransport: true, isTest: true }) },
  },
  // Functions stay short enough to follow (docs/contributing.md): past ~80 lines, a function is split
  // into named steps. Tests' describe blocks are lists of cases and are exempt; the shell lexer and
  // parser keep their table-driven shape, each disabled at the function with the reason.
  {
    files: ['**/*.{ts,tsx,mjs}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  // Files stay small (house-style.md): past 300 lines, a file is split along its seams. Lines as
  // `wc -l` counts them, comments and blank lines included: they are read too. Tests, test support
  // and e2e are lists of cases and are exempt; so is bench/, whose files are lists of measured rows
  // that run outside the app, like a test file's cases.
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/test-support/**', 'e2e/**', 'bench/**'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  // renderer/model/ is pure, testable logic: no React either.
  {
    files: ['renderer/model/**/*.ts'],
    rules: {
      'no-restricted-imports': rendererImports({
        extraPatterns: [
          {
            group: ['react', 'react-dom', 'react/*', 'react-dom/*', 'zustand', 'zustand/*'],
            message: 'model/ is pure logic: no React, no store.',
          },
        ],
      }),
    },
  },
);
