import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionHistory, SessionSummary } from '../../../shared/contract/sessions-contract';
import { runVigil } from '../../test-support/run-vigil';
import { makeTempDir } from '../../test-support/temp-dir';

let base: string;
let remove: () => Promise<void>;
let project: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  ({ dir: base, remove } = await makeTempDir('vigil-sessions-cli-'));
  project = path.join(base, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'a.txt'), 'a\n');
  env = { VIGIL_HOME: path.join(base, 'vigil-home'), HOME: base };
});
afterEach(async () => {
  await remove();
});

describe('vigil tool through the executor, and vigil sessions', () => {
  it('checkpoints before a destructive command, denies one that needs a human, and logs both as sessions', async () => {
    const [removed, dangerous] = await Promise.all([
      runVigil(['tool', 'terminal', '--args', JSON.stringify({ command: 'rm a.txt' }), '--cwd', project], { env }),
      runVigil(['tool', 'terminal', '--args', JSON.stringify({ command: 'git push --force' }), '--cwd', project], {
        env,
      }),
    ]);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ exit_code: 0, cwd: project });
    expect(removed.stderr).toMatch(/checkpoint [0-9a-f]{8} of .*project taken before the call/u);

    expect(dangerous.code).toBe(1);
    expect(JSON.parse(dangerous.stdout)).toMatchObject({
      error: {
        code: 'timeout',
        message: expect.stringContaining(
          'no Vigil app or "vigil serve" runs on this data folder to ask a person',
        ) as unknown,
      },
    });

    const [list, human] = await Promise.all([
      runVigil(['sessions', 'list', '--json'], { env }),
      runVigil(['sessions', 'list'], { env }),
    ]);
    expect(list.code).toBe(0);
    const { sessions } = JSON.parse(list.stdout) as { sessions: SessionSummary[] };
    expect(sessions.map((session) => [session.agent, session.status, session.toolCallCount])).toEqual([
      ['vigil tool', 'ended', 1],
      ['vigil tool', 'ended', 1],
    ]);
    const first = sessions.find((session) => session.lastToolCall?.summary === 'rm a.txt');
    expect(first?.lastToolCall).toMatchObject({ name: 'terminal', decision: 'allowed', isOk: true });

    const [shown, json] = await Promise.all([
      runVigil(['sessions', 'show', first?.id ?? ''], { env }),
      runVigil(['sessions', 'show', first?.id ?? '', '--json'], { env }),
    ]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('✓ terminal rm a.txt  [allowed]');
    expect(shown.stdout).toMatch(/checkpoint [0-9a-f]{8} of /u);
    expect((JSON.parse(json.stdout) as SessionHistory).turns[0]?.entries[0]).toMatchObject({
      kind: 'tool-call',
      name: 'terminal',
      decision: 'allowed',
    });
    expect(human.stdout).toMatch(/SESSION\s+AGENT\s+STATUS\s+TURN\s+CALLS/u);
    // A denial nobody answered says why, instead of a bare "denied".
    const unanswered = sessions.find((session) => session !== first);
    const shownDenied = await runVigil(['sessions', 'show', unanswered?.id ?? ''], { env });
    expect(shownDenied.stdout).toContain('[denied (nobody could be asked)]');
  }, 120_000);

  it('says when there is no such session', async () => {
    const missing = await runVigil(['sessions', 'show', 'ses_nothing'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('There is no session ses_nothing');
  });
});
