import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs Playwright's CLI in the repository and collects its exit code and output. */
function runPlaywright(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...args], {
      cwd: root,
      env: { ...process.env, ...env, CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('the chromium end-to-end project without a Chromium', () => {
  it('fails with the remedy, not with Playwright’s missing download', async () => {
    const output = await mkdtemp(path.join(os.tmpdir(), 'vigil-pw-out-'));
    try {
      const run = await runPlaywright(
        ['e2e/app-shell.spec.ts', '--project', 'chromium', '--output', output, '--trace', 'off'],
        {
          CHROMIUM_PATH: path.join(output, 'no-such-chromium'),
        },
      );
      expect(run.code).toBe(1);
      expect(run.output).toContain('No Chromium for the end-to-end tests');
      expect(run.output).toContain('apt-get install -y chromium');
      expect(run.output).toContain('set CHROMIUM_PATH');
      expect(run.output).not.toContain("Executable doesn't exist");
      expect(run.output).toMatch(/\d+ did not run/);
    } finally {
      await rm(output, { recursive: true, force: true });
    }
  });
});
