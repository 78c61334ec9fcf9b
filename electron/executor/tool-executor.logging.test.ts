import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryToolCall } from '../../shared/contract/sessions-contract';
import { createAgentHarness, type AgentHarness } from './test-support/agent-harness';

// A credential's shape, assembled at run time so no scanner mistakes this file for a leak.
const awsSecret = ['wJalrXUtnFEMI', 'K7MDENG', 'bPxRfiCYEXAMPLEKEY'].join('/');
const githubToken = `ghp_${'Zx9Yw8Vu7T'.repeat(4)}`;

let harness: AgentHarness;
let sessionId: string;

beforeEach(async () => {
  harness = await createAgentHarness({
    files: { 'config/credentials.json': '{"key": "old-value-123"}\n', 'src/app.ts': 'export {};\n' },
  });
  sessionId = (await harness.sessions.open({ agent: 'logging', roots: [harness.workspace] })).id;
});
afterEach(async () => {
  await harness.close();
});

function logText(): string {
  return readFileSync(path.join(harness.base, 'vigil', 'sessions', `${sessionId}.jsonl`), 'utf8');
}

async function calls(): Promise<HistoryToolCall[]> {
  return (await harness.sessions.history(sessionId)).turns
    .flatMap((turn) => turn.entries)
    .filter((entry): entry is HistoryToolCall => entry.kind === 'tool-call');
}

describe('what a session keeps of its calls', () => {
  it('keeps a 200 KB write as its size, digest and a short preview, in the log, the history and the event, never whole', async () => {
    const content = `// big file\n${'const line = 1;\n'.repeat(13_000)}`;
    const [outcome] = await harness.executor.execute(
      sessionId,
      [{ name: 'write_file', arguments: { path: 'src/big.ts', content } }],
      { concurrent: false },
    );
    expect(outcome?.result.ok).toBe(true);
    expect(readFileSync(path.join(harness.workspace, 'src/big.ts'), 'utf8')).toBe(content);
    const log = logText();
    expect(log.length).toBeLessThan(4096);
    expect(log).toContain(createHash('sha256').update(content).digest('hex'));
    const [call] = await calls();
    expect(call?.arguments).toMatchObject({
      path: 'src/big.ts',
      content: { kind: 'elided-text', reason: 'long', chars: content.length, bytes: content.length },
    });
    const event = harness.emitted.find((item) => item.name === 'sessions:tool-called');
    expect(JSON.stringify(event?.payload).length).toBeLessThan(4096);
    // Turn undo needs the checkpoint and the path, not the content: it still works.
    const plan = await harness.sessions.planRewind(sessionId, 1, 'code');
    expect(plan.directories[0]?.files).toEqual([expect.objectContaining({ path: 'src/big.ts', action: 'delete' })]);
  });

  it('never keeps what goes to or comes from a secret path, not even a preview, and masks secret-looking values everywhere else', async () => {
    const envText = `AWS_SECRET_ACCESS_KEY=${awsSecret}\n`;
    const outcomes = await harness.executor.execute(
      sessionId,
      [
        { name: 'write_file', arguments: { path: '.env', content: envText } },
        { name: 'read_file', arguments: { path: '.env' } },
        {
          name: 'patch',
          arguments: { path: 'config/credentials.json', old_string: 'old-value-123', new_string: 'new-value-456' },
        },
        { name: 'terminal', arguments: { command: `echo token=${githubToken}` } },
      ],
      { concurrent: false },
    );
    expect(outcomes.map((outcome) => outcome.result.ok)).toEqual([true, true, true, true]);
    // The agent itself gets the real answer.
    expect(JSON.stringify(outcomes[1]?.result)).toContain(awsSecret);
    await harness.sessions.appendMessage(sessionId, { role: 'user', text: `use ${githubToken} for the API` });

    const log = logText();
    for (const secret of [awsSecret, 'AWS_SECRET_ACCESS_KEY', 'old-value-123', 'new-value-456', githubToken])
      expect(log).not.toContain(secret);
    const [write, read, patch, terminal] = await calls();
    expect(write?.arguments).toEqual({
      path: '.env',
      content: { kind: 'elided-text', reason: 'secret', chars: envText.length, bytes: envText.length },
    });
    expect(JSON.stringify(read?.result)).not.toContain('AWS');
    expect(JSON.stringify(patch)).not.toMatch(/value-(123|456)/u);
    expect(JSON.stringify(terminal)).toContain('"stdout":"token=[masked]\\n"');
    const history = JSON.stringify(await harness.sessions.history(sessionId));
    expect(history).not.toContain(githubToken);
    expect(history).toContain('use ghp_[masked] for the API');
    const events = JSON.stringify(harness.emitted.filter((item) => item.name.startsWith('sessions:')));
    for (const secret of [awsSecret, 'old-value-123', githubToken]) expect(events).not.toContain(secret);
  });
});
