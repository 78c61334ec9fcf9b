import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownStartTime } from '../lib';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { placeholderMode, recoverPlaceholders } from './placeholder-record';

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

  /** A folder made now in the project, marked as a placeholder unless said otherwise. */
  function folder(name: string, isMarked = true): string {
    const at = path.join(project, name);
    mkdirSync(at);
    if (isMarked) chmodSync(at, placeholderMode);
    return at;
  }

  function writeRecord(name: string, pid: number, startedAt: string, since: bigint, paths: string[]): void {
    writeFileSync(path.join(records, name), JSON.stringify({ pid, startedAt, since: String(since), paths }));
  }

  it("removes what a stopped process left, only where it still is a placeholder, and leaves a running one's", async () => {
    const older = folder('.idea');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const since = BigInt(Date.now()) * 1_000_000n;
    const filled = folder('.vscode');
    writeFileSync(path.join(filled, 'settings.json'), '{}\n');
    const dead = [
      folder('.claude'),
      folder('.gemini'),
      filled,
      folder('.husky', false),
      older,
      path.join(project, 'gone'),
    ];
    writeRecord(`${deadPid}-x.json`, deadPid, 'boot:1', since, dead);
    writeRecord(`${process.pid}-live.json`, process.pid, (await ownStartTime()) ?? '', since, [folder('.cursor')]);
    await recoverPlaceholders(records, silentLogger);
    expect(readdirSync(project).sort()).toEqual(['.cursor', '.husky', '.idea', '.vscode']);
    expect(readdirSync(records)).toEqual([`${process.pid}-live.json`]);
  });
});
