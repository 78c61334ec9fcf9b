import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HookEvent } from '../../shared/hooks/hook-event';
import { createCore, type Core } from '../core/create-core';
import { nextEvent } from '../test-support/next-event';
import { silentLogger } from '../logging/logger';
import { makeTempDir } from '../test-support/temp-dir';

let temp: { dir: string; remove: () => Promise<void> };
let project: string;
let core: Core;

async function hook(event: Omit<HookEvent, 'agent' | 'sessionId' | 'cwd'>, transport: 'cli' | 'websocket' = 'cli') {
  return core.router.dispatch(
    'hooks:event',
    { agent: 'claude-code', sessionId: 'quiet-agent', cwd: project, ...event },
    { transport, clientId: 'test' },
  );
}

beforeEach(async () => {
  temp = await makeTempDir('vigil-hook-lifetime-');
  const home = path.join(temp.dir, 'home');
  project = path.join(temp.dir, 'project');
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
  // A very short idle time, so the test waits on the event rather than on the clock.
  await writeFile(path.join(home, 'config.json'), JSON.stringify({ sessions: { idleMinutes: 0.01 } }));
  core = await createCore({
    home,
    logger: silentLogger,
    env: { VIGIL_HOME: home, HOME: path.join(temp.dir, 'user'), HERMES_HOME: path.join(temp.dir, 'no-hermes') },
  });
});
afterEach(async () => {
  await core.dispose();
  await temp.remove();
});

describe('hook sessions in a resident core', () => {
  it(
    'are held between events, end as disconnected when the agent goes quiet without SessionEnd, and come back with its next event',
    { timeout: 120_000 },
    async () => {
      const sessionId = 'claude-code-quiet-agent';
      const disconnected = nextEvent(
        core.events,
        'sessions:changed',
        ({ session }) => session.id === sessionId && session.status === 'disconnected',
      );
      expect(await hook({ kind: 'session-start', source: 'startup' })).toMatchObject({ ok: true });
      expect(core.sessions.get(sessionId).status).toBe('idle');
      await disconnected;
      const revived = nextEvent(
        core.events,
        'sessions:changed',
        ({ session }) => session.id === sessionId && session.status === 'working',
      );
      expect(await hook({ kind: 'prompt', prompt: 'back again' })).toMatchObject({ ok: true });
      await revived;
      expect(core.sessions.get(sessionId)).toMatchObject({ status: 'working', currentTurn: 1 });
      const history = await core.sessions.history(sessionId);
      expect(history.turns[0]?.entries[0]).toMatchObject({ kind: 'message', role: 'user', text: 'back again' });
    },
  );

  it('answer hooks:event for the command line only, never the UI', async () => {
    expect(await hook({ kind: 'session-start' }, 'websocket')).toMatchObject({ ok: false, error: { code: 'denied' } });
  });
});
