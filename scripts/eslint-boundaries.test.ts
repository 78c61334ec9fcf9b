import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module with JSDoc types, loaded by ESLint itself
import { vigilBoundaries } from './eslint-boundaries.mjs';

/** A real folder tree: the face rule looks for index.ts files on disk. core/engine/parser has one. */
const root = mkdtempSync(path.join(os.tmpdir(), 'vigil-eslint-boundaries-'));
mkdirSync(path.join(root, 'core/engine/parser'), { recursive: true });
writeFileSync(path.join(root, 'core/engine/parser/index.ts'), 'export {};\n');
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const zones = [
  { target: './renderer/components', from: ['./renderer/stores'], message: 'components/ are presentational.' },
  {
    target: './renderer/features/alpha',
    from: './renderer/features',
    except: ['./alpha'],
    message: 'Features do not import each other.',
  },
];

/** Lints `code` as if it were `file` under `cwd` (the temporary root unless named) with Vigil's boundary rules on. */
const lint = (file: string, code: string, cwd = root, faceRoot = './core'): string[] => {
  const linter = new Linter({ cwd });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser, sourceType: 'module' },
        plugins: { vigil: vigilBoundaries as never },
        rules: {
          'vigil/restricted-paths': ['error', { zones }],
          'vigil/public-face': ['error', { root: faceRoot, skip: ['test-support'] }],
          'vigil/no-default-export': 'error',
          'vigil/no-duplicate-imports': 'error',
        },
      },
    ],
    { filename: path.join(cwd, file) },
  );
  return messages.map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
};

describe('vigil/restricted-paths', () => {
  it('refuses an import, re-export or dynamic import that crosses into a forbidden folder', () => {
    expect(lint('renderer/components/button.ts', "import { store } from '../stores/app-store';")).toEqual([
      'vigil/restricted-paths: components/ are presentational. (../stores/app-store)',
    ]);
    expect(lint('renderer/components/deep/row.ts', "export { store } from '../../stores';")).toHaveLength(1);
    expect(lint('renderer/components/row.ts', "const m = import('../stores/x');")).toHaveLength(1);
  });

  it('allows imports inside the zone, its exceptions and bare packages', () => {
    expect(
      lint('renderer/components/button.ts', "import { icon } from './icon';\nimport { create } from 'zustand';"),
    ).toEqual([]);
    expect(lint('renderer/features/alpha/view.ts', "import { part } from '../alpha/part';")).toEqual([]);
    expect(lint('renderer/stores/app-store.ts', "import { x } from '../stores/other';")).toEqual([]);
  });

  it('keeps one feature out of another', () => {
    expect(lint('renderer/features/alpha/view.ts', "import { beta } from '../beta/view';")).toEqual([
      'vigil/restricted-paths: Features do not import each other. (../beta/view)',
    ]);
  });
});

describe('vigil/no-default-export and vigil/no-duplicate-imports', () => {
  it('refuses default exports in both spellings', () => {
    expect(lint('a.ts', 'export default 1;')).toHaveLength(1);
    expect(lint('a.ts', 'const a = 1;\nexport { a as default };')).toHaveLength(1);
    expect(lint('a.ts', 'export const a = 1;')).toEqual([]);
  });

  it('refuses a module imported twice, but counts a type-only import apart', () => {
    expect(lint('a.ts', "import { a } from './m';\nimport { b } from './m';\nexport const c = a + b;")).toHaveLength(1);
    expect(lint('a.ts', "import type { A } from './m';\nimport { b } from './m';\nexport const c: A = b;")).toEqual([]);
  });
});

describe('vigil/public-face', () => {
  it("refuses an import, type import, re-export or dynamic import past another folder's index", () => {
    expect(lint('core/app/run.ts', "import { snapshot } from '../engine/snapshot/snapshot';")).toEqual([
      'vigil/public-face: Import core/engine through its face, core/engine/index.ts: other folders never reach inside it (../engine/snapshot/snapshot).',
    ]);
    expect(lint('core/app/run.ts', "import type { Entry } from '../engine/types';")).toHaveLength(1);
    expect(lint('core/app/run.ts', "export { x } from '../engine/x';")).toHaveLength(1);
    expect(lint('core/app/run.ts', "const m = import('../engine/x');")).toHaveLength(1);
    expect(lint('bench/engine.bench.ts', "import { x } from '../core/engine/x';")).toHaveLength(1);
    expect(lint('main.ts', "import { x } from './core/engine/x';")).toHaveLength(1);
  });

  it('needs no list: every folder under the root is a face, whether or not its index exists yet', () => {
    expect(lint('core/app/run.ts', "import { x } from '../brand-new/x';")).toEqual([
      expect.stringContaining('Import core/brand-new through its face, core/brand-new/index.ts'),
    ]);
  });

  it('allows the index in every spelling, anything inside the folder itself, and the listed exceptions', () => {
    expect(
      lint(
        'core/app/run.ts',
        "import { a } from '../engine';\nimport { b } from '../engine/index';\nimport { c } from '../engine/index.ts';",
      ),
    ).toEqual([]);
    expect(lint('core/engine/service.ts', "import { snapshot } from './snapshot/snapshot';")).toEqual([]);
    expect(lint('core/engine/restore/plan.ts', "import { x } from '../store/objects';")).toEqual([]);
    expect(
      lint('core/app/run.ts', "import { y } from 'engine/deep';\nimport { z } from '../../shared/deep/z';"),
    ).toEqual([]);
    expect(lint('core/app/run.ts', "import { y } from '../test-support/y';")).toEqual([]);
  });

  it('has no list of exempt folders: the lowest layers of this repository, lib/ and files/, are faced too', () => {
    const repo = path.resolve(import.meta.dirname, '..');
    const app = (code: string) => lint('electron/cli/some-command.ts', code, repo, './electron');
    expect(app("import { writeFileAtomic } from '../files/atomic-write';")).toEqual([
      'vigil/public-face: Import electron/files through its face, electron/files/index.ts: other folders never reach inside it (../files/atomic-write).',
    ]);
    expect(app("import { vigilPaths } from '../lib/vigil-home';")).toHaveLength(1);
    expect(app("import { stopProcess } from '../lib/process/stop-process';")).toHaveLength(1);
    expect(app("import { writeFileAtomic } from '../files';\nimport { loadStopProcess } from '../lib/lazy';")).toEqual(
      [],
    );
    expect(() =>
      new Linter().verify('', [
        {
          plugins: { vigil: vigilBoundaries as never },
          rules: { 'vigil/public-face': ['error', { root: '.', notYetFaced: ['lib'] }] },
        },
      ]),
    ).toThrow(/notYetFaced/);
  });

  it('holds for a folder below with its own index.ts: the parent reaches the parser only through it', () => {
    expect(lint('core/engine/service.ts', "import { parse } from './parser/parse';")).toEqual([
      expect.stringContaining('Import core/engine/parser through its face'),
    ]);
    expect(lint('core/engine/service.ts', "import { parse } from './parser';")).toEqual([]);
    expect(lint('core/engine/parser/parse.ts', "import { x } from '../store/objects';")).toEqual([]);
    // A folder below without an index.ts is no face of its own.
    expect(lint('core/engine/service.ts', "import { x } from './store/objects';")).toEqual([]);
  });

  it('accepts a lazy face, lazy.ts, that holds only loaders: a static value import in it fails', () => {
    expect(lint('core/app/run.ts', "import { loadSnapshot } from '../engine/lazy';")).toEqual([]);
    expect(lint('core/engine/lazy.ts', "export const loadSnapshot = () => import('./snapshot/snapshot');")).toEqual([]);
    expect(lint('core/engine/lazy.ts', "import type { Entry } from './types';")).toEqual([]);
    expect(lint('core/engine/lazy.ts', "import { snapshot } from './snapshot/snapshot';")).toEqual([
      expect.stringContaining('A lazy face (lazy.ts) holds only `load…()` functions'),
    ]);
    expect(lint('core/engine/lazy.ts', "export { snapshot } from './snapshot/snapshot';")).toHaveLength(1);
    expect(lint('core/engine/lazy.ts', "export * from './snapshot/snapshot';")).toHaveLength(1);
    expect(lint('core/app/run.ts', "import { x } from '../engine/lazy-more';")).toHaveLength(1);
  });

  it('lets tests and test support reach inside; benchmarks only into test-support fixtures', () => {
    expect(lint('core/app/run.test.ts', "import { x } from '../engine/x';")).toEqual([]);
    expect(lint('core/app/test-support/harness.ts', "import { x } from '../../engine/x';")).toEqual([]);
    expect(lint('bench/engine.bench.ts', "import { fixture } from '../core/engine/test-support/fixtures';")).toEqual(
      [],
    );
    expect(lint('core/app/run.ts', "import { fixture } from '../engine/test-support/fixtures';")).toHaveLength(1);
  });
});
