import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellPwd } from './shell-pwd';

/** What /bin/sh itself sets PWD to, started in `cwd` with `inherited` in its environment (or none). */
function shellsOwn(inherited: string | undefined, cwd: string): string {
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'] };
  if (inherited !== undefined) env['PWD'] = inherited;
  return spawnSync('/bin/sh', ['-c', 'printf %s "$PWD"'], { cwd, env, encoding: 'utf8' }).stdout;
}

let dir = '';
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vigil-shell-pwd-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the PWD a command started without a shell gets', () => {
  it("is the shell's own, whatever PWD it inherits and whether its folder is reached through a link", async () => {
    const real = path.join(dir, 'real');
    const other = path.join(dir, 'other');
    const link = path.join(dir, 'link');
    await Promise.all([mkdir(real), mkdir(other)]);
    await symlink(real, link);
    const cases: [string | undefined, string][] = [
      [undefined, real],
      [undefined, link],
      [link, link],
      [link, real],
      [real, link],
      [other, link],
      [path.join(dir, 'gone'), real],
      ['relative', real],
    ];
    for (const [inherited, cwd] of cases) {
      expect({ inherited, cwd, pwd: await shellPwd(inherited, cwd) }).toEqual({
        inherited,
        cwd,
        pwd: shellsOwn(inherited, cwd),
      });
    }
  });
});
