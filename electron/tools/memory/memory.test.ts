import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentHarness, type AgentHarness } from '../../executor/test-support/agent-harness';

/** The memory tool runs through the same pipeline: validated, decided, attributed, logged. */
let harness: AgentHarness;
let sessionId: string;

beforeEach(async () => {
  harness = await createAgentHarness({ withMemory: true });
  sessionId = (await harness.sessions.open({ agent: 'rememberer', roots: [harness.workspace] })).id;
});
afterEach(async () => {
  await harness.close();
});

describe('the memory tool through the executor', () => {
  it("adds and reads entries in the agents' memory directory, attributed to the session and turn", async () => {
    const outcomes = await harness.executor.execute(
      sessionId,
      [
        { name: 'memory', arguments: { action: 'add', target: 'memory', content: 'The build uses pnpm.' } },
        { name: 'memory', arguments: { action: 'read', target: 'memory' } },
      ],
      { concurrent: true },
    );
    expect(outcomes.map((outcome) => outcome.decision)).toEqual(['allowed', 'allowed']);
    expect(outcomes[0]?.result).toMatchObject({
      ok: true,
      value: { outcome: 'changed', entries: ['The build uses pnpm.'] },
    });
    expect(outcomes[1]?.result).toMatchObject({
      ok: true,
      value: { outcome: 'unchanged', entries: ['The build uses pnpm.'] },
    });
    expect(readFileSync(path.join(harness.base, 'vigil', 'memories', 'MEMORY.md'), 'utf8')).toBe(
      'The build uses pnpm.\n',
    );
    const memoryLog = harness.gitLog(path.join(harness.base, 'vigil', 'memories'));
    expect(memoryLog.length).toBeGreaterThan(0);
    expect(
      memoryLog
        .filter((entry) => entry.session !== '')
        .every((entry) => entry.session === sessionId && entry.turn === 1 && entry.tool === 'memory'),
    ).toBe(true);
    expect(memoryLog.some((entry) => entry.session === sessionId)).toBe(true);
  });

  it('is refused by a deny rule without touching the file, and a missing field is named', async () => {
    harness.configure({ policy: { rules: [{ effect: 'deny', tool: 'memory' }] } });
    const [denied] = await harness.executor.execute(
      sessionId,
      [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'x' } }],
      { concurrent: false },
    );
    expect(denied).toMatchObject({ decision: 'blocked', result: { ok: false, error: { code: 'denied' } } });
    harness.configure({});
    const [invalid] = await harness.executor.execute(
      sessionId,
      [{ name: 'memory', arguments: { action: 'replace', target: 'user', content: 'x' } }],
      { concurrent: false },
    );
    expect(invalid).toMatchObject({
      decision: 'invalid',
      result: { ok: false, error: { code: 'invalid_request', details: { field: 'old_text' } } },
    });
  });

  it("writes Hermes's own memory folder for an agent named hermes, and Vigil's for the others", async () => {
    await harness.close();
    harness = await createAgentHarness({ withMemory: true, withHermesMemory: true });
    const hermes = (await harness.sessions.open({ agent: 'hermes', roots: [harness.workspace] })).id;
    const other = (await harness.sessions.open({ agent: 'rememberer', roots: [harness.workspace] })).id;
    const [fromHermes] = await harness.executor.execute(
      hermes,
      [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Name: Ada.' } }],
      { concurrent: false },
    );
    const [fromOther] = await harness.executor.execute(
      other,
      [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Prefers tabs.' } }],
      { concurrent: false },
    );
    expect([fromHermes?.result, fromOther?.result]).toMatchObject([{ ok: true }, { ok: true }]);
    expect(readFileSync(path.join(harness.base, 'hermes', 'memories', 'USER.md'), 'utf8')).toBe('Name: Ada.\n');
    expect(readFileSync(path.join(harness.base, 'vigil', 'memories', 'USER.md'), 'utf8')).toBe('Prefers tabs.\n');
    // Hermes's flock sidecar is taken (created 0600) in its own folder.
    expect(statSync(path.join(harness.base, 'hermes', 'memories', 'USER.md.lock')).mode & 0o777).toBe(0o600);
  });
});
