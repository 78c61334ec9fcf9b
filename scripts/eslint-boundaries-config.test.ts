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
    boundaryRules.has(ruleId) || ruleId.startsWith('vigil/') || ruleId === 'max-lines-per-function',
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

  it('no import runs up the main process layers: lib/ < features < core/ < entry points', async () => {
    const layer = /^vigil\/restricted-paths: /;
    expect(
      await lint('electron/lib/zz-fake.ts', "import { x } from '../files/atomic-write';\nexport const a = x;\n"),
    ).toEqual([expect.stringMatching(/^vigil\/restricted-paths: lib\/ is the bottom layer/)]);
    expect(
      await lint('electron/lib/zz-fake.ts', "import { x } from '../core/create-core';\nexport const a = x;\n"),
    ).toEqual([expect.stringMatching(layer)]);
    expect(
      await lint(
        'electron/memory/zz-fake.ts',
        "import { createCore } from '../core/create-core';\nexport const a = createCore;\n",
      ),
    ).toEqual([expect.stringMatching(/^vigil\/restricted-paths: Feature folders sit below the composition/)]);
    expect(
      await lint('electron/checkpoints/deep/zz-fake.ts', "export { x } from '../../server/serve-info';\n"),
    ).toEqual([expect.stringMatching(layer)]);
    expect(await lint('electron/sessions/zz-fake.ts', "export const a = import('../cli/run-cli');\n")).toEqual([
      expect.stringMatching(layer),
    ]);
    expect(
      await lint('electron/core/zz-fake.ts', "import { x } from '../shell/desktop-gateway';\nexport const a = x;\n"),
    ).toEqual([expect.stringMatching(/^vigil\/restricted-paths: core\/ composes the features/)]);
    const allowed: [string, string][] = [
      ['electron/memory/zz-fake.ts', "import { EventHub } from '../lib/event-hub';\nexport const a = EventHub;\n"],
      [
        'electron/lib/zz-fake.ts',
        "import { once } from './once';\nimport { ok } from '../../shared/result';\nexport const a = [once, ok];\n",
      ],
      [
        'electron/core/zz-fake.ts',
        "import { loadMemoryService } from '../memory';\nexport const a = loadMemoryService;\n",
      ],
      [
        'electron/server/zz-fake.ts',
        "import { createCore } from '../core/create-core';\nexport const a = createCore;\n",
      ],
      [
        'electron/memory/zz-fake.test.ts',
        "import { createCore } from '../core/create-core';\nexport const a = createCore;\n",
      ],
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

  it('other folders import the checkpoint engine only through its index; the engine imports itself freely', async () => {
    const deep = [
      "import { ObjectStore } from '../checkpoints/store/object-store';\nexport const a = ObjectStore;\n",
      "import type { CheckpointEntry } from '../checkpoints/checkpoint-types';\nexport type A = CheckpointEntry;\n",
      "export const a = import('../checkpoints/checkpoint-service');\n",
    ];
    for (const code of deep) {
      expect(await lint('electron/hermes/zz-fake.ts', code), code).toEqual([
        expect.stringMatching(/^vigil\/public-face: .*electron\/checkpoints\/index\.ts/),
      ]);
      expect(await lint('electron/hermes/zz-fake.test.ts', code), code).toHaveLength(1);
    }
    expect(
      await lint(
        'bench/zz-fake.bench.ts',
        "import { dirHash } from '../electron/checkpoints/store/store-layout';\nexport const a = dirHash;\n",
      ),
    ).toHaveLength(1);
    expect(
      await lint(
        'electron/hermes/zz-fake.ts',
        "import { dirHash, type CheckpointEntry } from '../checkpoints';\nexport const a: CheckpointEntry | string = dirHash('x');\n",
      ),
    ).toEqual([]);
    expect(
      await lint(
        'electron/hermes/zz-fake.test.ts',
        "import { git } from '../checkpoints/test-support/store-fixtures';\nexport const a = git;\n",
      ),
    ).toEqual([]);
    expect(
      await lint(
        'electron/checkpoints/restore/zz-fake.ts',
        "import { ObjectStore } from '../store/object-store';\nexport const a = ObjectStore;\n",
      ),
    ).toEqual([]);
  });

  it('other folders import the memory store only through its index; memory/ imports itself freely', async () => {
    const deep = [
      "import { createMemoryService } from '../memory/memory-service';\nexport const a = createMemoryService;\n",
      "import type { MemoryConfig } from '../memory/memory-config';\nexport type A = MemoryConfig;\n",
      "export const a = import('../memory/configured-memory-service');\n",
    ];
    for (const code of deep) {
      expect(await lint('electron/core/zz-fake.ts', code), code).toEqual([
        expect.stringMatching(/^vigil\/public-face: .*electron\/memory\/index\.ts/),
      ]);
      expect(await lint('electron/executor/zz-fake.test.ts', code), code).toHaveLength(1);
    }
    expect(
      await lint(
        'bench/zz-fake.bench.ts',
        "import { joinEntries } from '../electron/memory/memory-format';\nexport const a = joinEntries;\n",
      ),
    ).toHaveLength(1);
    expect(
      await lint(
        'electron/core/zz-fake.ts',
        "import { memoryConfigSchema, type MemoryService } from '../memory';\nexport const a: [typeof memoryConfigSchema, MemoryService?] = [memoryConfigSchema];\n",
      ),
    ).toEqual([]);
    expect(
      await lint(
        'electron/hermes/zz-fake.test.ts',
        "import { hermesDrifts } from '../memory/test-support/hermes-drift-rule';\nexport const a = hermesDrifts;\n",
      ),
    ).toEqual([]);
    expect(
      await lint(
        'electron/memory/zz-fake.ts',
        "import { parseEntries } from './memory-format';\nexport const a = parseEntries;\n",
      ),
    ).toEqual([]);
  });

  it('the shell parser is reached only through its index, from policy/ itself too', async () => {
    const deep = "import { parseShell } from './shell/shell-parser';\nexport const a = parseShell;\n";
    expect(await lint('electron/policy/zz-fake.ts', deep)).toEqual([
      expect.stringMatching(/^vigil\/public-face: .*electron\/policy\/shell\/index\.ts/),
    ]);
    expect(
      await lint(
        'electron/policy/zz-fake.test.ts',
        "import type { ShellWord } from './shell/shell-lexer';\nexport type A = ShellWord;\n",
      ),
    ).toHaveLength(1);
    expect(
      await lint(
        'electron/executor/zz-fake.ts',
        "import { parseShell } from '../policy/shell/shell-parser';\nexport const a = parseShell;\n",
      ),
    ).toHaveLength(1);
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

  it('other folders reach the agent tools only through electron/tools/index.ts; a tool imports its own parts freely', async () => {
    const deep = [
      "import { prepareWriteFile } from '../tools/write-file/prepare';\nexport const a = prepareWriteFile;\n",
      "import type { PreparedCall } from '../tools/tool-adapter';\nexport type A = PreparedCall;\n",
      "export const a = import('../tools/terminal/run');\n",
    ];
    for (const code of deep) {
      expect(await lint('electron/executor/zz-fake.ts', code), code).toEqual([
        expect.stringMatching(/^vigil\/public-face: .*electron\/tools\/index\.ts/),
      ]);
      expect(await lint('electron/hooks/zz-fake.test.ts', code), code).toHaveLength(1);
    }
    expect(
      await lint(
        'electron/executor/zz-fake.ts',
        "import { createToolAdapters, type PreparedCall } from '../tools';\nexport const a: [typeof createToolAdapters, PreparedCall?] = [createToolAdapters];\n",
      ),
    ).toEqual([]);
    expect(
      await lint(
        'electron/tools/patch/zz-fake.ts',
        "import { fileCall } from '../file-call';\nimport { runPatch } from './run';\nexport const a = [fileCall, runPatch];\n",
      ),
    ).toEqual([]);
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
