// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { vigilBoundaries } from './scripts/eslint-boundaries.mjs';

/** Node's built-in modules, with and without the `node:` prefix. */
const nodeBuiltins = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'crypto',
  'child_process',
  'worker_threads',
  'http',
  'https',
  'net',
  'stream',
  'url',
  'util',
  'events',
  'buffer',
  'process',
  'zlib',
];

/** Raw WebSocket frames belong to the transport layer only. */
const wsOutsideTransport = {
  name: 'ws',
  message:
    'Only the transport layer (electron/server/, electron/gateway/, electron/transport/, agent-client/) speaks raw WebSocket.',
};

/** The core's import restrictions; `isTransport` lets the server, gateway and transport layer use `ws`. */
const coreImports = ({ isTransport = false } = {}) => [
  'error',
  {
    paths: [
      {
        name: 'electron',
        message: 'The core never imports electron; only electron/main.ts, electron/preload.ts and electron/shell/ do.',
      },
      ...(isTransport ? [] : [wsOutsideTransport]),
    ],
    patterns: [{ group: ['**/renderer/**'], message: 'The main process does not import the renderer.' }],
  },
];

/**
 * The renderer's import restrictions. `isTransport`: renderer/api/ may reach the preload bridge.
 * `isTest`: tests run in Node and may stand up real servers (Node built-ins, `ws`).
 * `extraPatterns`: a folder's own restrictions on top.
 */
const rendererImports = ({
  isTransport = false,
  isTest = false,
  extraPatterns = /** @type {{ group: string[], message: string }[]} */ ([]),
} = {}) => [
  'error',
  {
    paths: [
      { name: 'electron', message: 'The renderer is sandboxed: no Electron.' },
      ...(isTest ? [] : [wsOutsideTransport]),
    ],
    patterns: [
      ...(isTest ? [] : [{ group: nodeBuiltins, message: 'The renderer is a web page: no Node built-ins.' }]),
      { group: ['**/electron/**'], message: 'The renderer reaches the core only through renderer/api/.' },
      ...(isTransport
        ? []
        : [
            {
              group: ['**/shared/contract/bridge', '**/shared/contract/bridge.*'],
              message: 'Only renderer/api/ reaches the preload bridge.',
            },
          ]),
      ...extraPatterns,
    ],
  },
];

/** Node's globals, which no part of the renderer has (renderer/api/ included). */
const nodeGlobals = [
  { name: 'require', message: 'The renderer has no require.' },
  { name: 'process', message: 'The renderer has no process.' },
];

/** Only renderer/api/ may touch the transport: the WebSocket class and the preload bridge, however they are spelled. */
const transportGlobals = {
  'no-restricted-globals': [
    'error',
    { name: 'WebSocket', message: 'Only renderer/api/ talks to the transport.' },
    { name: 'vigil', message: 'Only renderer/api/ reaches the preload bridge.' },
    ...nodeGlobals,
  ],
  'no-restricted-properties': [
    'error',
    ...['window', 'globalThis', 'self'].flatMap((object) => [
      { object, property: 'WebSocket', message: 'Only renderer/api/ talks to the transport.' },
      { object, property: 'vigil', message: 'Only renderer/api/ reaches the preload bridge.' },
    ]),
  ],
};

/** Feature folders of the renderer: each may not import another. */
const rendererFeatures = readdirSync(new URL('./renderer/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The main process in layers, top to bottom: the entry points (main.ts, shell/, server/, cli/), the
 * composition (core/), the feature folders, and lib/ (events, disposers, paths, small utilities).
 * No import runs up a layer.
 */
// The folders others reach only through their index.ts (vigil/public-face).
const checkpointsFace = {
  folder: './electron/checkpoints',
  message: 'Import the checkpoint engine through electron/checkpoints/index.ts, its public face.',
};
const memoryFace = {
  folder: './electron/memory',
  message: 'Import the memory store through electron/memory/index.ts, its public face.',
};
const shellFace = {
  folder: './electron/policy/shell',
  message: 'Import the shell parser through electron/policy/shell/index.ts, its public face.',
};
const toolsFace = {
  folder: './electron/tools',
  message: 'Import the agent tools through electron/tools/index.ts, their public face (the adapter table).',
};

const entryFolders = ['cli', 'server', 'shell'];
const layerFolders = new Set([...entryFolders, 'core', 'lib']);
const electronFeatures = readdirSync(new URL('./electron', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !layerFolders.has(entry.name))
  .map((entry) => entry.name);
const electronLayerZones = [
  {
    target: './electron/lib',
    from: './electron',
    except: ['./lib'],
    message: 'lib/ is the bottom layer: it imports only lib/ and shared/.',
  },
  ...electronFeatures.map((feature) => ({
    target: `./electron/${feature}`,
    from: ['./electron/core', ...entryFolders.map((folder) => `./electron/${folder}`)],
    message:
      'Feature folders sit below the composition: they receive what they need as arguments and never import core/ or an entry point.',
  })),
  {
    target: './electron/core',
    from: entryFolders.map((folder) => `./electron/${folder}`),
    message:
      'core/ composes the features; the entry points (cli/, server/, shell/) build on it, not the other way round.',
  },
];

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
  // A feature folder shows one public face (house-style.md): other folders, tests and benchmarks
  // included, import only its index.ts; their tests may also use its test-support/ fixtures.
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      'vigil/public-face': [
        'error',
        {
          faces: [checkpointsFace, memoryFace, shellFace, toolsFace],
        },
      ],
    },
  },
  // The app never blocks its event loop on the file system (tests and scripts may).
  {
    files: ['electron/**/*.ts'],
    ignores: ['electron/**/*.test.ts', 'electron/**/test-support/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/Sync$/]',
          message: 'No *Sync calls in the app: they block the event loop.',
        },
        {
          selector: 'ImportSpecifier[imported.name=/Sync$/]',
          message: 'No *Sync calls in the app: they block the event loop.',
        },
      ],
    },
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
