import { spawn } from 'node:child_process';
import { chmodSync, chownSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../test-support/run-vigil';

/** Whether this process is root, which ignores permission bits, so permission tests need an unprivileged child. */
export const isRoot = process.getuid?.() === 0;

/** The uid and gid of `nobody`. */
export const nobody = { uid: 65534, gid: 65534 } as const;

/** Makes a test directory and its contents usable by `nobody` (the directory itself stays as is). */
export function handToNobody(...paths: string[]): void {
  for (const item of paths) chownSync(item, nobody.uid, nobody.gid);
}

/** What the child printed: the write's result or its error. */
export interface ChildOutcome {
  readonly ok: boolean;
  readonly code?: string;
  readonly message?: string;
}

/**
 * Runs `writeFileAtomic(target, content)` in a child process as `nobody` (only possible as root)
 * and reports its outcome; `workDir` must be traversable by `nobody`.
 */
export async function writeAsNobody(workDir: string, target: string, content: string): Promise<ChildOutcome> {
  const script = path.join(workDir, 'write-as-nobody.mts');
  const writer = path.join(repoRoot, 'electron/files/atomic-write.ts');
  writeFileSync(
    script,
    `import { writeFileAtomic } from ${JSON.stringify(writer)};
try { await writeFileAtomic(${JSON.stringify(target)}, ${JSON.stringify(content)}); console.log(JSON.stringify({ ok: true })); }
catch (error) { console.log(JSON.stringify({ ok: false, code: error.code, message: error.message })); }
`,
  );
  chmodSync(script, 0o644);
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: repoRoot,
    uid: nobody.uid,
    gid: nobody.gid,
    env: { ...process.env, HOME: workDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await new Promise((resolve) => child.on('close', resolve));
  const line = stdout.trim().split('\n').pop() ?? '';
  if (!line.startsWith('{')) throw new Error(`the child as nobody printed no outcome: ${stderr}`);
  return JSON.parse(line) as ChildOutcome;
}
