import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { readSessionLog } from './session-log';
import { SessionRegistry } from './session-registry';

const writerScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-support', 'session-log-writer.ts');
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function registryAt(home: string, problems: string[] = []): SessionRegistry {
  return new SessionRegistry({
    directory: path.join(home, 'sessions'),
    logger: silentLogger,
    events: {
      emit: (name, payload) =>
        name === 'app:problem-reported' ? problems.push((payload as { message: string }).message) : undefined,
    },
  });
}

/** Calls `kill` as soon as the file has grown: the big record is being written, and not finished yet. */
function killWhileGrowing(file: string, kill: () => void): void {
  const baseline = statSync(file).size;
  const poll = (): void => {
    if (statSync(file).size > baseline) kill();
    else setImmediate(poll);
  };
  poll();
}

/** Runs the writer until it has acknowledged `acks` messages and announced a big record, then SIGKILLs it. */
function killWriter(home: string, acks: number): Promise<{ sessionId: string; acknowledged: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', writerScript, home], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let sessionId = '';
  let acknowledged = 0;
  let buffer = '';
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line.startsWith('opened ')) sessionId = line.slice(7);
        if (line.startsWith('ack ')) acknowledged = Number(line.slice(4));
        if (line === 'big' && acknowledged >= acks)
          killWhileGrowing(path.join(home, 'sessions', `${sessionId}.jsonl`), () => child.kill('SIGKILL'));
      }
    });
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL'
        ? resolve({ sessionId, acknowledged })
        : reject(new Error(`writer exited without being killed (${String(signal)})`)),
    );
  });
}

describe('session logs survive a SIGKILLed writer', () => {
  it('keeps every acknowledged record, reports a torn last line, and appends after it on a fresh line', async () => {
    let sawTornLine = false;
    for (let round = 0; round < 3 && !sawTornLine; round += 1) {
      const homes = await Promise.all(Array.from({ length: 3 }, () => makeTempDir('vigil-session-crash-')));
      cleanups.push(...homes.map((home) => home.remove));
      const runs = await Promise.all(homes.map(async ({ dir }) => ({ dir, ...(await killWriter(dir, 3)) })));
      for (const run of runs) {
        const file = path.join(run.dir, 'sessions', `${run.sessionId}.jsonl`);
        const isTorn = !readFileSync(file, 'utf8').endsWith('\n');
        const problems: string[] = [];
        const registry = registryAt(run.dir, problems);
        await registry.load();
        const history = await registry.history(run.sessionId);
        const messages = history.turns
          .flatMap((turn) => turn.entries)
          .filter((entry) => entry.kind === 'message')
          .map((entry) => entry.text);
        for (let index = 1; index <= run.acknowledged; index += 1) expect(messages).toContain(`message ${index}`);
        expect(history.session.status).toBe('disconnected');
        if (isTorn) {
          sawTornLine = true;
          expect(history.session.warnings.join('\n')).toMatch(/cut short .*crash/u);
          expect(problems.join('\n')).toContain(run.sessionId);
          await registry.appendMessage(run.sessionId, { role: 'user', text: 'after the crash' });
          await registry.dispose();
          const reread = await readSessionLog(file);
          expect(reread.isTorn).toBe(false);
          expect(reread.problems.map((problem) => problem.kind)).toEqual(['corrupt']);
          expect(reread.records.at(-1)).toMatchObject({ type: 'message', text: 'after the crash' });
        } else {
          expect(history.session.warnings).toEqual([]);
          await registry.dispose();
        }
      }
    }
    expect(sawTornLine).toBe(true);
  }, 120_000);

  it('skips a corrupt line in the middle and reports it, keeping the records around it', async () => {
    const { dir, remove } = await makeTempDir('vigil-session-corrupt-');
    cleanups.push(remove);
    const registry = registryAt(dir);
    await registry.load();
    const session = await registry.open({ agent: 'a', roots: [dir] });
    await registry.appendMessage(session.id, { role: 'user', text: 'one' });
    await registry.dispose();
    appendFileSync(
      path.join(dir, 'sessions', `${session.id}.jsonl`),
      '{"type":"message","oops"\n{"type":"nonsense","at":"x"}\n',
    );
    const again = registryAt(dir);
    await again.load();
    await again.appendMessage(session.id, { role: 'user', text: 'two' });
    const texts = (await again.history(session.id)).turns
      .flatMap((turn) => turn.entries)
      .map((entry) => (entry.kind === 'message' ? entry.text : ''));
    expect(texts).toEqual(['one', 'two']);
    expect(again.get(session.id).warnings).toEqual([
      expect.stringContaining('not valid JSON'),
      expect.stringContaining('not a session record'),
    ]);
    await again.dispose();
  });
});
