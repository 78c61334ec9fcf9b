import { afterEach, describe, expect, it } from 'vitest';
import { dirHash } from '../../git-store';
import { createAgentHarness, type AgentHarness } from '../../executor/test-support/agent-harness';

/** Issue 30, L1: secrets in a command line never reach the checkpoint store's commit subjects or reflog. */

// Shapes of real credentials, assembled at run time so no scanner mistakes this file for a leak.
const github = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
const password = 'hunter2hunter2';
const bearer = 'abcdefghijklmnop1234';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function runCommand(active: AgentHarness, command: string): Promise<void> {
  const sessionId = (await active.sessions.open({ agent: 'l1', roots: [active.workspace] })).id;
  await active.sessions.beginTurn(sessionId, { userMessage: 'go' });
  const [outcome] = await active.executor.execute(sessionId, [{ name: 'terminal', arguments: { command } }], {
    concurrent: false,
  });
  expect(outcome).toMatchObject({ decision: 'allowed', result: { ok: true } });
  expect(outcome?.checkpoints).toHaveLength(1);
  await active.sessions.endTurn(sessionId);
}

describe('secrets in checkpoint subjects and the reflog', () => {
  it.each([
    ['a GitHub token', `echo ${github} > token.txt`, 'ghp_[masked]', github],
    ['a password in a URL', `echo postgres://app:${password}@db:5432/x > url.txt`, 'app:[masked]@db', password],
    ['a bearer token', `echo "Authorization: Bearer ${bearer}" > h.txt`, 'Bearer [masked]', bearer],
    // Cut at 100 characters, the token would lose the length its mask needs: it is masked first.
    [
      'a token where the subject is cut',
      `echo ${'x'.repeat(75)} ${github} > t.txt`,
      'ghp_[masked]',
      github.slice(0, 16),
    ],
  ])('masks %s, as git log and git reflog show them', async (_name, command, masked, secret) => {
    const active = await createAgentHarness({ files: { 'a.txt': 'a\n' } });
    harness = active;
    await runCommand(active, command);
    const ref = `refs/vigil/${dirHash(active.workspace)}`;
    const subject = active.git(['log', '-1', '--format=%s', ref]);
    const reflog = active.git(['reflog', 'show', '--format=%gs', ref]);
    expect(subject).toMatch(/^before terminal: echo /u);
    expect(subject).toContain(masked);
    expect(reflog).toContain(masked);
    for (const text of [subject, reflog, active.git(['log', '--format=%B', ref])]) expect(text).not.toContain(secret);
  });
});

describe('a reason given to the checkpoint engine directly', () => {
  it('is masked in the commit subject and the reflog, whoever gave it', async () => {
    const active = await createAgentHarness({ files: { 'a.txt': 'a\n' } });
    harness = active;
    await active.checkpoints.checkpoint(active.workspace, { reason: `before deploy with TOKEN=${github}` });
    const ref = `refs/vigil/${dirHash(active.workspace)}`;
    expect(active.git(['log', '-1', '--format=%s', ref])).toBe('before deploy with TOKEN=[masked]');
    expect(active.git(['reflog', 'show', '--format=%gs', ref])).toBe('checkpoint: before deploy with TOKEN=[masked]');
  });
});
