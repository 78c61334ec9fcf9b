import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../electron/test-support/temp-dir';
import { packAsar } from '../test-support/pack-asar';
import { openAsar } from './asar-archive';

describe('openAsar', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('lists and reads the files of an archive written by @electron/asar', async () => {
    const temp = await makeTempDir('vigil-asar-');
    cleanup = temp.remove;
    const archive = openAsar(
      packAsar(temp.dir, {
        'package.json': '{"name":"x"}',
        'out/main/main.js': 'console.log("main")\n',
        'node_modules/@scope/pkg/index.js': 'module.exports = 1;\n',
      }),
    );
    expect(archive.files.map((file) => file.path).sort()).toEqual([
      '/node_modules/@scope/pkg/index.js',
      '/out/main/main.js',
      '/package.json',
    ]);
    expect(archive.read('/out/main/main.js').toString()).toBe('console.log("main")\n');
    expect(archive.read('/package.json').toString()).toBe('{"name":"x"}');
    expect(archive.files.find((file) => file.path === '/node_modules/@scope/pkg/index.js')?.size).toBe(
      'module.exports = 1;\n'.length,
    );
    expect(() => archive.read('/missing.js')).toThrow(/not packed/);
  });
});
