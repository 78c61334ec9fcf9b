import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The house style's boundaries as the REAL eslint.config.js enforces them: small in-memory files
 * linted as if they lived at a path in this repository, so a wrong glob or a lost rule fails here.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const boundaryRules = new Set([
  'no-restricted-imports',
  'no-restricted-globals',
  'no-restricted-properties',
  'no-restricted-syntax',
]);

const eslint = new ESLint({
  cwd: root,
  // The files are not on disk, so TypeScript's project service cannot type them; the boundary
  // rules need no types, and only they run.
  overrideConfig: [{ languageOptions: { parserOptions: { projectService: false, project: null } } }],
  ruleFilter: ({ ruleId }) =>
    boundaryRules.has(ruleId) || ruleId.startsWith('vigil/') || ruleId.startsWith('max-lines'),
});

/** The boundary problems the real config reports for `code` at `file` (relative to the repository). */
async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  if (result === undefined) throw new Error(`ESLint returned nothing for ${file}`);
  return result.messages.map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

describe('the real ESLint config keeps the house-style boundaries', () => {
  it('the core never imports electron; the shell may', async () => {
    expect(
      await lint('electron/checkpoints/zz-fake.ts', "import { app } from 'electron';\nexport const a = app;\n"),
    ).toEqual([expect.stringMatching(/^no-restricted-imports: .*The core never imports electron/)]);
    expect(await lint('electron/memory/deep/zz-fake.ts', "export { app } from 'electron';\n")).toHaveLength(1);
    expect(await lint('electron/main.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual([]);
    expect(await lint('electron/shell/zz-fake.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual(
      [],
    );
  });

  it('shared/ imports no Node built-ins, no Electron and nothing outside shared/', async () => {
    expect(
      await lint('shared/zz-fake.ts', "import { readFile } from 'node:fs';\nexport const a = readFile;\n"),
    ).toEqual([expect.stringMatching(/^no-restricted-imports: .*no Node built-ins/)]);
    expect(await lint('shared/contract/zz-fake.ts', "import path from 'path';\nexport const a = path;\n")).toHaveLength(
      1,
    );
    expect(
      await lint('shared/zz-fake.ts', "import { x } from '../renderer/model/x';\nexport const a = x;\n"),
    ).toHaveLength(1);
    expect(
      await lint(
        'shared/zz-fake.ts',
        "import { z } from 'zod';\nimport { ok } from './result';\nexport const a = [z, ok];\n",
      ),
    ).toEqual([]);
  });

  it('one renderer feature does not import another; inside a feature is fine', async () => {
    expect(
      await lint(
        'renderer/features/timeline/zz-fake.tsx',
        "import { x } from '../memory/memory-screen';\nexport const a = x;\n",
      ),
    ).toEqual([expect.stringMatching(/^vigil\/restricted-paths: Features do not import each other/)]);
    expect(
      await lint(
        'renderer/features/sessions/zz-fake.tsx',
        "import { x } from '../approvals/x';\nexport const a = x;\n",
      ),
    ).toHaveLength(1);
    expect(
      await lint(
        'renderer/features/timeline/zz-fake.tsx',
        "import { x } from './timeline-list';\nexport const a = x;\n",
      ),
    ).toEqual([]);
  });

  it('only renderer/api/ touches WebSocket or the preload bridge, however it is spelled', async () => {
    const transport = [
      "export const a = new WebSocket('ws://127.0.0.1/ws');",
      'export const b = window.WebSocket;',
      'export const c = globalThis.WebSocket;',
      "export const d = window['vigil'];",
      'export const e = window.vigil;',
    ];
    for (const line of transport) {
      expect(await lint('renderer/stores/zz-fake.ts', `${line}\n`), line).toEqual([
        expect.stringMatching(/Only renderer\/api\//),
      ]);
      expect(await lint('renderer/api/zz-fake.ts', `${line}\n`), line).toEqual([]);
    }
    const bridge =
      "import { bridgeGlobalName } from '../../shared/contract/bridge';\nexport const a = bridgeGlobalName;\n";
    expect(await lint('renderer/components/zz-fake.ts', bridge)).toEqual([
      expect.stringMatching(/Only renderer\/api\/ reaches the preload bridge/),
    ]);
    expect(await lint('renderer/model/zz-fake.ts', bridge)).toHaveLength(1);
    expect(await lint('renderer/api/zz-fake.ts', bridge)).toEqual([]);
  });

  it('the renderer stays a web page: no Node, no Electron, no ws; its Node-run tests may stand up servers', async () => {
    const server =
      "import { createServer } from 'node:http';\nimport { WebSocketServer } from 'ws';\nexport const a = [createServer, WebSocketServer];\n";
    expect(await lint('renderer/stores/zz-fake.ts', server)).toHaveLength(2);
    expect(await lint('renderer/api/zz-fake.ts', server)).toHaveLength(2);
    expect(await lint('renderer/api/zz-fake.test.ts', server)).toEqual([]);
    expect(await lint('renderer/components/zz-fake.test.tsx', server)).toEqual([]);
    expect(
      await lint('renderer/components/zz-fake.test.tsx', "import { app } from 'electron';\nexport const a = app;\n"),
    ).toHaveLength(1);
  });

  it('only the transport layer imports ws', async () => {
    const ws = "import { WebSocketServer } from 'ws';\nexport const a = WebSocketServer;\n";
    for (const file of ['electron/server/zz-fake.ts', 'electron/gateway/zz-fake.ts', 'electron/transport/zz-fake.ts']) {
      expect(await lint(file, ws), file).toEqual([]);
    }
    for (const file of [
      'electron/checkpoints/zz-fake.ts',
      'electron/memory/zz-fake.ts',
      'electron/main.ts',
      'electron/shell/zz-fake.ts',
      'shared/zz-fake.ts',
      'renderer/stores/zz-fake.ts',
      'renderer/model/zz-fake.ts',
    ]) {
      expect(await lint(file, ws), file).toEqual([expect.stringMatching(/^no-restricted-imports: .*ws/)]);
    }
  });

  it('diff/ and restore/ never import each other; both import compare/, which imports neither', async () => {
    expect(
      await lint(
        'electron/checkpoints/diff/zz-fake.ts',
        "import { restoreServiceFor } from '../restore/restore-service';\nexport const a = restoreServiceFor;\n",
      ),
    ).toEqual([expect.stringMatching(/^vigil\/restricted-paths: diff\/ never imports restore\//)]);
    expect(
      await lint(
        'electron/checkpoints/restore/deep/zz-fake.ts',
        "export { diffPage } from '../../diff/diff-checkpoint';\n",
      ),
    ).toEqual([expect.stringMatching(/^vigil\/restricted-paths: restore\/ never imports diff\//)]);
    expect(
      await lint('electron/checkpoints/restore/zz-fake.ts', "export const a = import('../diff/diff-service');\n"),
    ).toEqual([expect.stringMatching(/^vigil\/restricted-paths: restore\/ never imports diff\//)]);
    expect(
      await lint(
        'electron/checkpoints/compare/zz-fake.ts',
        "import { planRestore } from '../restore/restore-plan';\nexport const a = planRestore;\n",
      ),
    ).toEqual([expect.stringMatching(/^vigil\/restricted-paths: compare\/ sits below/)]);
    expect(
      await lint(
        'electron/checkpoints/compare/zz-fake.ts',
        "export { createHistoryService } from '../history/history-service';\n",
      ),
    ).toEqual([expect.stringMatching(/^vigil\/restricted-paths: compare\/ sits below/)]);
    // Through compare/'s face, from either side: allowed.
    expect(
      await lint(
        'electron/checkpoints/restore/zz-fake.ts',
        "import { diffTrees } from '../compare';\nexport const a = diffTrees;\n",
      ),
    ).toEqual([]);
    expect(
      await lint(
        'electron/checkpoints/diff/zz-fake.ts',
        "import { openDiffSides } from '../compare';\nexport const a = openDiffSides;\n",
      ),
    ).toEqual([]);
    // compare/ has a face: no deep import into it from its neighbours.
    expect(
      await lint(
        'electron/checkpoints/restore/zz-fake.ts',
        "import { diffTrees } from '../compare/diff-tree-changes';\nexport const a = diffTrees;\n",
      ),
    ).toEqual([expect.stringMatching(/^vigil\/public-face: Import electron\/checkpoints\/compare through its face/)]);
  });

  it('no import runs up the main process layers: lib/ < features < core/ < entry points', async () => {
    const layer = /^vigil\/restricted-paths: /;
    expect(await lint('electron/lib/zz-fake.ts', "import { x } from '../files';\nexport const a = x;\n")).toEqual([
      expect.stringMatching(/^vigil\/restricted-paths: lib\/ is the bottom layer/),
    ]);
    expect(await lint('electron/lib/zz-fake.ts', "import { x } from '../core';\nexport const a = x;\n")).toEqual([
      expect.stringMatching(layer),
    ]);
    expect(
      await lint('electron/memory/zz-fake.ts', "import { createCore } from '../core';\nexport const a = createCore;\n"),
    ).toEqual([expect.stringMatching(/^vigil\/restricted-paths: Feature folders sit below the composition/)]);
    expect(await lint('electron/checkpoints/deep/zz-fake.ts', "export { x } from '../../server';\n")).toEqual([
      expect.stringMatching(layer),
    ]);
    expect(await lint('electron/sessions/zz-fake.ts', "export const a = import('../cli');\n")).toEqual([
      expect.stringMatching(layer),
    ]);
    expect(await lint('electron/core/zz-fake.ts', "import { x } from '../shell';\nexport const a = x;\n")).toEqual([
      expect.stringMatching(/^vigil\/restricted-paths: core\/ composes the features/),
    ]);
    // The git store sits below checkpoints/ and hermes/: it never imports the timeline or anything above it.
    const store = /^vigil\/restricted-paths: git-store\/ is the bottom of the checkpoint rooms/;
    expect(
      await lint(
        'electron/git-store/zz-fake.ts',
        "import type { Timeline } from '../checkpoints/timeline/timeline';\nexport type A = Timeline;\n",
      ),
    ).toEqual(expect.arrayContaining([expect.stringMatching(store)]));
    expect(
      await lint('electron/git-store/zz-fake.ts', "import { x } from '../checkpoints';\nexport const a = x;\n"),
    ).toEqual([expect.stringMatching(store)]);
    expect(await lint('electron/git-store/zz-fake.ts', "export const a = import('../hermes');\n")).toEqual([
      expect.stringMatching(store),
    ]);
    const allowed: [string, string][] = [
      ['electron/memory/zz-fake.ts', "import { EventHub } from '../lib';\nexport const a = EventHub;\n"],
      [
        'electron/lib/zz-fake.ts',
        "import { once } from './once';\nimport { ok } from '../../shared/result';\nexport const a = [once, ok];\n",
      ],
      [
        'electron/core/zz-fake.ts',
        "import { loadMemoryService } from '../memory';\nexport const a = loadMemoryService;\n",
      ],
      ['electron/server/zz-fake.ts', "import { createCore } from '../core';\nexport const a = createCore;\n"],
      ['electron/memory/zz-fake.test.ts', "import { createCore } from '../core';\nexport const a = createCore;\n"],
      [
        'electron/git-store/zz-fake.ts',
        "import { syncDirectory } from '../files';\nimport { once } from '../lib';\nimport { AppError } from '../../shared/errors';\nexport const a = [syncDirectory, once, AppError];\n",
      ],
      [
        'electron/git-store/zz-fake.test.ts',
        "import { Timeline } from '../checkpoints/timeline/timeline';\nexport const a = Timeline;\n",
      ],
      ['electron/hermes/zz-fake.ts', "import { ObjectStore } from '../git-store';\nexport const a = ObjectStore;\n"],
    ];
    for (const [file, code] of allowed) expect(await lint(file, code), file).toEqual([]);
  });

  it('the app makes no *Sync fs calls; its tests may', async () => {
    const sync = "import { readFileSync } from 'node:fs';\nexport const a = readFileSync('x');\n";
    const member = "import fs from 'node:fs';\nexport const a = fs.statSync('x');\n";
    expect(await lint('electron/files/zz-fake.ts', sync)).toEqual([
      expect.stringMatching(/^no-restricted-syntax: No \*Sync calls/),
    ]);
    expect(await lint('electron/files/zz-fake.ts', member)).toEqual([
      expect.stringMatching(/^no-restricted-syntax: No \*Sync calls/),
    ]);
    expect(await lint('electron/files/zz-fake.test.ts', sync)).toEqual([]);
  });

  it('only the checkpoint announcer emits checkpoints:* events; other events and the announcer itself are fine', async () => {
    const emit = (name: string): string =>
      `declare const events: { emit(name: string, payload: unknown): void };\nevents.emit('${name}', {});\n`;
    const owner = /^no-restricted-syntax: Only CheckpointAnnouncer .* emits checkpoints:\* events/;
    expect(await lint('electron/checkpoints/zz-fake.ts', emit('checkpoints:cut'))).toEqual([
      expect.stringMatching(owner),
    ]);
    expect(await lint('electron/core/zz-fake.ts', emit('checkpoints:created'))).toEqual([expect.stringMatching(owner)]);
    expect(await lint('electron/core/zz-fake.ts', emit('config:changed'))).toEqual([]);
    expect(await lint('electron/checkpoints/events/checkpoint-announcer.ts', emit('checkpoints:cut'))).toEqual([]);
    expect(await lint('electron/checkpoints/zz-fake.test.ts', emit('checkpoints:cut'))).toEqual([]);
  });

  it('faces by convention: another folder’s inside is reached only through its index.ts, any folder, listed or not', async () => {
    const face = /^vigil\/public-face: Import electron\/checkpoints through its face, electron\/checkpoints\/index\.ts/;
    const deep = [
      "import { Timeline } from '../checkpoints/timeline/timeline';\nexport const a = Timeline;\n",
      "import type { CheckpointEntry } from '../checkpoints/checkpoint-types';\nexport type A = CheckpointEntry;\n",
      "export const a = import('../checkpoints/checkpoint-service');\n",
      "export { lineChanges } from '../checkpoints/snapshot/line-stats';\n",
    ];
    for (const code of deep)
      expect(await lint('electron/hermes/zz-fake.ts', code), code).toEqual([expect.stringMatching(face)]);
    // No list names the folders: a folder that does not exist yet is already a face.
    expect(
      await lint('electron/memory/zz-fake.ts', "import { x } from '../zz-new-folder/inner';\nexport const a = x;\n"),
    ).toEqual([
      expect.stringMatching(/Import electron\/zz-new-folder through its face, electron\/zz-new-folder\/index\.ts/),
    ]);
    expect(
      await lint(
        'bench/zz-fake.bench.ts',
        "import { dirHash } from '../electron/git-store/store-layout';\nexport const a = dirHash;\n",
      ),
    ).toEqual([expect.stringMatching(/Import electron\/git-store through its face, electron\/git-store\/index\.ts/)]);
    const allowed: [string, string][] = [
      [
        'electron/hermes/zz-fake.ts',
        "import type { CheckpointEntry } from '../checkpoints';\nimport { dirHash } from '../git-store';\nexport const a: CheckpointEntry | string = dirHash('x');\n",
      ],
      ['electron/hermes/zz-fake.ts', "export { x } from '../zz-new-folder/index';\n"],
      [
        'electron/checkpoints/restore/zz-fake.ts',
        "import { Timeline } from '../timeline/timeline';\nexport const a = Timeline;\n",
      ],
      [
        'electron/memory/zz-fake.ts',
        "import { parseEntries } from './memory-format';\nexport const a = parseEntries;\n",
      ],
      // Tests and test support may reach inside another folder, to test one part alone.
      [
        'electron/hermes/zz-fake.test.ts',
        "import { ObjectStore } from '../git-store/object-store';\nexport const a = ObjectStore;\n",
      ],
      ['electron/hermes/test-support/zz-fake.ts', "export { Timeline } from '../../checkpoints/timeline/timeline';\n"],
      // Benchmarks may use a folder's test fixtures, as its tests do.
      [
        'bench/zz-fake.bench.ts',
        "import { git } from '../electron/checkpoints/test-support/store-fixtures';\nexport const a = git;\n",
      ],
    ];
    for (const [file, code] of allowed) expect(await lint(file, code), `${file}: ${code}`).toEqual([]);
  });

  it('a folder below with an index.ts is a face too: the shell parser is reached through it, from policy/ itself too', async () => {
    const deep = "import { parseShell } from './shell/shell-parser';\nexport const a = parseShell;\n";
    expect(await lint('electron/policy/zz-fake.ts', deep)).toEqual([
      expect.stringMatching(/^vigil\/public-face: Import electron\/policy\/shell through its face/),
    ]);
    expect(await lint('electron/policy/zz-fake.test.ts', deep)).toEqual([]);
    expect(
      await lint(
        'electron/policy/zz-fake.ts',
        "import { parseShell, type ShellWord } from './shell';\nexport const a: [typeof parseShell, ShellWord?] = [parseShell];\n",
      ),
    ).toEqual([]);
    expect(
      await lint(
        'electron/policy/shell/zz-fake.ts',
        "import { tokenize } from './shell-lexer';\nexport const a = tokenize;\n",
      ),
    ).toEqual([]);
  });

  it('a file over 300 lines fails outside tests, comments and blank lines counted; tests, e2e and bench may be longer', async () => {
    const file = (lines: number): string =>
      `/** A file of ${lines} lines. */\n${'export const a = 1;\n\n// why\n'.repeat((lines - 1) / 3)}`;
    expect(file(301).split('\n')).toHaveLength(302);
    for (const path of [
      'electron/checkpoints/zz-fake.ts',
      'shared/contract/zz-fake.ts',
      'renderer/features/timeline/zz-fake.tsx',
      'scripts/zz-fake.ts',
    ]) {
      expect(await lint(path, file(301)), path).toEqual([
        expect.stringMatching(/^max-lines: File has too many lines \(301\)\. Maximum allowed is 300/),
      ]);
      expect(await lint(path, file(298)), path).toEqual([]);
    }
    for (const path of [
      'electron/checkpoints/zz-fake.test.ts',
      'electron/test-support/zz-fake.ts',
      'e2e/zz-fake.spec.ts',
      'bench/zz-fake.bench.ts',
    ]) {
      expect(await lint(path, file(301)), path).toEqual([]);
    }
  });

  it('no production file is exempt: the files that were over 300 lines are split, and a 301-line one fails wherever it goes', async () => {
    for (const path of ['electron/checkpoints/checkpoint-service.ts', 'electron/sessions/session-registry.ts']) {
      expect(await lint(path, 'export const a = 1;\n'.repeat(301)), path).toEqual([
        expect.stringMatching(/^max-lines: File has too many lines \(301\)\. Maximum allowed is 300\./),
      ]);
    }
  });

  it('a function over 80 lines fails outside tests; a test file’s describe block may be longer', async () => {
    const long = `export function long(): number {\n  let total = 0;\n${'  total += 1;\n'.repeat(80)}  return total;\n}\n`;
    expect(await lint('electron/checkpoints/zz-fake.ts', long)).toEqual([
      expect.stringMatching(/^max-lines-per-function: Function 'long' has too many lines \(84\)/),
    ]);
    expect(await lint('renderer/features/timeline/zz-fake.tsx', long)).toHaveLength(1);
    expect(await lint('electron/checkpoints/zz-fake.test.ts', long)).toEqual([]);
    const short = `export function short(): number {\n  let total = 0;\n${'  total += 1;\n'.repeat(70)}  return total;\n}\n`;
    expect(await lint('electron/checkpoints/zz-fake.ts', short)).toEqual([]);
  });
});
