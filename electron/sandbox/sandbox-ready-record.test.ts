import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { CommandSandbox } from './command-sandbox';
import { readyRecordPath } from './sandbox-ready-record';
import { createSandboxWorld, type SandboxWorld } from './test-support/sandbox-fixture';

const worlds: SandboxWorld[] = [];
const others: CommandSandbox[] = [];
afterEach(async () => {
  for (const sandbox of others.splice(0)) await sandbox.dispose();
  for (const world of worlds.splice(0)) await world.close();
});

/**
 * A world whose bubblewrap is a wrapper that logs each sandbox it starts, and fails to start one,
 * as bubblewrap does where user namespaces are off, while the file `broken` exists beside it.
 */
async function loggedWorld(): Promise<{ world: SandboxWorld; starts: () => number; breakIt: () => void }> {
  const world = await createSandboxWorld({ 'a.txt': 'a\n' });
  worlds.push(world);
  const log = path.join(world.base, 'bwrap.log');
  const broken = path.join(world.base, 'broken');
  const wrapper = path.join(world.base, 'bwrap');
  writeFileSync(
    wrapper,
    [
      '#!/bin/sh',
      `case "$*" in *--version*) ;; *) echo start >> '${log}' ;; esac`,
      `if [ -e '${broken}' ]; then echo 'bwrap: setting up uid map: Permission denied' >&2; exit 1; fi`,
      'exec /usr/bin/bwrap "$@"',
      '',
    ].join('\n'),
  );
  chmodSync(wrapper, 0o755);
  world.settings = { ...world.settings, sandbox: { ...world.settings.sandbox, bwrapPath: wrapper } };
  const starts = (): number => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').length - 1 : 0);
  return { world, starts, breakIt: () => writeFileSync(broken, '') };
}

/** A second sandbox on the same data folder, as a later one-shot `vigil` process has (its temp folders in `tempRoot`). */
function laterProcess(world: SandboxWorld, tempRoot = path.join(world.base, 'tmp2')): CommandSandbox {
  const sandbox = new CommandSandbox({
    vigilHome: world.vigilHome,
    home: world.home,
    settings: () => Promise.resolve(world.settings),
    logger: silentLogger,
    env: { ...process.env, HOME: world.home, VIGIL_HOME: world.vigilHome },
    tempRoot,
    spawn: 'in-process',
  });
  others.push(sandbox);
  return sandbox;
}

describe.skipIf(process.platform !== 'linux' || !existsSync('/usr/bin/bwrap'))(
  'the record of a sandbox that started',
  () => {
    it('lets a later process skip the probe, and is dropped when the sandbox no longer starts', async () => {
      const { world, starts, breakIt } = await loggedWorld();
      expect(await world.sandbox.status()).toEqual({ kind: 'ready', engine: 'bubblewrap' });
      expect(starts()).toBe(1);
      expect(existsSync(readyRecordPath(world.vigilHome))).toBe(true);

      // A later process: ready at once, no probe; its command is the only sandbox started.
      const later = laterProcess(world);
      expect(await later.status()).toEqual({ kind: 'ready', engine: 'bubblewrap' });
      expect(starts()).toBe(1);

      // The sandbox stops starting (say, user namespaces were turned off): the command fails with
      // bubblewrap's own message, the record goes, and the next status is probed again.
      breakIt();
      const failed = await later.run({
        command: 'echo ran',
        cwd: world.workspace,
        roots: [world.workspace],
        sessionId: 'ses_a',
        timeoutMs: 60_000,
        outputCapBytes: 1 << 20,
      });
      expect(failed.stdout).not.toContain('ran');
      expect(failed.stderr).toMatch(/^bwrap: /mu);
      expect(existsSync(readyRecordPath(world.vigilHome))).toBe(false);
      expect(await later.status()).toMatchObject({ kind: 'unavailable' });
      expect(await laterProcess(world).status()).toMatchObject({ kind: 'unavailable' });
    });

    it('holds only for the bubblewrap it was made with', async () => {
      const { world, starts } = await loggedWorld();
      expect(await world.sandbox.status()).toMatchObject({ kind: 'ready' });
      expect(starts()).toBe(1);
      // The wrapper is replaced (a new bubblewrap): the record no longer matches, and a probe runs.
      const wrapper = world.settings.sandbox.bwrapPath ?? '';
      writeFileSync(wrapper, `${readFileSync(wrapper, 'utf8')}# replaced\n`);
      expect(await laterProcess(world).status()).toMatchObject({ kind: 'ready' });
      expect(starts()).toBe(2);
    });

    it('says a temp folder it cannot make is the problem, not the sandbox, and checks again at the next call', async () => {
      const { world, starts } = await loggedWorld();
      // The temp root's parent is a file: no one, root included, can make a folder there.
      const blocked = path.join(world.base, 'blocked');
      writeFileSync(blocked, '');
      const sandbox = laterProcess(world, path.join(blocked, 'tmp'));
      const status = await sandbox.status();
      expect(status).toMatchObject({ kind: 'unavailable' });
      const said = status.kind === 'unavailable' ? `${status.reason} ${status.fix}` : '';
      expect(said).toContain(`could not make a private temp folder for sandboxed commands under ${blocked}`);
      expect(said).not.toMatch(/user namespace|sandboxed test command/u);
      expect(starts()).toBe(0);
      expect(existsSync(readyRecordPath(world.vigilHome))).toBe(false);
      // Fixed: the same process checks again instead of keeping the old answer.
      rmSync(blocked);
      expect(await sandbox.status()).toEqual({ kind: 'ready', engine: 'bubblewrap' });
      expect(starts()).toBe(1);
    });

    it('is never trusted when it is not a record this code wrote', async () => {
      const { world, starts } = await loggedWorld();
      writeFileSync(readyRecordPath(world.vigilHome), '{"key":"forged"}\n');
      expect(await world.sandbox.status()).toMatchObject({ kind: 'ready' });
      expect(starts()).toBe(1);
    });
  },
);
