import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testService } from '../checkpoints/test-support/store-fixtures';
import { tsxLoader, vigilEntry } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';

/** Quotes one word for bash. */
function shellWord(word: string): string {
  return `'${word.replace(/'/g, "'\\''")}'`;
}

describe('a closed output pipe', () => {
  let remove: () => Promise<void>;
  let base: string;

  beforeEach(async () => {
    const temp = await makeTempDir('vigil-pipe-');
    remove = temp.remove;
    base = temp.dir;
  });
  afterEach(async () => {
    await remove();
  });

  it('ends `vigil checkpoints list DIR | head -1` quietly with status 0', { timeout: 300_000 }, async () => {
    const home = path.join(base, 'home');
    const project = path.join(base, 'project');
    await mkdir(project, { recursive: true });
    // Far more output than a pipe holds (64 KiB), so the list is still writing when head has gone.
    const engine = testService(path.join(home, 'checkpoints'), { retention: { maxSnapshots: 5_000 } });
    try {
      for (let index = 0; index < 400; index += 1) {
        await writeFile(path.join(project, 'n.txt'), `${index}\n`);
        await engine.checkpoint(project, {
          reason: `step ${index} ${'of a long and carefully described piece of work '.repeat(4)}`,
        });
      }
    } finally {
      await engine.dispose();
    }
    const vigil = [process.execPath, '--import', tsxLoader, vigilEntry, 'checkpoints', 'list', project]
      .map(shellWord)
      .join(' ');
    const child = spawn('bash', ['-c', `set -o pipefail; ${vigil} | head -1`], {
      env: { ...process.env, VIGIL_HOME: home, HERMES_HOME: path.join(base, 'no-hermes') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(`Checkpoints for ${project} (400):\n`);
  });
});
