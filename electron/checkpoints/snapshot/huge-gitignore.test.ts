import { closeSync, openSync, writeSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { useCheckpointEngine } from '../test-support/engine-fixture';
import { runGit } from '../test-support/restore-fixtures';
import { storedTree } from '../test-support/round-trip-truth';

/**
 * An ignore file over git's own limit (100 MiB, `PATTERN_MAX_FILE_SIZE` in git's dir.c; older gits
 * have none): git warns and uses none of its patterns, so a checkpoint does the same, with a warning naming the file. Read whole, a text one over 512 MB
 * failed every checkpoint of the folder (a string that long cannot be made).
 */

const fixture = useCheckpointEngine('vigil-huge-gitignore-');

/** A real text file of `bytes` bytes: `head`, then comment lines. */
function writeTextFile(file: string, head: string, bytes: number): void {
  const line = Buffer.from(`#${'-'.repeat(1022)}\n`);
  const handle = openSync(file, 'w');
  try {
    writeSync(handle, head);
    for (let written = head.length; written < bytes; written += line.length) writeSync(handle, line);
  } finally {
    closeSync(handle);
  }
}

it('skips the rules of a .gitignore over 100 MiB with a warning, as git does, and still checkpoints', async () => {
  const { dir, engine } = fixture;
  runGit(['init', '-q', dir]);
  writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  writeFileSync(path.join(dir, 'b.log.txt'), 'b\n');
  writeTextFile(path.join(dir, '.gitignore'), '*.log.txt\n', 100 * 1024 * 1024 + 4096);
  const taken = await engine.checkpoint(dir, { reason: 'before write_file' });
  if (taken.kind !== 'created') throw new Error('expected a checkpoint');
  const { warnings } = await engine.storeRules(dir);
  expect(warnings.join('\n')).toContain(`${path.join(dir, '.gitignore')} is larger than 100 MiB`);
  // Read with git's own CLI from the store.
  const stored = storedTree(path.join(dir, '..', 'home', 'checkpoints', 'store'), taken.checkpoint.id);
  expect([...stored.keys()].sort()).toEqual(['a.txt', 'b.log.txt']);
});
