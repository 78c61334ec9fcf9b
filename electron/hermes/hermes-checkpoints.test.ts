import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dirHash, emptyTreeOid } from '../git-store';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { HermesCheckpoints } from './hermes-checkpoints';
import { hermesHome, hermesHomes } from './hermes-home';
import {
  folderFingerprint,
  hermesGit,
  hermesLegacyCheckpoint,
  hermesSharedCheckpoint,
  hermesTrim,
  legacyRepo,
  sharedStore,
} from './test-support/hermes-fixtures';
import { recordingLogger } from './test-support/recording-logger';

/** git's own totals of `diff --numstat` between a commit's parent (or nothing) and the commit. */
function gitStats(gitdir: string, commit: string): { files: number; insertions: number; deletions: number } {
  const parent =
    hermesGit(['--git-dir', gitdir, 'rev-list', '--parents', '-n', '1', commit]).split(' ')[1] ?? emptyTreeOid;
  const lines = hermesGit(['--git-dir', gitdir, 'diff', '--numstat', parent, commit])
    .split('\n')
    .filter((line) => line !== '');
  let insertions = 0;
  let deletions = 0;
  for (const line of lines) {
    const [added = '0', removed = '0'] = line.split('\t');
    insertions += added === '-' ? 0 : Number(added);
    deletions += removed === '-' ? 0 : Number(removed);
  }
  return { files: lines.length, insertions, deletions };
}

describe('Hermes checkpoint stores, read-only', () => {
  let base: string;
  let remove: () => Promise<void>;
  let home: string;
  let project: string;
  let hermes: HermesCheckpoints;

  const open = (logger = silentLogger): HermesCheckpoints =>
    new HermesCheckpoints({ env: { HERMES_HOME: home }, logger });

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-hermes-'));
    home = path.join(base, 'hermes');
    project = path.join(base, 'project');
    mkdirSync(project);
    hermes = open();
  });
  afterEach(async () => {
    await hermes.dispose();
    await remove();
  });

  /** Three checkpoints the way Hermes takes them, a minute apart. */
  function threeCheckpoints(): string[] {
    writeFileSync(path.join(project, 'app.py'), 'print("one")\n');
    writeFileSync(path.join(project, 'notes.md'), '# notes\n');
    const c1 = hermesSharedCheckpoint(home, project, 'before write_file', { seconds: 1_700_000_000 });
    writeFileSync(path.join(project, 'app.py'), 'print("two")\nprint("more")\n');
    const c2 = hermesSharedCheckpoint(home, project, 'before patch', { seconds: 1_700_000_060 });
    rmSync(path.join(project, 'notes.md'));
    mkdirSync(path.join(project, 'src'));
    writeFileSync(path.join(project, 'src', 'lib.py'), 'x = 1\n');
    const c3 = hermesSharedCheckpoint(home, project, 'before terminal: sed -i s/one/two/ app.py', {
      seconds: 1_700_000_120,
    });
    return [c3 ?? '', c2 ?? '', c1 ?? ''];
  }

  /** Every blob of a commit's tree, by git's CLI, read back through Vigil's reader. */
  async function expectBlobsReadable(gitdir: string, commit: string): Promise<void> {
    const listing = hermesGit(['--git-dir', gitdir, 'ls-tree', '-r', commit]).split('\n');
    for (const line of listing) {
      const oid = line.split(/\s+/)[2] ?? '';
      const bytes = await hermes.readObject(oid, 'blob');
      expect(bytes?.toString('utf8')).toBe(hermesGit(['--git-dir', gitdir, 'cat-file', 'blob', oid]) + '\n');
    }
  }

  it('reads the shared store as Hermes writes it: ids, trees, reasons, order, and stats equal to git diff --numstat', async () => {
    const ids = threeCheckpoints();
    const store = sharedStore(home);
    const entries = await hermes.entries(project);
    expect(entries.map((entry) => entry.id)).toEqual(ids);
    expect(hermesGit(['--git-dir', store, 'rev-list', `refs/hermes/${dirHash(project)}`]).split('\n')).toEqual(ids);
    expect(entries.map((entry) => entry.reason)).toEqual([
      'before terminal: sed -i s/one/two/ app.py',
      'before patch',
      'before write_file',
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        source: 'hermes',
        dir: project,
        kind: 'checkpoint',
        attribution: { agent: 'hermes' },
        skipped: [],
      });
      expect(entry.tree).toBe(hermesGit(['--git-dir', store, 'rev-parse', `${entry.id}^{tree}`]));
      expect((await hermes.withStats(entry)).stats).toEqual(gitStats(store, entry.id));
    }
    expect(entries.map((entry) => entry.parent)).toEqual([ids[1], ids[2], undefined]);
    expect(entries[0]?.time).toBe('2023-11-14T22:15:20.000Z');
    await expectBlobsReadable(store, ids[0] ?? '');
  });

  it('reads every layout git leaves behind: loose, gc-packed with packed refs, mixed, several packs, and mid-gc leftovers', async () => {
    const ids = threeCheckpoints();
    const store = sharedStore(home);
    const ref = path.join(store, 'refs', 'hermes', dirHash(project));
    const expectTimeline = async (expected: readonly string[]): Promise<void> => {
      await hermes.dispose();
      hermes = open();
      const before = folderFingerprint(home);
      expect((await hermes.entries(project)).map((entry) => entry.id)).toEqual(expected);
      for (const id of expected) await expectBlobsReadable(store, id);
      expect(folderFingerprint(home)).toBe(before);
    };

    hermesGit(['--git-dir', store, 'gc', '--quiet', '--prune=now']);
    expect(readdirSync(path.join(store, 'refs', 'hermes'))).toEqual([]);
    expect(hermesGit(['--git-dir', store, 'count-objects', '-v'])).toMatch(/^count: 0$/m);
    await expectTimeline(ids);

    // A checkpoint after the gc: loose objects beside the pack, a loose ref over the packed one.
    writeFileSync(path.join(project, 'app.py'), 'print("three")\n');
    const c4 = hermesSharedCheckpoint(home, project, 'before write_file', { seconds: 1_700_000_180 }) ?? '';
    expect(hermesGit(['--git-dir', store, 'count-objects', '-v'])).not.toMatch(/^count: 0$/m);
    await expectTimeline([c4, ...ids]);

    // An incremental repack: two packs, and the loose copies left until prune-packed.
    hermesGit(['--git-dir', store, 'repack', '--quiet']);
    writeFileSync(path.join(project, 'app.py'), 'print("four")\n');
    const c5 = hermesSharedCheckpoint(home, project, 'before patch', { seconds: 1_700_000_240 }) ?? '';
    hermesGit(['--git-dir', store, 'repack', '--quiet']);
    expect(
      readdirSync(path.join(store, 'objects', 'pack')).filter((name) => name.endsWith('.pack')).length,
    ).toBeGreaterThanOrEqual(2);
    await expectTimeline([c5, c4, ...ids]);

    // Mid-gc: a kept pack, a temp pack being written, an index whose pack was just deleted, ref locks.
    const packs = readdirSync(path.join(store, 'objects', 'pack'));
    const firstPack = packs.find((name) => name.endsWith('.pack')) ?? '';
    writeFileSync(path.join(store, 'objects', 'pack', firstPack.replace(/\.pack$/, '.keep')), '');
    writeFileSync(path.join(store, 'objects', 'pack', 'tmp_pack_Xy12Ab'), 'PACK\0\0\0\x02partial');
    copyFileSync(
      path.join(store, 'objects', 'pack', firstPack.replace(/\.pack$/, '.idx')),
      path.join(store, 'objects', 'pack', `pack-${'0'.repeat(40)}.idx`),
    );
    writeFileSync(path.join(store, 'packed-refs.lock'), '');
    writeFileSync(`${ref}.lock`, `${'f'.repeat(40)}\n`);
    await expectTimeline([c5, c4, ...ids]);

    // Everything repacked into one pack, old ones deleted, refs packed.
    rmSync(path.join(store, 'packed-refs.lock'));
    rmSync(`${ref}.lock`);
    hermesGit(['--git-dir', store, 'repack', '-a', '-d', '--quiet']);
    hermesGit(['--git-dir', store, 'pack-refs', '--all']);
    await expectTimeline([c5, c4, ...ids]);
  });

  it('reads pre-v2 shadow repositories, live and archived, and merges every timeline of a directory newest first', async () => {
    writeFileSync(path.join(project, 'a.txt'), 'a1\n');
    const archive = path.join(home, 'checkpoints', 'legacy-20260101-000000', dirHash(project));
    const old1 = hermesLegacyCheckpoint(home, project, 'before write_file', { seconds: 1_000, repo: archive }) ?? '';
    const shared1 = hermesSharedCheckpoint(home, project, 'before patch', { seconds: 1_500 }) ?? '';
    writeFileSync(path.join(project, 'a.txt'), 'a2\n');
    const live1 = hermesLegacyCheckpoint(home, project, 'before terminal: rm -rf tmp', { seconds: 2_000 }) ?? '';
    writeFileSync(path.join(project, 'a.txt'), 'a3\n');
    const shared2 = hermesSharedCheckpoint(home, project, 'before write_file', { seconds: 2_500 }) ?? '';
    hermesGit(['--git-dir', legacyRepo(home, project), 'gc', '--quiet']);

    const commits = await hermes.commits(project);
    expect(commits.map((item) => item.id)).toEqual([shared2, live1, shared1, old1]);
    expect(commits.map((item) => item.kind)).toEqual(['shared', 'legacy', 'shared', 'legacy']);
    expect(commits[3]?.gitdir).toBe(archive);
    await expectBlobsReadableFrom(legacyRepo(home, project), live1);
    await expectBlobsReadableFrom(archive, old1);

    async function expectBlobsReadableFrom(gitdir: string, commit: string): Promise<void> {
      const oid = hermesGit(['--git-dir', gitdir, 'rev-parse', `${commit}:a.txt`]);
      expect((await hermes.readObject(oid, 'blob'))?.toString()).toBe(
        `${hermesGit(['--git-dir', gitdir, 'cat-file', 'blob', oid])}\n`,
      );
    }
  });

  it("shows nothing for a directory whose hash names another folder in Hermes's records", async () => {
    writeFileSync(path.join(project, 'a.txt'), 'a\n');
    hermesSharedCheckpoint(home, project, 'before write_file');
    hermesLegacyCheckpoint(home, project, 'before write_file');
    expect(await hermes.entries(project)).toHaveLength(2);
    writeFileSync(
      path.join(sharedStore(home), 'projects', `${dirHash(project)}.json`),
      JSON.stringify({ workdir: '/somewhere/else', created_at: 1, last_touch: 2 }),
    );
    writeFileSync(path.join(legacyRepo(home, project), 'HERMES_WORKDIR'), '/somewhere/else\n');
    expect(await hermes.entries(project)).toEqual([]);
  });

  it('reads a timeline again only when one of its heads moved, and follows Hermes when it rewrites ids to prune', async () => {
    const ids = threeCheckpoints();
    const first = await hermes.commits(project);
    expect(await hermes.commits(project)).toBe(first);
    hermesGit(['--git-dir', sharedStore(home), 'pack-refs', '--all']);
    expect(await hermes.commits(project)).toBe(first);

    hermesTrim(home, project, 2);
    const trimmed = await hermes.entries(project);
    expect(trimmed).toHaveLength(2);
    expect(trimmed.map((entry) => entry.id)).not.toContain(ids[0]);
    expect(trimmed.map((entry) => entry.reason)).toEqual(first.slice(0, 2).map((item) => item.commit.subject));
    expect(trimmed.map((entry) => entry.tree)).toEqual(first.slice(0, 2).map((item) => item.commit.tree));
    expect(trimmed.map((entry) => entry.time)).toEqual(
      first.slice(0, 2).map((item) => new Date(item.commit.time * 1000).toISOString()),
    );
    expect(trimmed[1]?.parent).toBeUndefined();
  });

  it("marks Hermes's own pre-rollback snapshots, with the full id of the checkpoint they restore", async () => {
    const ids = threeCheckpoints();
    writeFileSync(path.join(project, 'app.py'), 'print("edited")\n');
    hermesSharedCheckpoint(home, project, `pre-rollback snapshot (restoring to ${(ids[2] ?? '').slice(0, 8)})`, {
      seconds: 1_700_000_300,
    });
    const [snapshot] = await hermes.entries(project);
    expect(snapshot).toMatchObject({ kind: 'pre-rollback', restores: ids[2] });
  });

  it('skips a SHA-256 store with a warning instead of misreading it', async () => {
    const store = sharedStore(home);
    mkdirSync(path.dirname(store), { recursive: true });
    hermesGit(['init', '--quiet', '--bare', '--object-format=sha256', store]);
    mkdirSync(path.join(store, 'refs', 'hermes'), { recursive: true });
    writeFileSync(path.join(store, 'refs', 'hermes', dirHash(project)), `${'a'.repeat(64)}\n`);
    const logger = recordingLogger();
    await hermes.dispose();
    hermes = open(logger);
    expect(await hermes.entries(project)).toEqual([]);
    expect(logger.lines.some((line) => line.level === 'warn' && line.message.includes('SHA-256'))).toBe(true);
  });
});

describe("finding Hermes's home", () => {
  it('uses $HERMES_HOME (with ~ expanded), else ~/.hermes with its suffix, else %LOCALAPPDATA%\\hermes on Windows', () => {
    expect(hermesHome({ HERMES_HOME: ' /opt/hermes ' }, '/home/u', 'linux')).toBe(path.resolve('/opt/hermes'));
    expect(hermesHome({ HERMES_HOME: '~/h' }, '/home/u', 'linux')).toBe(path.join('/home/u', 'h'));
    expect(hermesHome({}, '/home/u', 'linux')).toBe(path.join('/home/u', '.hermes'));
    expect(hermesHome({ HERMES_DATA_DIR_SUFFIX: '-dev' }, '/home/u', 'darwin')).toBe(
      path.join('/home/u', '.hermes-dev'),
    );
    expect(hermesHome({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'C:\\Users\\u', 'win32')).toBe(
      path.join('C:\\Users\\u\\AppData\\Local', 'hermes'),
    );
  });

  it('includes the named profiles under the home, each a home of its own', async () => {
    const { dir, remove } = await makeTempDir('vigil-hermes-home-');
    try {
      mkdirSync(path.join(dir, '.hermes', 'profiles', 'work'), { recursive: true });
      mkdirSync(path.join(dir, '.hermes', 'profiles', '.deleted'), { recursive: true });
      const homes = await hermesHomes({}, dir, 'linux');
      expect(homes.map((item) => item.home)).toEqual([
        path.join(dir, '.hermes'),
        path.join(dir, '.hermes', 'profiles', 'work'),
      ]);
      expect(homes[1]?.checkpoints).toBe(path.join(dir, '.hermes', 'profiles', 'work', 'checkpoints'));
      renameSync(path.join(dir, '.hermes'), path.join(dir, 'elsewhere'));
      expect((await hermesHomes({ HERMES_HOME: path.join(dir, 'elsewhere') }, dir, 'linux')).length).toBe(2);
    } finally {
      await remove();
    }
  });
});
