import { spawn } from 'node:child_process';
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectRun, repoRoot } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { parseEntries } from './memory-format';
import { findInvalidUtf8 } from './utf8';

/** One call a worker made, as it reported it. */
interface WorkerCall {
  readonly call: number;
  readonly action: 'add' | 'replace' | 'remove';
  readonly token: string;
  readonly text: string;
  readonly isAcknowledged: boolean;
  readonly code?: string;
}

let temp: { dir: string; remove: () => Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.remove();
});

async function runWorker(dir: string, id: number, count: number, limit: number): Promise<WorkerCall[]> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(repoRoot, 'electron/memory/test-support/memory-worker.ts'),
      dir,
      String(id),
      String(count),
      String(1000 + id * 7919),
      String(limit),
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const { code, stdout, stderr } = await collectRun(child);
  if (code !== 0) throw new Error(`worker ${id} exited with ${String(code)}: ${stderr}`);
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as WorkerCall);
}

describe('concurrent writers', () => {
  it('4 processes × 200 random calls plus an external appender: nothing acknowledged or appended is lost, the file is never corrupt', async () => {
    const dir = temp.dir;
    const file = path.join(dir, 'MEMORY.md');
    // A memory file already in use (appending "\n§\n…" to an empty file would itself be drift).
    await writeFile(file, 'The user prefers concise answers.');
    const workers = Promise.all([1, 2, 3, 4].map((id) => runWorker(dir, id, 200, 50_000)));
    const progress = { isDone: false };
    workers.then(
      () => (progress.isDone = true),
      () => (progress.isDone = true),
    );

    // The external writer: `cat >>`-style appends, free-form (they merge into the last entry) or
    // shaped like entries, with no lock, while the workers run. A reader checks every version it sees.
    const appended: string[] = [];
    const problems: string[] = [];
    for (let index = 0; !progress.isDone && index < 200; index += 1) {
      const marker = `EXT-${index}`;
      await appendFile(file, index % 3 === 0 ? `\n§\n${marker} appended as an entry` : `\n${marker} free-form note`);
      appended.push(marker);
      const bytes = await readFile(file);
      if (findInvalidUtf8(bytes) !== -1) problems.push(`invalid UTF-8 after ${marker}`);
      const tokens = bytes.toString('utf8').match(/<W\d+-E\d+>/g) ?? [];
      if (new Set(tokens).size !== tokens.length) problems.push(`an entry appears twice after ${marker}`);
      await new Promise((resolve) => setTimeout(resolve, 40 + (index % 5) * 20));
    }
    const calls = await workers;
    expect(problems).toEqual([]);

    const finalText = await readFile(file, 'utf8');
    const entries = parseEntries(finalText);
    const names = await readdir(dir);
    const backups = await Promise.all(
      names.filter((name) => name.startsWith('MEMORY.md.bak.')).map((name) => readFile(path.join(dir, name), 'utf8')),
    );

    // Every acknowledged add is present (with its last acknowledged text) or was explicitly removed.
    let checked = 0;
    for (const workerCalls of calls) {
      expect(workerCalls).toHaveLength(200);
      const last = new Map<string, WorkerCall>();
      for (const call of workerCalls) if (call.isAcknowledged) last.set(call.token, call);
      for (const [token, call] of last) {
        const holding = entries.filter((entry) => entry.includes(token));
        if (call.action === 'remove') expect(holding, `${token} was removed`).toEqual([]);
        else {
          expect(holding, `${token} is present once`).toHaveLength(1);
          expect(holding[0]?.startsWith(call.text), `${token} reads "${call.text}"`).toBe(true);
        }
        checked += 1;
      }
      // Refusals are the expected kinds only: no drift (the appends keep the shape) and no lock
      // timeout; a `conflict` is a call that found the file changing under every attempt.
      const refusals = workerCalls.filter((call) => !call.isAcknowledged);
      for (const call of refusals)
        expect(['no_match', 'ambiguous_match', 'limit_exceeded', 'conflict']).toContain(call.code);
      expect(refusals.length, 'most calls go through').toBeLessThan(50);
    }
    expect(checked).toBeGreaterThan(100);

    // Every external append is in the file or in a backup.
    const lost = appended.filter(
      (marker) => !finalText.includes(`${marker} `) && !backups.some((backup) => backup.includes(`${marker} `)),
    );
    expect(lost).toEqual([]);
    expect(appended.length).toBeGreaterThan(20);

    // No lock or temp file is left behind; the file is valid and tool-shaped.
    expect(names.filter((name) => name.includes('vigil-lock') || name.includes('.tmp'))).toEqual([]);
    expect(findInvalidUtf8(Buffer.from(finalText))).toBe(-1);
  }, 240_000);
});
