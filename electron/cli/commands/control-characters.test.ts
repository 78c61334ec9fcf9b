import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCheckpointService } from '../../checkpoints';
import { silentLogger } from '../../logging/logger';
import { runVigil, type VigilRun } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';
import { commandTable } from '../command-table';
import { runCli } from '../run-cli';

const { CheckpointService: CheckpointEngine } = await loadCheckpointService();

const esc = '\u001b';
/** Any C0 control but newline and tab, DEL, or a C1 control: none may reach the terminal raw. */
function hasRawControl(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if ((code <= 0x1f && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

let base: string;
let remove: () => Promise<void>;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-cli-controls-'));
  // A throwaway HOME too: nothing here may touch the machine's real one.
  env = {
    VIGIL_HOME: path.join(base, 'vigil'),
    HOME: path.join(base, 'home'),
    HERMES_HOME: path.join(base, 'no-hermes'),
  };
  mkdirSync(path.join(base, 'home'));
});
afterEach(async () => {
  await remove();
});

/** Runs the CLI in this process with captured streams. */
async function vigil(args: readonly string[]): Promise<VigilRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.setEncoding('utf8').on('data', (chunk: string) => out.push(chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => err.push(chunk));
  const code = await runCli(
    args,
    { stdout, stderr, stdin: new PassThrough(), env: { ...process.env, ...env }, cwd: base },
    commandTable,
  );
  return { code, signal: null, stdout: out.join(''), stderr: err.join('') };
}

describe('control characters never reach the terminal raw', () => {
  it('vigil memory add refuses an escape sequence, naming the character and its position; nothing is written', async () => {
    const run = await runVigil(['memory', 'add', `x${esc}[31mred`], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('U+001B ESC at position 2');
    expect(hasRawControl(run.stderr)).toBe(false);
    expect(existsSync(path.join(base, 'vigil', 'memories', 'MEMORY.md'))).toBe(false);
    const tabbed = await runVigil(['memory', 'add', 'columns:\tname\tvalue\nsecond line'], { env });
    expect(tabbed.code, tabbed.stderr).toBe(0);
  }, 60_000);

  it('vigil memory list shows an escape another program wrote into MEMORY.md escaped, and --json stays valid', async () => {
    const memories = path.join(base, 'vigil', 'memories');
    mkdirSync(memories, { recursive: true });
    writeFileSync(path.join(memories, 'MEMORY.md'), `plain entry\n§\nred ${esc}[31malert${esc}[0m and a bell \u0007`);
    const listed = await vigil(['memory', 'list', '--target', 'memory']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('red \\u001b[31malert\\u001b[0m and a bell \\u0007');
    expect(hasRawControl(listed.stdout)).toBe(false);
    const json = await vigil(['memory', 'list', '--target', 'memory', '--json']);
    const parsed = JSON.parse(json.stdout) as { value: { entries: string[] }[] };
    expect(parsed.value[0]?.entries[1]).toBe(`red ${esc}[31malert${esc}[0m and a bell \u0007`);
  });

  it('the restore plan gives each file one line, with a newline or an escape in its name escaped', async () => {
    const project = path.join(base, 'project');
    const names = ['two\nlines.txt', `red${esc}[31m.txt`, 'plain.txt'];
    mkdirSync(project);
    for (const name of names) writeFileSync(path.join(project, name), 'before\n');
    const engine = new CheckpointEngine({ root: path.join(base, 'vigil', 'checkpoints'), logger: silentLogger });
    expect((await engine.checkpoint(project, { reason: 'before patch' })).kind).toBe('created');
    await engine.dispose();
    for (const name of names) writeFileSync(path.join(project, name), 'after\n');
    const plan = await vigil(['checkpoints', 'restore', project, '1', '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(hasRawControl(plan.stdout)).toBe(false);
    const lines = plan.stdout.split('\n');
    const planned = lines
      .filter((line) => line.startsWith('  restore '))
      .map((line) => /^ {2}restore {3}(\S+) /u.exec(line)?.[1]);
    expect(planned).toEqual(['plain.txt', 'red\\u001b[31m.txt', 'two\\nlines.txt']);
    const listed = await vigil(['checkpoints', 'list', project]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(hasRawControl(listed.stdout)).toBe(false);
    const diff = await vigil(['checkpoints', 'diff', project, '1']);
    expect(diff.stdout).toContain(' two\\nlines.txt ');
    expect(hasRawControl(diff.stdout)).toBe(false);
    expect(readFileSync(path.join(project, 'plain.txt'), 'utf8')).toBe('after\n');
  });
});
