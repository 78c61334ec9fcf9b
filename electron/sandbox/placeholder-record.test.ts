import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownStartTime } from '../lib';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { recoverPlaceholders, type RecordedPlaceholder } from './placeholder-record';

/** A pid no process has (above the kernel's default pid_max of 4,194,304). */
const deadPid = 4_194_305;

describe.runIf(process.platform === 'linux')('the record of the placeholders a process made', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let records: string;
  let project: string;
  beforeEach(async () => {
    ({ dir, remove } = await makeTempDir('vigil-placeholders-'));
    records = path.join(dir, 'records');
    project = path.join(dir, 'project');
    mkdirSync(records);
    mkdirSync(project);
  });
  afterEach(async () => {
    await remove();
  });

  /** An empty folder made now in the project, as recorded once made. */
  function made(name: string): RecordedPlaceholder {
    const at = path.join(project, name);
    mkdirSync(at);
    const info = statSync(at, { bigint: true });
    return { path: at, dev: String(info.dev), ino: String(info.ino), birth: String(info.birthtimeNs) };
  }

  function writeRecord(name: string, pid: number, startedAt: string, placeholders: RecordedPlaceholder[]): void {
    writeFileSync(path.join(records, name), JSON.stringify({ pid, startedAt, placeholders }));
  }

  it("removes what a stopped process left, only where it is still exactly what was made, and leaves a running one's", async () => {
    const userOld = path.join(project, '.idea');
    mkdirSync(userOld);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const since = String(BigInt(Date.now()) * 1_000_000n);
    const filled = made('.vscode');
    writeFileSync(path.join(filled.path, 'settings.json'), '{}\n');
    const replaced = made('.husky');
    mkdirSync(path.join(project, '.husky-other'));
    // The user removed the placeholder and made their own folder at the name: another inode, or the same one reused later.
    const { ino } = replaced as { ino: string };
    const recordedReplaced = { ...replaced, ino: String(BigInt(ino) + 1n) };
    const dead = [
      made('.claude'),
      filled,
      recordedReplaced,
      { path: made('.gemini').path, since },
      { path: userOld, since },
    ];
    writeRecord(`${deadPid}-x.json`, deadPid, 'boot:1', dead);
    const live = made('.cursor');
    writeRecord(`${process.pid}-live.json`, process.pid, (await ownStartTime()) ?? '', [live]);
    await recoverPlaceholders(records, silentLogger);
    expect(readdirSync(project).sort()).toEqual(['.cursor', '.husky', '.husky-other', '.idea', '.vscode']);
    expect(readdirSync(records)).toEqual([`${process.pid}-live.json`]);
  });
});
