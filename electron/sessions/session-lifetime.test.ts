import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';
import { SessionRegistry, type SessionRegistryOptions } from './session-registry';

let base: string;
let remove: () => Promise<void>;
let workspace: string;
let directory: string;

function registry(options: Partial<SessionRegistryOptions> = {}): SessionRegistry {
  return new SessionRegistry({ directory, logger: silentLogger, events: { emit: () => undefined }, ...options });
}

/** A session log as an older Vigil (or an earlier day) left it, written line by line. */
function writeLog(id: string, records: readonly Record<string, unknown>[]): string {
  const file = path.join(directory, `${id}.jsonl`);
  writeFileSync(file, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  return file;
}

function opened(id: string, at: string, agent = 'old-agent'): Record<string, unknown> {
  return { type: 'opened', v: 1, at, id, agent, roots: [workspace], cwd: workspace };
}

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-lifetime-'));
  workspace = path.join(base, 'ws');
  directory = path.join(base, 'sessions');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(directory, { recursive: true });
});
afterEach(async () => {
  await remove();
});

describe('a session has a true lifetime', () => {
  it('disconnects (ending its open turn, saying why), keeps its last-active time, and a later request revives it', async () => {
    const sessions = registry();
    await sessions.load();
    const { id } = await sessions.open({ agent: 'a', roots: [workspace] });
    await sessions.beginTurn(id, { userMessage: 'do it' });
    const active = sessions.get(id).lastActiveAt;
    const gone = await sessions.disconnect(id, 'no request for 10 min');
    expect(gone).toMatchObject({ status: 'disconnected', isTurnOpen: false, lastActiveAt: active });
    expect(sessions.list().map((session) => session.status)).toEqual(['disconnected']);
    // Disconnecting twice changes nothing.
    expect((await sessions.disconnect(id, 'again')).updatedAt).toBe(gone.updatedAt);
    const log = readFileSync(path.join(directory, `${id}.jsonl`), 'utf8');
    expect(log).toContain('"type":"disconnected"');
    expect(log).toContain('no request for 10 min');

    const back = await sessions.reconnect(id);
    expect(back.status).toBe('idle');
    expect(await sessions.beginTurn(id)).toEqual({ turn: 2 });
    expect(sessions.get(id).status).toBe('working');
    await sessions.close(id);
    await expect(sessions.reconnect(id)).rejects.toMatchObject({ code: 'conflict' });
    await sessions.dispose();
  });

  it('keeps the last-active time across restarts: a close or a disconnection at shutdown is not activity', async () => {
    const id = 'ses_lastactive1';
    writeLog(id, [
      opened(id, '2026-03-01T10:00:00.000Z'),
      { type: 'turn-began', at: '2026-03-01T10:00:05.000Z', turn: 1 },
      { type: 'message', at: '2026-03-01T10:00:05.000Z', turn: 1, role: 'user', text: 'hello' },
      { type: 'turn-ended', at: '2026-03-01T10:02:00.000Z', turn: 1 },
      // What the old shutdown wrote an hour later: it made the card say "active 1 min ago" after a restart.
      { type: 'closed', at: '2026-03-01T11:00:00.000Z' },
    ]);
    const other = 'ses_lastactive2';
    writeLog(other, [
      opened(other, '2026-03-01T09:00:00.000Z'),
      { type: 'disconnected', at: '2026-03-01T12:00:00.000Z', reason: 'Vigil stopped' },
    ]);
    const sessions = registry({ maxAgeMs: () => 36_500 * 86_400_000 });
    await sessions.load();
    expect(sessions.get(id)).toMatchObject({
      status: 'ended',
      lastActiveAt: '2026-03-01T10:00:05.000Z',
      updatedAt: '2026-03-01T11:00:00.000Z',
    });
    expect(sessions.get(other)).toMatchObject({ status: 'disconnected', lastActiveAt: '2026-03-01T09:00:00.000Z' });
    await sessions.dispose();
  });

  it('holds a closed session only as its summary, reads its history from the log on demand, and reads only the newest sessions at start-up', async () => {
    const sessions = registry();
    await sessions.load();
    const { id } = await sessions.open({ agent: 'a', roots: [workspace] });
    await sessions.appendMessage(id, { role: 'user', text: 'first' });
    expect(sessions.residency()).toEqual({ read: 1, loaded: 1, unread: 0 });
    await sessions.close(id);
    expect(sessions.residency()).toEqual({ read: 1, loaded: 0, unread: 0 });
    // Read from disk, not memory: a line appended by another process shows up.
    const file = path.join(directory, `${id}.jsonl`);
    writeFileSync(
      file,
      `${readFileSync(file, 'utf8')}${JSON.stringify({ type: 'message', at: new Date().toISOString(), turn: 1, role: 'assistant', text: 'from disk' })}\n`,
    );
    const texts = (await sessions.history(id)).turns
      .flatMap((turn) => turn.entries)
      .map((entry) => (entry.kind === 'message' ? entry.text : ''));
    expect(texts).toEqual(['first', 'from disk']);
    expect(sessions.residency().loaded).toBe(0);
    await sessions.dispose();

    const ids = ['ses_a1', 'ses_a2', 'ses_a3', 'ses_a4'];
    ids.forEach((older, index) => {
      const at = `2026-04-0${index + 1}T10:00:00.000Z`;
      const olderFile = writeLog(older, [opened(older, at, `agent-${index + 1}`), { type: 'closed', at }]);
      utimesSync(olderFile, new Date(at), new Date(at));
    });
    const restarted = registry({ shownAtStart: 2, maxAgeMs: () => 36_500 * 86_400_000 });
    await restarted.load();
    expect(restarted.list().map((session) => session.id)).toEqual([id, 'ses_a4']);
    expect(restarted.olderCount()).toBe(3);
    // An older session is read on demand, by id or all together.
    expect((await restarted.history('ses_a1')).session.agent).toBe('agent-1');
    await restarted.loadOlder();
    expect(restarted.olderCount()).toBe(0);
    expect(restarted.list()).toHaveLength(5);
    await restarted.dispose();
  });

  it('deletes the logs of sessions idle past sessions.maxDays, at start-up and while running, never a connected one', async () => {
    const day = 86_400_000;
    const stale = writeLog('ses_stale', [
      opened('ses_stale', '2026-01-01T00:00:00.000Z'),
      { type: 'closed', at: '2026-01-01T00:00:00.000Z' },
    ]);
    utimesSync(stale, new Date(Date.now() - 40 * day), new Date(Date.now() - 40 * day));
    // Written recently (its file is new) but its last activity is old: the running prune deletes it.
    const old = new Date(Date.now() - 31 * day).toISOString();
    writeLog('ses_quiet', [
      opened('ses_quiet', old),
      { type: 'disconnected', at: new Date().toISOString(), reason: 'Vigil stopped' },
    ]);
    const sessions = registry({ maxAgeMs: () => 30 * day });
    await sessions.load();
    expect(existsSync(stale)).toBe(false);
    expect(sessions.list().map((session) => session.id)).toEqual(['ses_quiet']);
    const live = await sessions.open({ agent: 'live', roots: [workspace] });
    expect(await sessions.prune()).toEqual(['ses_quiet']);
    expect(readdirSync(directory)).toEqual([`${live.id}.jsonl`]);
    expect(sessions.list().map((session) => session.id)).toEqual([live.id]);
    await sessions.dispose();
  });
});
