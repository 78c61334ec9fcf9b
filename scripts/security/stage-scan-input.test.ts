import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../electron/test-support/temp-dir';
import { writeTree } from '../test-support/pack-asar';
import { isShippedSource, stageScanInput } from './stage-scan-input';

describe('stageScanInput', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('stages shipped sources, package.json and the built page, and leaves tests out', async () => {
    const temp = await makeTempDir('vigil-stage-');
    cleanup = temp.remove;
    const root = path.join(temp.dir, 'repo');
    writeTree(root, {
      'package.json': '{}',
      'out/renderer/index.html': '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'">',
      'out/main/main.js': 'bundled',
      'electron/main.ts': '',
      'electron/shell/main-window.ts': '',
      'electron/shell/main-window.test.ts': '',
      'electron/test-support/temp-dir.ts': '',
      'shared/errors.ts': '',
      'shared/types.d.ts': '',
      'renderer/index.html': '',
      'renderer/app/app.tsx': '',
      'renderer/app/app.test.tsx': '',
      'renderer/styles.css': '',
    });
    const target = path.join(temp.dir, 'scan');
    const staged = stageScanInput(root, target).map((file) => file.split(path.sep).join('/'));
    expect([...staged].sort()).toEqual(
      [
        'electron/main.ts',
        'electron/shell/main-window.ts',
        'out/renderer/index.html',
        'package.json',
        'renderer/app/app.tsx',
        'renderer/index.html',
        'shared/errors.ts',
      ].sort(),
    );
    expect(existsSync(path.join(target, 'out/renderer/index.html'))).toBe(true);
    expect(existsSync(path.join(target, 'out/main/main.js'))).toBe(false);
  });

  it('asks for a build when the built page is missing', async () => {
    const temp = await makeTempDir('vigil-stage-');
    cleanup = temp.remove;
    writeTree(temp.dir, { 'package.json': '{}', 'electron/main.ts': '', 'shared/a.ts': '', 'renderer/a.ts': '' });
    expect(() => stageScanInput(temp.dir, path.join(temp.dir, 'scan'))).toThrow(/run "npm run build" first/);
  });

  it('tells shipped sources from tests, test helpers and declarations', () => {
    expect(isShippedSource('electron/shell/app-protocol.ts')).toBe(true);
    expect(isShippedSource('renderer/app/app.tsx')).toBe(true);
    expect(isShippedSource('electron/shell/app-protocol.test.ts')).toBe(false);
    expect(isShippedSource('e2e/app.spec.ts')).toBe(false);
    expect(isShippedSource('electron/checkpoints/test-support/fixtures.ts')).toBe(false);
    expect(isShippedSource('renderer/vite-env.d.ts')).toBe(false);
    expect(isShippedSource('renderer/styles.css')).toBe(false);
  });
});
