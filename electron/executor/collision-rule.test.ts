import { describe, expect, it } from 'vitest';
import { sessionConfigSchema, toSessionSettings } from '../sessions/session-config';
import {
  collisionLine,
  collisionRefusal,
  findCollision,
  type CollisionQuestion,
  type CollisionSession,
  type LastWriter,
} from './collision-rule';

const now = Date.parse('2026-12-06T10:00:00.000Z');
const minutes = (count: number): number => count * 60_000;

function session(id: string, overrides: Partial<CollisionSession> = {}): CollisionSession {
  return {
    id,
    agent: 'claude-code',
    status: 'working',
    currentTurn: 3,
    isTurnOpen: true,
    createdAt: id === 'one' ? '2026-12-06T09:00:00.000Z' : '2026-12-06T09:01:00.000Z',
    updatedAt: '2026-12-06T09:59:00.000Z',
    ...overrides,
  };
}

const file = '/work/app/src/app.ts';

function written(sessionId: string, agoMs: number, turn = 3): LastWriter {
  return { actor: { kind: 'session', sessionId, agent: 'claude-code', turn, tool: 'write_file' }, at: now - agoMs };
}

function ask(writer: LastWriter | undefined, overrides: Partial<CollisionQuestion> = {}): CollisionQuestion {
  return {
    sessionId: 'two',
    writers: [[file, writer]],
    sessions: [session('one'), session('two')],
    now,
    windowMs: minutes(10),
    ...overrides,
  };
}

describe('the collision rule', () => {
  it('finds no collision with the same session’s own change', () => {
    expect(findCollision(ask(written('two', 12_000)))).toBeUndefined();
  });

  it('finds another live session’s change within the window, naming both sessions by number', () => {
    const found = findCollision(ask(written('one', 12_000, 1), { sessions: [session('one'), session('two')] }));
    expect(found).toEqual({
      path: file,
      label: 'claude-code #2',
      otherSessionId: 'one',
      otherLabel: 'claude-code #1',
      otherTurn: 1,
      changedAt: now - 12_000,
    });
    expect(found && collisionLine(found, 'src/app.ts', now)).toBe(
      'claude-code #2 would overwrite src/app.ts, changed by claude-code #1 12 s ago',
    );
  });

  it('holds a change older than the window only while it is in the other session’s open turn', () => {
    expect(findCollision(ask(written('one', minutes(25), 3)))?.otherSessionId).toBe('one');
    expect(findCollision(ask(written('one', minutes(25), 2)))).toBeUndefined();
    const closedTurn = [session('one', { isTurnOpen: false, status: 'idle' }), session('two')];
    expect(findCollision(ask(written('one', minutes(25), 3), { sessions: closedTurn }))).toBeUndefined();
    expect(findCollision(ask(written('one', minutes(25), 2), { windowMs: minutes(30) }))?.otherSessionId).toBe('one');
  });

  it('finds none when the other session ended or went away', () => {
    for (const status of ['ended', 'disconnected']) {
      const sessions = [session('one', { status }), session('two')];
      expect(findCollision(ask(written('one', 1_000), { sessions }))).toBeUndefined();
    }
  });

  it('finds none for a file nobody recorded, or one changed outside Vigil or by a person since', () => {
    expect(findCollision(ask(undefined))).toBeUndefined();
    expect(findCollision(ask({ actor: { kind: 'app' }, at: now - 1_000 }))).toBeUndefined();
  });

  it('finds none once this session has read the file after the other’s change', () => {
    expect(findCollision(ask(written('one', 5_000), { lastRead: new Map([[file, now - 1_000]]) }))).toBeUndefined();
    expect(findCollision(ask(written('one', 5_000), { lastRead: new Map([[file, now - 9_000]]) }))).toBeDefined();
  });

  it('tells the agent which file, which session, and to read it again', () => {
    const found = findCollision(ask(written('one', 12_000)));
    if (found === undefined) throw new Error('no collision');
    const denied = collisionRefusal(found, 'src/app.ts', 'write_file', 'denied', now);
    expect(denied.code).toBe('collision');
    expect(denied.message).toBe(
      'write_file of src/app.ts was not run: claude-code #1, another live session, changed src/app.ts 12 s ago, ' +
        'and this change would overwrite theirs. A person denied it. Do not overwrite their change. ' +
        'Read src/app.ts again before changing it, and change only what your task needs on top of its current content.',
    );
    const reread = collisionRefusal(found, 'src/app.ts', 'write_file', 'reread', now);
    expect(reread.message).toContain('asks you to read the file again now');
    expect(reread.details).toMatchObject({ reread: true, otherSession: 'one', path: file });
  });

  it('reads sessions.collisions and sessions.collisionMinutes from config, "ask" and 10 minutes by default', () => {
    expect(toSessionSettings(sessionConfigSchema.parse({}))).toMatchObject({
      collisions: 'ask',
      collisionMs: minutes(10),
    });
    expect(toSessionSettings(sessionConfigSchema.parse({ collisions: 'warn', collisionMinutes: 2 }))).toMatchObject({
      collisions: 'warn',
      collisionMs: minutes(2),
    });
    expect(sessionConfigSchema.safeParse({ collisions: 'maybe' }).success).toBe(false);
    expect(sessionConfigSchema.safeParse({ collisionMinutes: -1 }).success).toBe(false);
  });
});
