import { execFileSync } from 'node:child_process';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settleBeside, stillWaiting, swapInFifo } from '../test-support/fifo';
import { makeTempDir } from '../test-support/temp-dir';
import { memoryServiceFor } from './test-support/memory-fixtures';

/**
 * A FIFO an agent puts at a memory file is never waited on (livereads' rule for memory
 * files). The write's race rescue still reads the file it replaced by path with readFile: a FIFO
 * renamed into place between Vigil's check and its rename is hard-linked by the atomic writer
 * (`keepReplacedAt`), and the rescue's readFile of that link waits for a writer for ever (the
 * memory call never answers, and a pool thread is held).
 */

let temp: { dir: string; remove: () => Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.remove();
});

describe('a memory write raced by a FIFO renamed into place after its check', () => {
  it.skipIf(process.platform === 'win32')('answers at once, never waiting on the FIFO', async () => {
    const file = path.join(temp.dir, 'MEMORY.md');
    let isRaced = false;
    const racing = await memoryServiceFor(temp.dir, {
      afterWriteCheck: async () => {
        if (isRaced) return;
        isRaced = true;
        const fifo = path.join(temp.dir, '.MEMORY.md.agent-fifo');
        execFileSync('mkfifo', [fifo]);
        await rename(fifo, file);
      },
    });
    try {
      await writeFile(file, 'likes tea');
      const outcome = await settleBeside(
        racing.mutate(temp.dir, 'memory', { action: 'add', content: 'uses vim' }),
        file,
      );
      expect(outcome).not.toBe('still waiting on the FIFO');
    } finally {
      await racing.dispose();
    }
  });
});

describe("a FIFO an agent puts at a memory file's write record", () => {
  it.skipIf(process.platform === 'win32')('is never waited on by a read or a change of the memory', async () => {
    const file = path.join(temp.dir, 'MEMORY.md');
    const memory = await memoryServiceFor(temp.dir);
    try {
      await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'likes tea' });
      // The record sits beside the memory file, in the folder the agent writes.
      const record = path.join(temp.dir, `.${path.basename(file)}.vigil-record`);
      swapInFifo(record);
      expect(await settleBeside(memory.read(temp.dir, 'memory'), record)).not.toBe(stillWaiting);
      expect(
        await settleBeside(memory.mutate(temp.dir, 'memory', { action: 'add', content: 'uses vim' }), record),
      ).not.toBe(stillWaiting);
    } finally {
      await memory.dispose();
    }
  });
});

describe("a FIFO an agent puts at a memory file's lock (.MEMORY.md.vigil-lock, in the agent's folder)", () => {
  it.skipIf(process.platform === 'win32')('is never waited on by a change of the memory', async () => {
    const memory = await memoryServiceFor(temp.dir);
    try {
      await memory.mutate(temp.dir, 'memory', { action: 'add', content: 'likes tea' });
      const lock = path.join(temp.dir, '.MEMORY.md.vigil-lock');
      swapInFifo(lock);
      const outcome = await settleBeside(
        memory.mutate(temp.dir, 'memory', { action: 'add', content: 'uses vim' }),
        lock,
      );
      expect(outcome).not.toBe(stillWaiting);
    } finally {
      await memory.dispose();
    }
  });
});
