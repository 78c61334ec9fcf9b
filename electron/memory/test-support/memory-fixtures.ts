import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../../shared/errors';
import { silentLogger } from '../../logging/logger';
import { repoRoot } from '../../test-support/run-vigil';
import { memoryDirectoryId } from '../memory-config';
import { createMemoryService, type MemoryService, type MemoryServiceOptions } from '../memory-service';

/** A memory service over one real directory, with the default limits unless given. */
export function memoryServiceFor(
  dir: string,
  options: Partial<MemoryServiceOptions> & { limits?: { memory: number; user: number } } = {},
): Promise<MemoryService> {
  const { limits, ...rest } = options;
  return createMemoryService({
    directories: [
      {
        id: memoryDirectoryId(dir),
        path: dir,
        label: 'test',
        source: 'config',
        limits: limits ?? { memory: 2200, user: 1375 },
      },
    ],
    logger: silentLogger,
    ...rest,
  });
}

/** The AppError a promise rejects with (fails the test if it resolves or rejects with anything else). */
export async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to be refused');
}

/** The backup files of MEMORY.md / USER.md in a directory. */
export async function backupsIn(dir: string, name = 'MEMORY.md'): Promise<string[]> {
  return (await readdir(dir)).filter((file) => file.startsWith(`${name}.bak.`)).sort();
}

/** A child process holding the memory lock of `file` until `release()` (or until it is killed). */
export async function holdMemoryLockInChild(
  file: string,
  purpose: string,
): Promise<{ child: ChildProcessWithoutNullStreams; release: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'electron/memory/test-support/hold-memory-lock.ts'), file, purpose],
    {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('held')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the lock holder exited early (${String(code)})`)));
  });
  return {
    child,
    release: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

/** Child processes writing `count` backups each of `file`, all stamped with one instant, started at once; resolves to every path they printed. */
export async function writeBackupsFromProcesses(
  file: string,
  processes: number,
  count: number,
  now: Date,
): Promise<string[]> {
  const children = Array.from({ length: processes }, (_, id) =>
    spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(repoRoot, 'electron/memory/test-support/backup-writer.ts'),
        file,
        String(id),
        String(count),
        now.toISOString(),
      ],
      {
        cwd: repoRoot,
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    ),
  );
  const outputs = children.map((child) => {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => {
        if (output.startsWith('ready\n')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`a backup writer exited early (${String(code)})`)));
    });
    const done = new Promise<string>((resolve, reject) =>
      child.on('exit', (code) =>
        code === 0 ? resolve(output) : reject(new Error(`a backup writer failed (${String(code)})`)),
      ),
    );
    return { child, ready, done };
  });
  await Promise.all(outputs.map((item) => item.ready));
  for (const { child } of outputs) child.stdin.end('go\n');
  const printed = await Promise.all(outputs.map((item) => item.done));
  return printed.flatMap((output) =>
    output
      .split('\n')
      .slice(1)
      .filter((line) => line !== ''),
  );
}
