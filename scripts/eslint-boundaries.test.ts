import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module with JSDoc types, loaded by ESLint itself
import { vigilBoundaries } from './eslint-boundaries.mjs';

const root = path.resolve('/project');

const zones = [
  { target: './renderer/components', from: ['./renderer/stores'], message: 'components/ are presentational.' },
  { target: './renderer/features/alpha', from: './renderer/features', except: ['./alpha'], message: 'Features do not import each other.' },
];

/** Lints `code` as if it were `file` under /project with Vigil's boundary rules on. */
const lint = (file: string, code: string): string[] => {
  const linter = new Linter({ cwd: root });
  const messages = linter.verify(code, [{
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, sourceType: 'module' },
    plugins: { vigil: vigilBoundaries as never },
    rules: {
      'vigil/restricted-paths': ['error', { zones }],
      'vigil/no-default-export': 'error',
      'vigil/no-duplicate-imports': 'error',
    },
  }], { filename: path.join(root, file) });
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
    expect(lint('renderer/components/button.ts', "import { icon } from './icon';\nimport { create } from 'zustand';")).toEqual([]);
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
