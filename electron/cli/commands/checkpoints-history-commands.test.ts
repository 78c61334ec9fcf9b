import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** `vigil checkpoints restore --lines`, `log`, `search` and `rename`, through the CLI's own entry (and a real child process for the restore). */
async function vigil(args: readonly string[], env: NodeJS.ProcessEnv): Promise<VigilRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.setEncoding('utf8').on('data', (chunk: string) => out.push(chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => err.push(chunk));
  const code = await runCli(
    args,
    { stdout, stderr, stdin: new PassThrough(), env: { ...process.env, ...env }, cwd: process.cwd() },
    commandTable,
  );
  return { code, signal: null, stdout: out.join(''), stderr: err.join('') };
}

describe('vigil checkpoints restore --lines, log, search, rename', () => {
  let base: string;
  let remove: () => Promise<void>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const ids: string[] = [];

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-cli-history-'));
    dir = path.join(base, 'project');
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    env = { VIGIL_HOME: path.join(base, 'home') };
    const sessions = path.join(base, 'home', 'sessions');
    mkdirSync(sessions, { recursive: true });
    const at = new Date().toISOString();
    const log = [
      { type: 'opened', v: 1, at, id: 'sess-1', agent: 'alpha', roots: [dir] },
      { type: 'turn-began', at, turn: 2 },
      { type: 'message', at, turn: 2, role: 'user', text: 'Drop the debug output\nand tidy up' },
    ];
    writeFileSync(path.join(sessions, 'sess-1.jsonl'), `${log.map((record) => JSON.stringify(record)).join('\n')}\n`);
    const engine = new CheckpointEngine({ root: path.join(base, 'home', 'checkpoints'), logger: silentLogger });
    ids.length = 0;
    const take = async (turn: number): Promise<void> => {
      const outcome = await engine.checkpoint(dir, {
        reason: 'before write_file',
        attribution: { sessionId: 'sess-1', turn, agent: 'alpha' },
      });
      if (outcome.kind !== 'created') throw new Error('expected a checkpoint');
      ids.unshift(outcome.checkpoint.id);
    };
    writeFileSync(path.join(dir, 'src/app.ts'), 'a\nb\nc\nd\n');
    await take(1);
    writeFileSync(path.join(dir, 'src/app.ts'), 'a\nb\nc\nd\nconsole.log(1)\n');
    await take(2);
    writeFileSync(path.join(dir, 'src/app.ts'), 'a\nB\nC\nd\n');
    await engine.dispose();
  });
  afterEach(async () => {
    await remove();
  });

  it('restores only lines A-B of a file, in a real vigil process, and prints how to undo it', async () => {
    const dry = await vigil(['checkpoints', 'restore', dir, '1', 'src/app.ts', '--lines', '2-2', '--dry-run'], env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Plan: restore line 2 of src/app.ts');
    expect(dry.stdout).toContain('1 line(s) put back, 1 taken out; every other line stays as it is now.');
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe('a\nB\nC\nd\n');

    const run = await runVigil(['checkpoints', 'restore', dir, '1', 'src/app.ts', '--lines', '2-3'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('✅ Restored lines 2–3 of src/app.ts to checkpoint');
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe('a\nb\nc\nd\n');
    const undo = /Undo this restore: (.+)$/m.exec(run.stdout)?.[1] ?? '';
    expect(undo).toBe(`vigil checkpoints restore ${dir} 1 src/app.ts`);
    const undone = await vigil(['checkpoints', 'restore', dir, '1', 'src/app.ts'], env);
    expect(undone.code, undone.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe('a\nB\nC\nd\n');
  });

  it('refuses --lines outside the file with the valid range and exit code 2, and wrong usage with 2', async () => {
    const outside = await vigil(['checkpoints', 'restore', dir, '1', 'src/app.ts', '--lines', '4-9'], env);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain(
      `lines 4–9 are outside src/app.ts in checkpoint ${ids[0]?.slice(0, 8) ?? ''}, which has 5 lines: use lines within 1–5.`,
    );
    const reversed = await vigil(['checkpoints', 'restore', dir, '1', 'src/app.ts', '--lines', '3-2'], env);
    expect(reversed.code).toBe(2);
    expect(reversed.stderr).toContain('--lines takes A-B');
    const two = await vigil(['checkpoints', 'restore', dir, '1', 'src/app.ts', 'other.ts', '--lines', '1-2'], env);
    expect(two.code).toBe(2);
    expect(readFileSync(path.join(dir, 'src/app.ts'), 'utf8')).toBe('a\nB\nC\nd\n');
  });

  it("lists a file's history with who and the turn's message, and as JSON", async () => {
    const log = await vigil(['checkpoints', 'log', dir, 'src/app.ts'], env);
    expect(log.code, log.stderr).toBe(0);
    expect(log.stdout).toContain('History of src/app.ts');
    const lines = log.stdout.split('\n').filter((line) => /^\s+\d\. /.test(line));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(
        `^  1\\. ${ids[0]?.slice(0, 8) ?? ''} .* changed after it \\(by now\\)  \\[alpha · session sess-1 · turn 2\\]  "Drop the debug output"$`,
      ),
    );
    expect(lines[1]).toContain(`changed after it (by ${ids[0]?.slice(0, 8) ?? ''})`);
    const json = JSON.parse((await vigil(['checkpoints', 'log', dir, 'src/app.ts', '--json'], env)).stdout) as {
      entries: Array<{ number: number; turnMessage?: string }>;
    };
    expect(json.entries.map((entry) => entry.number)).toEqual([1, 2]);
    expect(json.entries[0]?.turnMessage).toBe('Drop the debug output\nand tidy up');
  });

  it('finds when a text appeared and went away', async () => {
    const found = await vigil(['checkpoints', 'search', dir, 'console.log'], env);
    expect(found.code, found.stderr).toBe(0);
    const lines = found.stdout.split('\n').filter((line) => /^\s+\d\. /.test(line));
    expect(lines).toEqual([
      expect.stringMatching(
        /src\/app\.ts {2}1 → 0 \(went away, by now\) {2}\[alpha · session sess-1 · turn 2\] {2}"Drop the debug output"$/,
      ) as unknown as string,
      expect.stringMatching(/src\/app\.ts {2}0 → 1 \(appeared, by /) as unknown as string,
    ]);
    const none = await vigil(['checkpoints', 'search', dir, 'no such text'], env);
    expect(none.stdout).toContain('changed in no file across the 2 checkpoints');
  });

  it('names a checkpoint, and the list shows the name', async () => {
    const named = await vigil(['checkpoints', 'rename', dir, '2', 'before the cleanup'], env);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toBe(`Checkpoint ${ids[1]?.slice(0, 8) ?? ''} of ${dir} is named "before the cleanup".\n`);
    const list = await vigil(['checkpoints', 'list', dir], env);
    expect(list.stdout).toMatch(/ 2\. \w{8} .* "before the cleanup" {2}before write_file/);
  });
});
