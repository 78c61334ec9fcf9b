import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../electron/test-support/temp-dir';
import { repoRoot, writeTree } from '../test-support/pack-asar';
import { electronDefaultFuses, readFuseWire, writeStandInElectron } from './fuse-wire';
import { fuseProblems } from './fuse-problems';

const fusesCli = path.join(repoRoot, 'node_modules/@electron/fuses/dist/bin.js');

describe('the stand-in Electron fuse wire', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('carries Electron’s defaults, readable by @electron/fuses, and reads back what @electron/fuses flips', async () => {
    const temp = await makeTempDir('vigil-fuses-');
    cleanup = temp.remove;
    const binary = path.join(writeStandInElectron(temp.dir), 'electron');
    expect(readFuseWire(binary)).toEqual(electronDefaultFuses);

    const report = execFileSync(process.execPath, [fusesCli, 'read', '--app', binary], { encoding: 'utf8' });
    expect(report).toMatch(/RunAsNode is .*Enabled/);
    expect(report).toMatch(/EnableCookieEncryption is .*Disabled/);

    execFileSync(process.execPath, [
      fusesCli,
      'write',
      '--app',
      binary,
      'RunAsNode=off',
      'EnableCookieEncryption=on',
      'OnlyLoadAppFromAsar=on',
    ]);
    expect(readFuseWire(binary)).toEqual({
      ...electronDefaultFuses,
      runAsNode: 'off',
      enableCookieEncryption: 'on',
      onlyLoadAppFromAsar: 'on',
    });
  });

  it('names every configured fuse the binary does not match', () => {
    expect(
      fuseProblems({ runAsNode: false, onlyLoadAppFromAsar: true }, { runAsNode: 'off', onlyLoadAppFromAsar: 'on' }),
    ).toEqual([]);
    expect(fuseProblems({ runAsNode: false, onlyLoadAppFromAsar: true }, { runAsNode: 'on' })).toEqual([
      'fuse runAsNode is on in the packaged binary, but the configuration sets it off',
      "fuse onlyLoadAppFromAsar is configured but the binary's fuse wire has no such fuse",
    ]);
  });

  it('refuses a file without a fuse wire', async () => {
    const temp = await makeTempDir('vigil-fuses-');
    cleanup = temp.remove;
    writeTree(temp.dir, { electron: '#!/bin/sh\nexit 0\n' });
    expect(() => readFuseWire(path.join(temp.dir, 'electron'))).toThrow(/no Electron fuse wire/);
  });
});
