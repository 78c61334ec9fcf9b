import { execFileSync } from 'node:child_process';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { findAppendedText } from './memory-appended';
import type { MemoryService } from './memory-service';
import { entryDigest } from './memory-write-record';
import { ChangeRecorder } from './test-support/change-recorder';
import { hermesDrifts, hermesEntries } from './test-support/hermes-drift-rule';
import { backupsIn, memoryServiceFor, rejection } from './test-support/memory-fixtures';

const hermesTool = path.join(repoRoot, 'electron/hermes/test-support/hermes_memory_tool.py');

let temp: { dir: string; remove: () => Promise<void> };
let memory: MemoryService;
let file: string;
beforeEach(async () => {
  temp = await makeTempDir();
  memory = await memoryServiceFor(temp.dir, { watch: {} });
  file = path.join(temp.dir, 'MEMORY.md');
});
afterEach(async () => {
  await memory.dispose();
  await temp.remove();
});

describe('text appended outside Vigil after the last entry', () => {
  it('is found from the version before, or from the entries Vigil wrote', () => {
    expect(findAppendedText(['likes tea', 'uses pnpm\n- note'], ['likes tea', 'uses pnpm'], new Set(), 2200)).toEqual({
      entry: 'uses pnpm\n- note',
      original: 'uses pnpm',
      appended: '- note',
    });
    // Glued to the last entry (the file had no final newline): found from the version before.
    expect(findAppendedText(['uses pnpm- note'], ['uses pnpm'], new Set(), 2200)).toEqual({
      entry: 'uses pnpm- note',
      original: 'uses pnpm',
      appended: '- note',
    });
    // After a restart no version before is known: the write record's entries still tell.
    expect(findAppendedText(['uses pnpm\n- a\n- b'], undefined, new Set([entryDigest('uses pnpm')]), 2200)).toEqual({
      entry: 'uses pnpm\n- a\n- b',
      original: 'uses pnpm',
      appended: '- a\n- b',
    });
    expect(findAppendedText(['uses pnpm\n- note'], undefined, new Set(), 2200)).toBeNull();
    expect(findAppendedText(['likes tea', 'uses pnpm'], ['likes tea', 'uses pnpm'], new Set(), 2200)).toBeNull();
    expect(findAppendedText([], ['x'], new Set(), 2200)).toBeNull();
  });

  it('in a megabyte-long last entry, looks for what Vigil wrote only within the limit (an entry Vigil wrote is never longer)', () => {
    const pasted = '- pasted log line\n'.repeat(60_000);
    const entry = `uses pnpm\n${pasted}end`;
    expect(findAppendedText([entry], undefined, new Set([entryDigest('uses pnpm')]), 2200)).toEqual({
      entry,
      original: 'uses pnpm',
      appended: `${pasted}end`,
    });
    // A prefix longer than twice the limit was never written by Vigil: not looked for.
    const long = 'x'.repeat(4_500);
    expect(findAppendedText([`${long}\n- note`], undefined, new Set([entryDigest(long)]), 2200)).toBeNull();
    expect(findAppendedText([`${long}\n- note`], undefined, new Set([entryDigest(long)]), 3000)).toEqual({
      entry: `${long}\n- note`,
      original: long,
      appended: '- note',
    });
  });

  it('an echo after a Vigil write is an external change on a line of its own, kept as a new entry in one call', async () => {
    await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'likes tea' });
    await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'uses pnpm' });
    const recorder = new ChangeRecorder(memory);
    try {
      await appendFile(file, '- deploys on Fridays\n');
      const change = await recorder.waitFor('the echo', (candidate) => candidate.source === 'external');
      expect(change.appended).toEqual({
        entry: 'uses pnpm\n- deploys on Fridays',
        original: 'uses pnpm',
        appended: '- deploys on Fridays',
      });
    } finally {
      recorder.dispose();
    }
    const view = await memory.read(temp.dir, 'memory');
    expect(view.drift.isDrifted).toBe(false);
    expect(view.appended?.appended).toBe('- deploys on Fridays');
    const kept = await memory.keepAppended(
      temp.dir,
      'memory',
      view.sha256 ?? '',
      view.appended?.entry ?? '',
      view.appended?.original ?? '',
    );
    expect(kept).toMatchObject({
      outcome: 'changed',
      entries: ['likes tea', 'uses pnpm', '- deploys on Fridays'],
      preserved: [],
    });
    const bytes = await readFile(file);
    expect(bytes.toString('utf8')).toBe('likes tea\n§\nuses pnpm\n§\n- deploys on Fridays\n');
    expect(hermesDrifts(bytes, 2200)).toBe(false);
    expect(hermesEntries(bytes)).toEqual(['likes tea', 'uses pnpm', '- deploys on Fridays']);
    expect(await backupsIn(temp.dir)).toEqual([]);
    expect((await memory.read(temp.dir, 'memory')).appended).toBeNull();
  });

  it("is found after Hermes's own write too (no final newline, so the note is glued on), and Hermes reads the result", async () => {
    execFileSync('python3', [hermesTool, 'add', file, 'the user prefers tabs', 'the project uses pnpm']);
    await memory.read(temp.dir, 'memory');
    const recorder = new ChangeRecorder(memory);
    try {
      await appendFile(file, '- remember the demo\n');
      await recorder.waitFor('the echo', (candidate) => candidate.appended !== undefined);
    } finally {
      recorder.dispose();
    }
    const view = await memory.read(temp.dir, 'memory');
    expect(view.appended).toEqual({
      entry: 'the project uses pnpm- remember the demo',
      original: 'the project uses pnpm',
      appended: '- remember the demo',
    });
    await memory.keepAppended(
      temp.dir,
      'memory',
      view.sha256 ?? '',
      view.appended?.entry ?? '',
      view.appended?.original ?? '',
    );
    execFileSync('python3', [hermesTool, 'add', file, 'tests run with vitest']);
    const bytes = await readFile(file);
    expect(hermesEntries(bytes)).toEqual([
      'the user prefers tabs',
      'the project uses pnpm',
      '- remember the demo',
      'tests run with vitest',
    ]);
  });

  it('refuses a stale view, writing nothing', async () => {
    await writeFile(file, 'likes tea\n§\nuses pnpm\n- note\n');
    const stale = await rejection(
      memory.keepAppended(temp.dir, 'memory', 'f'.repeat(64), 'uses pnpm\n- note', 'uses pnpm'),
    );
    expect(stale.code).toBe('conflict');
    expect(await readFile(file, 'utf8')).toBe('likes tea\n§\nuses pnpm\n- note\n');
  });
});
