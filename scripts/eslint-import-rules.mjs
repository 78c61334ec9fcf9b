// @ts-check
import { readdirSync } from 'node:fs';
/** The import and global restrictions of the process boundaries (house-style.md), used by eslint.config.js. */

/** Node's built-in modules, with and without the `node:` prefix. */
export const nodeBuiltins = [
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
export const wsOutsideTransport = {
  name: 'ws',
  message:
    'Only the transport layer (electron/server/, electron/gateway/, electron/transport/, agent-client/) speaks raw WebSocket.',
};

/** The core's import restrictions; `isTransport` lets the server, gateway and transport layer use `ws`. */
export const coreImports = ({ isTransport = false } = {}) => [
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
export const rendererImports = ({
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
export const nodeGlobals = [
  { name: 'require', message: 'The renderer has no require.' },
  { name: 'process', message: 'The renderer has no process.' },
];

/** Only renderer/api/ may touch the transport: the WebSocket class and the preload bridge, however they are spelled. */
export const transportGlobals = {
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

/**
 * The main process in layers, top to bottom: the entry points (main.ts, shell/, server/, cli/), the
 * composition (core/), the feature folders, and lib/ (events, disposers, paths, small utilities).
 * No import runs up a layer. Among the features, git-store/ sits below checkpoints/ and hermes/.
 */
const entryFolders = ['cli', 'server', 'shell'];
const layerFolders = new Set([...entryFolders, 'core', 'lib']);
const electronFeatures = readdirSync(new URL('../electron', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !layerFolders.has(entry.name))
  .map((entry) => entry.name);
export const electronLayerZones = [
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
  // The git store is the bottom of the checkpoint rooms: checkpoints/ and hermes/ build on it, and it
  // knows nothing above it (no timeline, no checkpoint, no Hermes), only files/ and lib/ below it.
  {
    target: './electron/git-store',
    from: './electron',
    except: ['./git-store', './files', './lib'],
    message:
      'git-store/ is the bottom of the checkpoint rooms: it imports only git-store/, files/, lib/ and shared/; what it needs from above (a commit reader) comes in as an argument.',
  },
  {
    target: './electron/core',
    from: entryFolders.map((folder) => `./electron/${folder}`),
    message:
      'core/ composes the features; the entry points (cli/, server/, shell/) build on it, not the other way round.',
  },
  ...checkpointRoomZones(),
];

/**
 * Inside checkpoints/, diff and restore are neighbours that never import each other: what both
 * need (trees compared, the live tree, a file's version on disk, path scopes, line diffs) lives in
 * compare/, which sits below them and history/ and imports none of them.
 */
function checkpointRoomZones() {
  const room = (name) => `./electron/checkpoints/${name}`;
  const shared = 'what both need lives in checkpoints/compare/.';
  return [
    { target: room('diff'), from: room('restore'), message: `diff/ never imports restore/: ${shared}` },
    { target: room('restore'), from: room('diff'), message: `restore/ never imports diff/: ${shared}` },
    {
      target: room('compare'),
      from: ['diff', 'restore', 'history'].map(room),
      message: 'compare/ sits below diff/, restore/ and history/: it imports none of them.',
    },
  ];
}
