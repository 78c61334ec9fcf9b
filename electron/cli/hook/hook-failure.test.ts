import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/temp-dir';
import { readOnFailure } from './hook-failure';

describe("the hook process's own reading of what a failed checkpoint makes of a change", () => {
  it('takes checkpoints.onFailure, else its older name hooks.onFailure, else asks', async () => {
    const { dir, remove } = await makeTempDir('vigil-hook-failure-');
    try {
      const file = path.join(dir, 'config.json');
      const cases: readonly [unknown, 'ask' | 'allow'][] = [
        [{ checkpoints: { onFailure: 'allow' } }, 'allow'],
        [{ hooks: { onFailure: 'allow' } }, 'allow'],
        [{ checkpoints: { onFailure: 'ask' }, hooks: { onFailure: 'allow' } }, 'ask'],
        [{ checkpoints: { maxSnapshots: 5 } }, 'ask'],
        [{}, 'ask'],
      ];
      for (const [config, expected] of cases) {
        await writeFile(file, JSON.stringify(config));
        expect([config, await readOnFailure(file)]).toEqual([config, expected]);
      }
      await writeFile(file, '{ not json');
      expect(await readOnFailure(file)).toBe('ask');
      expect(await readOnFailure(path.join(dir, 'missing.json'))).toBe('ask');
    } finally {
      await remove();
    }
  });
});
