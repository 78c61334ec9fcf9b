import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { repoRoot } from '../test-support/run-vigil';
import { writeFileAtomic } from './atomic-write';
import { isVigilTempFile } from './vigil-temp-name';

const crashWriter = path.join(repoRoot, 'electron/files/test-support/crash-writer.ts');
const sizeA = 2 * 1024 * 1024;
const sizeB = 3 * 1024 * 1024 + 17;
const rounds = 26;
const parallel = 4;

let base: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  base = await makeTempDir('vigil-crash-');
});
afterAll(async () => {
  await base.remove();
});

/** What the target holds: exactly version A, exactly version B, or something torn. */
function classify(bytes: Buffer): 'a' | 'b' | 'torn' {
  if (bytes.length === sizeA && bytes.every((byte) => byte === 0x61)) return 'a';
  if (bytes.length === sizeB && bytes.every((byte) => byte === 0x62)) return 'b';
  return 'torn';
}

/** Starts a writer on `target`, SIGKILLs it at a random moment after its first write began, and waits for it to die. */
async function killMidWrite(target: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', crashWriter, target, String(sizeA), String(sizeB)], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', () => resolve());
    child.on('close', () => reject(new Error(`the crash writer exited before writing: ${stderr}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 80));
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
}

describe('writeFileAtomic under SIGKILL', () => {
  it(`leaves exactly the old or the new content after ${rounds * parallel} kills mid-write, and the next write sweeps the temp`, async () => {
    const outcomes = { a: 0, b: 0, torn: 0, leftTemp: 0 };
    for (let round = 0; round < rounds; round += 1) {
      await Promise.all(
        Array.from({ length: parallel }, async (_, slot) => {
          const dir = path.join(base.dir, `slot-${slot}`);
          const target = path.join(dir, 'data.bin');
          if (round === 0) await writeFileAtomic(target, Buffer.alloc(sizeA, 0x61));
          await killMidWrite(target);
          outcomes[classify(readFileSync(target))] += 1;
          const temps = readdirSync(dir).filter((name) => isVigilTempFile(name));
          expect(temps.length).toBeLessThanOrEqual(1);
          if (temps.length === 1) outcomes.leftTemp += 1;
          // The next write from another process (this one) sweeps the dead writer's temp.
          await writeFileAtomic(target, Buffer.alloc(sizeA, 0x61));
          expect(readdirSync(dir)).toEqual(['data.bin']);
        }),
      );
    }
    expect(outcomes.torn).toBe(0);
    expect(outcomes.a + outcomes.b).toBe(rounds * parallel);
    // The kills really landed inside writes (a temp was left behind), not only between them.
    expect(outcomes.leftTemp).toBeGreaterThan((rounds * parallel) / 2);
  }, 240_000);
});
