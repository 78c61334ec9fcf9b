import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderFingerprint, hermesSharedCheckpoint } from '../../hermes/test-support/hermes-fixtures';
import { runVigil } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';

/** `vigil checkpoints list|diff|restore` on a directory Hermes Agent and Vigil both checkpointed (real processes). */
describe('vigil checkpoints with Hermes Agent checkpoints', { timeout: 60_000 }, () => {
  let base: string;
  let remove: () => Promise<void>;
  let project: string;
  let hermesHome: string;
  let env: NodeJS.ProcessEnv;
  const past = Math.floor(Date.now() / 1000) - 3_600;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-cli-hermes-'));
    project = path.join(base, 'project');
    hermesHome = path.join(base, 'hermes');
    mkdirSync(project);
    env = { VIGIL_HOME: path.join(base, 'vigil'), HERMES_HOME: hermesHome };
  });
  afterEach(async () => {
    await remove();
  });

  /** Hermes an hour ago, Vigil now, Hermes in an hour: three checkpoints, numbered h, v, h from the newest. */
  async function mixedTimeline(): Promise<{ older: string; newer: string }> {
    writeFileSync(path.join(project, 'app.py'), 'print("hermes one")\n');
    const older = hermesSharedCheckpoint(hermesHome, project, 'before write_file', { seconds: past }) ?? '';
    writeFileSync(path.join(project, 'app.py'), 'print("vigil")\n');
    expect((await runVigil(['checkpoint', project, '--reason', 'before patch'], { env })).code).toBe(0);
    writeFileSync(path.join(project, 'app.py'), 'print("hermes two")\n');
    const newer =
      hermesSharedCheckpoint(hermesHome, project, 'before terminal: sed -i s/a/b/ app.py', { seconds: past + 7_200 }) ??
      '';
    return { older, newer };
  }

  it('lists both sources with a source column, filters by source keeping the numbers, and refuses an unknown source', async () => {
    const { older, newer } = await mixedTimeline();
    const [all, hermesOnly, json, wrong] = await Promise.all([
      runVigil(['checkpoints', 'list', project], { env }),
      runVigil(['checkpoints', 'list', project, '--source', 'hermes'], { env }),
      runVigil(['checkpoints', 'list', project, '--json'], { env }),
      runVigil(['checkpoints', 'list', project, '--source', 'claude'], { env }),
    ]);
    expect(all.stderr).toBe('');
    const lines = (text: string): string[] => text.split('\n').filter((line) => /^\s+\d+\. /.test(line));
    expect(lines(all.stdout)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^ {2}1\\. ${newer.slice(0, 8)} .* {2}hermes {2}before terminal: sed -i s/a/b/ app\\.py {2}\\(1 file, \\+1/-1\\)$`,
        ),
      ),
      expect.stringMatching(/^ {2}2\. [0-9a-f]{8} .* {2}vigil {3}before patch/),
      expect.stringMatching(
        new RegExp(`^ {2}3\\. ${older.slice(0, 8)} .* {2}hermes {2}before write_file {2}\\(1 file, \\+1/-0\\)$`),
      ),
    ]);
    expect(lines(hermesOnly.stdout).map((line) => line.trim().split(' ')[0])).toEqual(['1.', '3.']);
    const parsed = JSON.parse(json.stdout) as {
      total: number;
      entries: { number: number; source: string; id: string }[];
    };
    expect(parsed.total).toBe(3);
    expect(parsed.entries.map((entry) => [entry.number, entry.source])).toEqual([
      [1, 'hermes'],
      [2, 'vigil'],
      [3, 'hermes'],
    ]);
    expect(wrong).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--source takes vigil or hermes') as unknown,
    });
  });

  it("works on what a Hermes checkpoint holds, files Vigil's rules exclude included: no false deletions, single-file restores, secrets asked for", async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x01, 0x02, 0xff]);
    mkdirSync(path.join(project, 'assets'));
    writeFileSync(path.join(project, 'assets', 'logo.png'), png);
    writeFileSync(path.join(project, '.envrc'), 'export API_TOKEN=one\n');
    writeFileSync(path.join(project, 'app.py'), 'print("hermes")\n');
    hermesSharedCheckpoint(hermesHome, project, 'before write_file', { seconds: past });
    const before = folderFingerprint(hermesHome);

    // Present and unchanged: not "deleted".
    const unchanged = await runVigil(['checkpoints', 'diff', project, '1'], { env });
    expect(unchanged.stdout).toContain('No changes.');

    // Missing: a single-file restore brings each back (a secrets file named one by one is asked for by name).
    rmSync(path.join(project, 'assets', 'logo.png'));
    rmSync(path.join(project, '.envrc'));
    const missing = await runVigil(['checkpoints', 'diff', project, '1', '--json'], { env });
    expect(
      (JSON.parse(missing.stdout) as { diffs: Array<{ path: string; status: string }> }).diffs.map(
        (diff) => `${diff.status} ${diff.path}`,
      ),
    ).toEqual(['deleted .envrc', 'deleted assets/logo.png']);
    const logo = await runVigil(['checkpoints', 'restore', project, '1', 'assets/logo.png'], { env });
    expect(logo.code, logo.stdout).toBe(0);
    expect(readFileSync(path.join(project, 'assets', 'logo.png'))).toEqual(png);
    const envrc = await runVigil(['checkpoints', 'restore', project, '2', '.envrc'], { env });
    expect(envrc.code, envrc.stdout).toBe(0);
    expect(readFileSync(path.join(project, '.envrc'), 'utf8')).toBe('export API_TOKEN=one\n');

    // Changed: a modification, never a deletion; the restore point keeps the current version whatever Vigil's rules say, so the restore goes ahead and can be undone.
    writeFileSync(path.join(project, 'assets', 'logo.png'), Buffer.from('not a png any more'));
    const changed = await runVigil(['checkpoints', 'diff', project, '3', '--json'], { env });
    expect(
      (JSON.parse(changed.stdout) as { diffs: Array<{ path: string; status: string }> }).diffs.map(
        (diff) => `${diff.status} ${diff.path}`,
      ),
    ).toEqual(['modified assets/logo.png']);
    const overwritten = await runVigil(['checkpoints', 'restore', project, '3', 'assets/logo.png', '--json'], { env });
    expect(overwritten.code, overwritten.stdout).toBe(0);
    const outcome = JSON.parse(overwritten.stdout) as { status: string; preRollback: { id: string } };
    expect(outcome.status).toBe('complete');
    expect(readFileSync(path.join(project, 'assets', 'logo.png'))).toEqual(png);
    const store = path.join(base, 'vigil', 'checkpoints', 'store');
    const kept = execFileSync('git', [
      '--git-dir',
      store,
      'cat-file',
      'blob',
      `${outcome.preRollback.id}:assets/logo.png`,
    ]);
    expect(kept.toString()).toBe('not a png any more');

    // A whole restore lists a missing secrets file and writes it only with --secrets.
    rmSync(path.join(project, 'assets', 'logo.png'));
    rmSync(path.join(project, '.envrc'));
    const dry = await runVigil(['checkpoints', 'restore', project, '4', '--dry-run'], { env });
    expect(dry.stdout).toMatch(
      /^ {2}re-create \.envrc +secret: from another program's store, written only with --secrets$/m,
    );
    const withoutSecrets = await runVigil(['checkpoints', 'restore', project, '4'], { env });
    expect(withoutSecrets.code).toBe(1);
    expect(withoutSecrets.stdout).toMatch(/^ {2}secret +\.envrc: /m);
    expect(withoutSecrets.stdout).toContain('restore again with --secrets');
    expect(existsSync(path.join(project, '.envrc'))).toBe(false);
    expect(readFileSync(path.join(project, 'assets', 'logo.png'))).toEqual(png);
    const withSecrets = await runVigil(['checkpoints', 'restore', project, '5', '--secrets'], { env });
    expect(withSecrets.code, withSecrets.stdout).toBe(0);
    expect(readFileSync(path.join(project, '.envrc'), 'utf8')).toBe('export API_TOKEN=one\n');
    // Its printed undo may write secrets files as the restore did: without --secrets it would leave the re-created .envrc.
    const undo = /^Undo this restore: (vigil checkpoints restore .+)$/m.exec(withSecrets.stdout)?.[1] ?? '';
    expect(undo).toMatch(/ --secrets$/);
    const undone = await runVigil(undo.split(' ').slice(1), { env });
    expect(undone.code, undone.stdout).toBe(0);
    expect(existsSync(path.join(project, '.envrc'))).toBe(false);
    expect(folderFingerprint(hermesHome)).toBe(before);
  });

  it('resolves N once per command: a diff stays whole while Hermes keeps committing', async () => {
    const names = Array.from({ length: 30 }, (_, index) => `f${index}.txt`);
    for (const name of names) writeFileSync(path.join(project, name), `${name} v1\n`);
    hermesSharedCheckpoint(hermesHome, project, 'before write_file', { seconds: past });
    for (const name of names) writeFileSync(path.join(project, name), `${name} v2\n`);
    // Hermes commits again and again while the diffs run: "1" keeps moving to a newer checkpoint.
    const runs = Promise.all([1, 2, 3].map(() => runVigil(['checkpoints', 'diff', project, '1', '--json'], { env })));
    const progress = { isDone: false };
    void runs.finally(() => (progress.isDone = true));
    let commits = 0;
    for (let tick = 0; !progress.isDone; tick += 1) {
      writeFileSync(path.join(project, 'tick.txt'), `tick ${tick}\n`);
      if (hermesSharedCheckpoint(hermesHome, project, `before terminal: tick ${tick}`) !== undefined) commits += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(commits).toBeGreaterThan(3);
    for (const run of await runs) {
      expect(run.code, run.stderr).toBe(0);
      const page = JSON.parse(run.stdout) as { files: Array<{ path: string }>; diffs: Array<{ path: string }> };
      expect(page.diffs.map((diff) => diff.path)).toEqual(page.files.map((file) => file.path));
    }
  });

  it("diffs and restores a Hermes checkpoint by its number, never writing Hermes's store, and undoes the restore", async () => {
    const { older } = await mixedTimeline();
    const before = folderFingerprint(hermesHome);
    const diff = await runVigil(['checkpoints', 'diff', project, '3'], { env });
    expect(diff.stdout).toMatch(new RegExp(`^Checkpoint ${older.slice(0, 8)} .* before write_file → now`, 'm'));
    expect(diff.stdout).toContain('-print("hermes one")');
    expect(diff.stdout).toContain('+print("hermes two")');

    const restored = await runVigil(['checkpoints', 'restore', project, '3'], { env });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(readFileSync(path.join(project, 'app.py'), 'utf8')).toBe('print("hermes one")\n');
    expect(folderFingerprint(hermesHome)).toBe(before);
    // The newer Hermes checkpoint is dated an hour ahead, so the pre-rollback snapshot (now) is number 2.
    expect(restored.stdout).toMatch(/^Undo this restore: vigil checkpoints restore \S+ 2$/m);
    const list = await runVigil(['checkpoints', 'list', project, '--limit', '2'], { env });
    expect(list.stdout).toMatch(
      new RegExp(
        `^ {2}2\\. [0-9a-f]{8} .* {2}vigil {3}Restore point taken before restoring ${older.slice(0, 8)} .*↶$`,
        'm',
      ),
    );
    expect((await runVigil(['checkpoints', 'restore', project, '2'], { env })).code).toBe(0);
    expect(readFileSync(path.join(project, 'app.py'), 'utf8')).toBe('print("hermes two")\n');
    expect(folderFingerprint(hermesHome)).toBe(before);
  });
});
