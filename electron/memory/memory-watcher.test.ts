import { appendFile, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { sha256Of } from './memory-file';
import { joinEntries } from './memory-format';
import type { MemoryService } from './memory-service';
import { ChangeRecorder } from './test-support/change-recorder';
import { memoryServiceFor } from './test-support/memory-fixtures';

let temp: { dir: string; remove: () => Promise<void> };
let memory: MemoryService;
let recorder: ChangeRecorder;
let file: string;

beforeEach(async () => {
  temp = await makeTempDir();
  file = path.join(temp.dir, 'MEMORY.md');
});
afterEach(async () => {
  recorder.dispose();
  await memory.dispose();
  await temp.remove();
});

/** Far longer than any test: the watcher's periodic re-check never runs, so only file-system events and their confirmations can report a change. */
const backstopOff = 3_600_000;

async function start(pollMs = backstopOff): Promise<void> {
  memory = await memoryServiceFor(temp.dir, { watch: { pollMs } });
  recorder = new ChangeRecorder(memory);
}

/** Replaces the file the way editors and Hermes do: a temp file renamed over it. */
async function replaceByRename(content: string): Promise<void> {
  const temporary = path.join(temp.dir, '.MEMORY.md.editor-tmp');
  await writeFile(temporary, content);
  await rename(temporary, file);
}

describe('the memory watcher', () => {
  it('reports a file created after the watch started, its edits and its deletion, with entry diffs', async () => {
    await start();
    await writeFile(file, joinEntries(['likes tea']));
    const created = await recorder.waitFor('creation', (change) => change.current.exists);
    expect(created).toMatchObject({
      source: 'external',
      target: 'memory',
      previous: { exists: false },
      diff: { added: ['likes tea'], removed: [] },
    });
    await appendFile(file, '\n§\nuses vim');
    const appended = await recorder.waitFor('append', (change) => change.current.entries.length === 2);
    expect(appended.diff).toEqual({ added: ['uses vim'], removed: [], kept: 1, isReordered: false });
    await replaceByRename(joinEntries(['uses vim', 'likes green tea']));
    const replaced = await recorder.waitFor('replace by rename', (change) =>
      change.current.entries.includes('likes green tea'),
    );
    expect(replaced.diff).toEqual({ added: ['likes green tea'], removed: ['likes tea'], kept: 1, isReordered: false });
    await unlink(file);
    const deleted = await recorder.waitFor('deletion', (change) => !change.current.exists);
    expect(deleted.diff.removed).toEqual(['uses vim', 'likes green tea']);
    expect(recorder.changes.every((change) => change.source === 'external')).toBe(true);
  });

  it('reports drift as it happens, and USER.md as well', async () => {
    await start();
    await writeFile(path.join(temp.dir, 'USER.md'), `## About the user\n${'notes '.repeat(300)}`);
    const change = await recorder.waitFor('USER.md drift', (candidate) => candidate.target === 'user');
    expect(change.drift.isDrifted).toBe(true);
    expect(change.drift.reasons.map((reason) => reason.kind)).toContain('entry-over-limit');
    const view = await memory.read(temp.dir, 'user');
    expect(view.lastExternalChange?.current.sha256).toBe(change.current.sha256);
  });

  it("does not report Vigil's own writes as external, from this process or another one", async () => {
    // What is tested is who a change is attributed to, not how it is noticed: with the backstop on, as
    // in the app, a notification chokidar drops under load (see memory-watcher.ts) is re-checked, and
    // the version must still read as Vigil's.
    await start(500);
    await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'written by this process' });
    const other = await memoryServiceFor(temp.dir);
    try {
      await other.mutate(temp.dir, 'memory', { action: 'add', content: 'written by another Vigil' });
    } finally {
      await other.dispose();
    }
    const fromOther = await recorder.waitFor("the other Vigil process's write", (change) =>
      change.current.entries.includes('written by another Vigil'),
    );
    expect(fromOther.source).toBe('vigil');
    // A sync point: an external edit after both writes. Its event comes after anything the watcher
    // made of the two writes, because every read of the file goes through one queue in order.
    await appendFile(file, '\n§\nexternal');
    const external = await recorder.waitFor('the external append', (change) =>
      change.current.entries.includes('external'),
    );
    const sources = recorder.changes.map((change) => [change.source, change.diff.added.join('|')]);
    expect(sources).toEqual([
      ['vigil', 'written by this process'],
      ['vigil', 'written by another Vigil'],
      ['external', 'external'],
    ]);
    expect(external.previous.entries).toEqual(['written by this process', 'written by another Vigil']);
  });

  it("recognises both of two Vigil writes in quick succession, even when the second one's record is on disk before the first version is read", async () => {
    memory = await memoryServiceFor(temp.dir);
    recorder = new ChangeRecorder(memory);
    const first = await memoryServiceFor(temp.dir);
    let second: MemoryService | undefined;
    try {
      await first.mutate(temp.dir, 'memory', { action: 'add', content: 'written by one Vigil process' });
      // The other process has recorded its version and is about to rename it into place: this
      // service reads the first process's version now.
      let readAtTheWorstMoment: Promise<unknown> | undefined;
      second = await memoryServiceFor(temp.dir, {
        afterWriteCheck: () => {
          readAtTheWorstMoment ??= memory.read(temp.dir, 'memory');
          return readAtTheWorstMoment.then(() => undefined);
        },
      });
      await second.mutate(temp.dir, 'memory', { action: 'add', content: 'written by another Vigil process' });
      await memory.read(temp.dir, 'memory');
    } finally {
      await first.dispose();
      await second?.dispose();
    }
    expect(recorder.changes.map((change) => [change.source, change.diff.added.join('|')])).toEqual([
      ['vigil', 'written by one Vigil process'],
      ['vigil', 'written by another Vigil process'],
    ]);
  });

  it("reports an external undo back to Vigil's own last version as external", async () => {
    await start();
    await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'likes tea' });
    const vigilVersion = await readFile(file);
    await replaceByRename(joinEntries(['likes green tea']));
    await recorder.waitFor('the external edit', (change) => change.current.entries.includes('likes green tea'));
    // An editor's undo puts Vigil's bytes back.
    await replaceByRename(vigilVersion.toString('utf8'));
    const undo = await recorder.waitFor('the undo', (change) => change.previous.entries.includes('likes green tea'));
    expect(undo.current.sha256).toBe(sha256Of(vigilVersion));
    expect(recorder.changes.map((change) => change.source)).toEqual(['vigil', 'external', 'external']);
  });

  /**
   * The guarantee: the reported versions are, in order, a subsequence of the versions written;
   * each change's `previous` is the version reported before it, so no change is ever skipped over;
   * every version the file rests in (here: the writer waits) is reported, and so is the last one.
   * A version overwritten before it could be read is superseded: the next change covers it. The
   * periodic re-check is off, so a dropped event fails the test instead of being papered over.
   */
  it('misses none of 1,000 external replacements and appends', async () => {
    await start();
    let random = 12345;
    const next = (): number => {
      random = (random * 1103515245 + 12345) % 2147483648;
      return random / 2147483648;
    };
    let content = '';
    const written: string[] = [];
    const resting: string[] = [];
    for (let index = 0; index < 1000; index += 1) {
      if (content === '' || next() < 0.5) {
        content = joinEntries([`replacement ${index}`, `payload ${'x'.repeat(index % 40)}`]);
        await replaceByRename(content);
      } else {
        const addition = `\n§\nappend ${index}`;
        content += addition;
        await appendFile(file, addition);
      }
      written.push(sha256Of(content));
      // About one version in ten is left to rest until the watcher reports it.
      if (next() < 0.1 || index === 999) {
        resting.push(sha256Of(content));
        // A generous bound so a missed version fails instead of hanging; no timing is asserted.
        await recorder.waitForVersion(sha256Of(content), `version ${index} (resting)`);
      }
    }
    const reported = recorder.changes;
    const positions = reported.map((change) => written.indexOf(change.current.sha256 ?? ''));
    expect(
      positions.every((position) => position >= 0),
      'every reported version is one that was written',
    ).toBe(true);
    expect(
      positions.every((position, index) => index === 0 || position > (positions[index - 1] ?? -1)),
      'in the order written',
    ).toBe(true);
    reported.forEach((change, index) => {
      const before = reported[index - 1];
      if (before !== undefined) expect(change.previous.sha256).toBe(before.current.sha256);
    });
    expect(reported.at(-1)?.current.sha256).toBe(written.at(-1));
    const reportedVersions = new Set(reported.map((change) => change.current.sha256));
    expect(
      resting.filter((sha256) => !reportedVersions.has(sha256)),
      'resting versions never reported',
    ).toEqual([]);
    expect(reported.every((change) => change.source === 'external')).toBe(true);
  }, 120_000);
});
