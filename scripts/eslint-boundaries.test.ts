import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module with JSDoc types, loaded by ESLint itself
import { vigilBoundaries } from './eslint-boundaries.mjs';

const root = path.resolve('/project');

const zones = [
  { target: './renderer/components', from: ['./renderer/stores'], message: 'components/ are presentational.' },
  {
    target: './renderer/features/alpha',
    from: './renderer/features',
    except: ['./alpha'],
    message: 'Features do not import each other.',
  },
];

const faces = [
  { folder: './core/engine', message: 'Use the engine through its index.' },
  { folder: './core/engine/parser', message: 'Use the parser through its index.' },
];

/** Lints `code` as if it were `file` under /project with Vigil's boundary rules on. */
const lint = (file: string, code: string): string[] => {
  const linter = new Linter({ cwd: root });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser, sourceType: 'module' },
        plugins: { vigil: vigilBoundaries as never },
        rules: {
          'vigil/restricted-paths': ['error', { zones }],
          'vigil/public-face': ['error', { faces }],
          'vigil/no-default-export': 'error',
          'vigil/no-duplicate-imports': 'error',
        },
      },
    ],
    { filename: path.join(root, file) },
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
  it("refuses an import, type import, re-export or dynamic import past a folder's index", () => {
    expect(lint('core/app/run.ts', "import { snapshot } from '../engine/snapshot/snapshot';")).toEqual([
      'vigil/public-face: Use the engine through its index. (../engine/snapshot/snapshot)',
    ]);
    expect(lint('core/app/run.ts', "import type { Entry } from '../engine/types';")).toHaveLength(1);
    expect(lint('core/app/run.ts', "export { x } from '../engine/x';")).toHaveLength(1);
    expect(lint('core/app/run.ts', "const m = import('../engine/x');")).toHaveLength(1);
    expect(lint('bench/engine.bench.ts', "import { x } from '../core/engine/x';")).toHaveLength(1);
  });

  it('allows the index in every spelling, and anything inside the folder itself', () => {
    expect(
      lint(
        'core/app/run.ts',
        "import { a } from '../engine';\nimport { b } from '../engine/index';\nimport { c } from '../engine/index.ts';",
      ),
    ).toEqual([]);
    expect(lint('core/engine/service.ts', "import { snapshot } from './snapshot/snapshot';")).toEqual([]);
    expect(lint('core/engine/restore/plan.ts', "import { x } from '../store/objects';")).toEqual([]);
    expect(lint('core/app/run.ts', "import { x } from '../other/deep/x';\nimport { y } from 'engine/deep';")).toEqual(
      [],
    );
  });

  it('holds for a face inside another folder: the parent reaches the parser only through its index', () => {
    expect(lint('core/engine/service.ts', "import { parse } from './parser/parse';")).toEqual([
      'vigil/public-face: Use the parser through its index. (./parser/parse)',
    ]);
    expect(lint('core/engine/service.ts', "import { parse } from './parser';")).toEqual([]);
    expect(lint('core/engine/parser/parse.ts', "import { x } from '../store/objects';")).toEqual([]);
  });

  it("lets tests, and only tests, use the folder's test-support fixtures", () => {
    expect(lint('core/app/run.test.ts', "import { fixture } from '../engine/test-support/fixtures';")).toEqual([]);
    expect(
      lint('core/app/test-support/harness.ts', "import { fixture } from '../../engine/test-support/fixtures';"),
    ).toEqual([]);
    expect(lint('core/app/run.ts', "import { fixture } from '../engine/test-support/fixtures';")).toHaveLength(1);
    expect(lint('core/app/run.test.ts', "import { x } from '../engine/x';")).toHaveLength(1);
  });
});
