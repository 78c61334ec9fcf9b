import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';

describe('logProcessErrors', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('logs an uncaught exception and an unhandled rejection with their stacks, and the process lives on', async () => {
    const temp = await makeTempDir('vigil-process-errors-');
    cleanup = temp.remove;
    const script = path.join(temp.dir, 'escape.ts');
    const module = (file: string): string => pathToFileURL(path.join(repoRoot, file)).href;
    await writeFile(
      script,
      [
        `import { createFileLogger } from ${JSON.stringify(module('electron/logging/logger.ts'))};`,
        `import { logProcessErrors } from ${JSON.stringify(module('electron/logging/log-process-errors.ts'))};`,
        `const logger = createFileLogger({ directory: ${JSON.stringify(temp.dir)}, fileName: 'main.log' });`,
        'const kinds: string[] = [];',
        'logProcessErrors(logger, (_error, kind) => kinds.push(kind));',
        "setTimeout(() => { throw new Error('thrown from a timer'); }, 0);",
        "void Promise.reject(new Error('rejected and forgotten'));",
        'setTimeout(async () => { await logger.flush(); process.stdout.write(`alive ${kinds.sort().join(",")}\\n`); }, 200);',
      ].join('\n'),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(stdout).toBe('alive uncaught-exception,unhandled-rejection\n');
    const records = (await readFile(path.join(temp.dir, 'main.log'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { message: string; kind: string; error: { stack: string } });
    expect(records.map((record) => record.kind).sort()).toEqual(['uncaught-exception', 'unhandled-rejection']);
    expect(records.find((record) => record.kind === 'uncaught-exception')?.error.stack).toContain(
      'thrown from a timer',
    );
    expect(records.find((record) => record.kind === 'unhandled-rejection')?.error.stack).toContain(
      'rejected and forgotten',
    );
  });
});
