import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { childEnv } from '../test-support/run-vigil';
import { createSandboxWorld, type SandboxWorld } from './test-support/sandbox-fixture';

/**
 * Issue 30, H4, git's form of it: `git clone /path/src clone` hard-links the clone's objects
 * (loose objects and packs) to the source repository's. A sandboxed command in the clone may make
 * an object writable and write it in place; that must change only the clone's copy, never the
 * source outside the workspace, and the agent's own git work in the clone must keep working.
 * Real sandbox, real git clone, throwaway HOME; the source is checked by `git fsck --full` and
 * byte for byte.
 */
const worlds: SandboxWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
});

const gitEnv = childEnv({ GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' });

function git(folder: string, args: readonly string[]): string {
  return execFileSync('git', ['-C', folder, ...args], { encoding: 'utf8', env: gitEnv }).trim();
}

/** `stat -c %h`: the file's link count, as the shell's tools see it. */
function linkCount(file: string): number {
  return Number(execFileSync('stat', ['-c', '%h', file], { encoding: 'utf8', env: childEnv() }).trim());
}

/** Why the real sandbox cannot run here, or undefined when it can. */
async function sandboxMissing(): Promise<string | undefined> {
  const probe = await createSandboxWorld();
  try {
    const status = await probe.sandbox.status();
    return status.kind === 'ready' ? undefined : `the OS sandbox cannot start here: ${JSON.stringify(status)}`;
  } finally {
    await probe.close();
  }
}
const missing = await sandboxMissing();

const isRoot = process.getuid?.() === 0;

/** Makes no new file possible in `folder` (root ignores modes: the immutable flag); why not, where it cannot. */
function closeFolder(folder: string): string | undefined {
  if (!isRoot) {
    chmodSync(folder, 0o555);
    return undefined;
  }
  try {
    execFileSync('chattr', ['+i', folder], { stdio: 'ignore', env: childEnv() });
    return undefined;
  } catch {
    return 'running as root, and chattr +i does not work on this file system: no folder can be closed to root';
  }
}

function openFolder(folder: string): void {
  if (isRoot) execFileSync('chattr', ['-i', folder], { stdio: 'ignore', env: childEnv() });
  else chmodSync(folder, 0o755);
}

interface CloneWorld {
  readonly w: SandboxWorld;
  readonly src: string;
  readonly clone: string;
  /** A loose object and a pack of the source, with their bytes. */
  readonly loose: string;
  readonly pack: string;
  readonly bytes: ReadonlyMap<string, Buffer>;
}

/** A source repository outside the workspace (one pack, then loose objects) and its local clone inside it. */
async function cloneWorld(): Promise<CloneWorld> {
  const w = await createSandboxWorld();
  worlds.push(w);
  const src = path.join(w.base, 'src');
  execFileSync('git', ['init', '-q', '-b', 'main', src], { env: gitEnv });
  git(src, ['config', 'user.name', 'User']);
  git(src, ['config', 'user.email', 'user@example.com']);
  writeFileSync(path.join(src, 'packed.txt'), 'in the pack\n'.repeat(500));
  git(src, ['add', '-A']);
  git(src, ['commit', '-qm', 'packed']);
  git(src, ['repack', '-a', '-d', '-q']);
  writeFileSync(path.join(src, 'loose.txt'), 'a loose object\n');
  git(src, ['add', '-A']);
  git(src, ['commit', '-qm', 'loose']);
  const clone = path.join(w.workspace, 'clone');
  execFileSync('git', ['clone', '-q', src, clone], { env: gitEnv });
  git(clone, ['config', 'user.name', 'Agent']);
  git(clone, ['config', 'user.email', 'agent@example.com']);
  const blob = git(src, ['rev-parse', 'HEAD:loose.txt']);
  const loose = path.join('objects', blob.slice(0, 2), blob.slice(2));
  const packName = readdirSync(path.join(src, '.git', 'objects', 'pack')).find((name) => name.endsWith('.pack'));
  const pack = path.join('objects', 'pack', packName ?? 'missing.pack');
  const bytes = new Map([loose, pack].map((name) => [name, readFileSync(path.join(src, '.git', name))]));
  // The premise: the clone's objects really are the source's files under a second name.
  for (const name of [loose, pack]) expect(linkCount(path.join(clone, '.git', name))).toBeGreaterThan(1);
  return { w, src, clone, loose, pack, bytes };
}

/** The source is whole: git checks every object, and the two objects keep their bytes. */
function expectSourceWhole(world: CloneWorld): void {
  expect(() => git(world.src, ['fsck', '--full', '--strict'])).not.toThrow();
  for (const [name, bytes] of world.bytes)
    expect(readFileSync(path.join(world.src, '.git', name)).equals(bytes)).toBe(true);
}

describe.skipIf(missing !== undefined)(
  `a local git clone in the workspace, its objects hard-linked to the source's${missing === undefined ? '' : ` (skipped: ${missing})`}`,
  () => {
    it('a command that makes an object or a pack writable and writes it in place changes only the clone', async () => {
      const world = await cloneWorld();
      const loose = path.join(world.clone, '.git', world.loose);
      const pack = path.join(world.clone, '.git', world.pack);
      const result = await world.w.run(
        [
          `chmod u+w ${loose} ${pack}`,
          `printf 'corrupt' >> ${loose}`,
          `printf 'XXXXXXXX' | dd of=${pack} bs=1 seek=64 conv=notrunc status=none`,
          `truncate -s 12 ${pack}`,
          'echo wrote',
        ].join(' && '),
      );
      expect(result).toMatchObject({ exit_code: 0, stdout: 'wrote\n' });
      expectSourceWhole(world);
      expect(result.sandbox_notes?.join('\n')).toMatch(
        /replaced \d+ file\(s\) in .*clone\/\.git\/objects with private copies/u,
      );
      // The writes did land, in the clone's own copies: the source's objects are single files again.
      expect(readFileSync(loose).subarray(-7).toString()).toBe('corrupt');
      for (const name of [world.loose, world.pack]) expect(linkCount(path.join(world.src, '.git', name))).toBe(1);
    });

    it('git add, commit, branch, checkout, stash, rebase and gc keep working in the clone, and the source stays whole', async () => {
      const world = await cloneWorld();
      const result = await world.w.run(
        [
          'echo change >> loose.txt',
          'git stash -q',
          'git stash pop -q',
          'git add -A',
          'git commit -qm "agent change"',
          'git checkout -qb feature',
          'echo feature > feature.txt',
          'git add feature.txt',
          'git commit -qm feature',
          'git checkout -q main',
          'git rebase -q feature',
          'git gc -q',
          'git fsck --full --strict --no-dangling',
          'git log --format=%s',
        ].join(' && '),
        { cwd: world.clone },
      );
      // The one complaint: gc cannot refresh .git/info (kept read-only: git reads info/exclude and info/attributes).
      const complaints = result.stderr.split('\n').filter((line) => line !== '' && !line.includes("'.git/info/"));
      expect(complaints.filter((line) => !line.includes(' .git/info/'))).toEqual([]);
      expect(result).toMatchObject({ exit_code: 0, stdout: 'feature\nagent change\nloose\npacked\n' });
      expect(git(world.clone, ['status', '--porcelain'])).toBe('');
      expectSourceWhole(world);
    });

    it('copies once: the next command finds nothing left to copy and no object of the clone linked outside', async () => {
      const world = await cloneWorld();
      const request = { roots: [world.w.workspace], sessionId: 'ses_test' };
      const first = await world.w.sandbox.profile(request, world.w.settings);
      expect(first.copiedObjects).toContain(path.join(world.clone, '.git', world.pack));
      expect(first.linkedOutside).toEqual([]);
      const second = await world.w.sandbox.profile(request, world.w.settings);
      expect(second.copiedObjects).toEqual([]);
      const listed = execFileSync('find', [path.join(world.clone, '.git', 'objects'), '-type', 'f', '-links', '+1'], {
        encoding: 'utf8',
        env: childEnv(),
      });
      expect(listed).toBe('');
      expect(git(world.clone, ['fsck', '--full', '--strict'])).toBe('');
    });

    it("an object hard-linked to the repository's own protected config is copied too, so a write through it never reaches the config", async () => {
      const world = await cloneWorld();
      const config = path.join(world.clone, '.git', 'config');
      const before = readFileSync(config);
      // A second name for .git/config, disguised as a loose object (made outside the sandbox).
      const disguised = path.join(world.clone, '.git', 'objects', 'ee', 'e'.repeat(38));
      execFileSync('mkdir', ['-p', path.dirname(disguised)], { env: childEnv() });
      execFileSync('ln', [config, disguised], { env: childEnv() });
      const result = await world.w.run(
        `chmod u+w ${disguised} && printf '[core]\\n\\tfsmonitor = "echo PWNED"\\n' >> ${disguised} && echo wrote`,
      );
      expect(result).toMatchObject({ exit_code: 0, stdout: 'wrote\n' });
      expect(readFileSync(config).equals(before)).toBe(true);
      expect(linkCount(config)).toBe(1);
    });

    it('refuses the command, naming the object and the fix, when it cannot be copied; nothing runs', async (context) => {
      const world = await cloneWorld();
      const folder = path.dirname(path.join(world.clone, '.git', world.loose));
      const closed = closeFolder(folder);
      if (closed !== undefined) {
        context.skip(closed);
        return;
      }
      try {
        const refusal: unknown = await world.w.run('echo ran > ran.txt').then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(refusal).toMatchObject({ code: 'conflict' });
        // Any object in the closed folder may be the one named: the commit or the tree can share the blob's folder.
        expect(refusal instanceof Error ? refusal.message : '').toMatch(
          new RegExp(
            `objects/${path.basename(folder)}/[0-9a-f]{38} is a git object hard-linked .*not run.*git clone --no-hardlinks`,
            'u',
          ),
        );
        expect(readdirSync(world.w.workspace)).toEqual(['clone']);
      } finally {
        openFolder(folder);
      }
      expectSourceWhole(world);
    });
  },
);
