import { link, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VigilRun } from '../test-support/run-vigil';
import { makeTempDir } from '../test-support/temp-dir';
import { printed, runHook } from './test-support/hook-runs';
import { claudeCodeEvents, type RecordedSession } from './test-support/recorded-events';

/** Claude Code's PreToolUse answer: the decision and its reason. */
function claudeDecision(run: VigilRun): { decision?: unknown; reason: string } {
  const output = printed(run)?.['hookSpecificOutput'] as Record<string, unknown> | undefined;
  return { decision: output?.['permissionDecision'], reason: String(output?.['permissionDecisionReason']) };
}

/**
 * Issue 30, H4, for agents supervised through hooks: their own Write and Edit write a file in
 * place, so a workspace file hard-linked to a file outside (pnpm's store) would change that file
 * too. Vigil cannot replace the link for them, so it asks, naming the file; where the agent asks
 * nobody (bypassPermissions), that ask is a deny.
 */
describe('vigil hook: an agent file tool on a hard-linked file', () => {
  let base: string;
  let remove: () => Promise<void>;
  let project: string;
  let store: string;
  let env: NodeJS.ProcessEnv;
  let session: RecordedSession;

  beforeEach(async () => {
    ({ dir: base, remove } = await makeTempDir('vigil-hook-links-'));
    project = path.join(base, 'project');
    store = path.join(base, 'pnpm-store');
    const home = path.join(base, 'vigil-home');
    await mkdir(path.join(project, '.git'), { recursive: true });
    await mkdir(store, { recursive: true });
    await mkdir(home, { recursive: true });
    await writeFile(path.join(store, 'index.js'), 'module.exports = 1;\n');
    await link(path.join(store, 'index.js'), path.join(project, 'index.js'));
    await writeFile(path.join(project, 'plain.js'), 'module.exports = 2;\n');
    env = { VIGIL_HOME: home, HOME: path.join(base, 'user'), HERMES_HOME: path.join(base, 'no-hermes') };
    session = { sessionId: 'links-1', cwd: project, transcriptPath: path.join(base, 't.jsonl') };
  });
  afterEach(async () => {
    await remove();
  });

  it('asks before Write or Edit of it, naming the file and its links; a plain file is not asked about', async () => {
    const linked = path.join(project, 'index.js');
    const write = claudeDecision(
      await runHook(
        'claude-code',
        claudeCodeEvents.preTool(session, 'Write', { file_path: linked, content: 'pwned\n' }, 'w1'),
        env,
      ),
    );
    expect(write.decision).toBe('ask');
    expect(write.reason).toContain(`${linked} has 2 hard links`);
    expect(write.reason).toContain('Write writes it in place');
    const edit = claudeDecision(
      await runHook(
        'claude-code',
        claudeCodeEvents.preTool(session, 'Edit', { file_path: linked, old_string: '1', new_string: '3' }, 'e1'),
        env,
      ),
    );
    expect(edit.decision).toBe('ask');
    expect(edit.reason).toContain(`${linked} has 2 hard links`);
    const plain = claudeDecision(
      await runHook(
        'claude-code',
        claudeCodeEvents.preTool(session, 'Write', { file_path: path.join(project, 'plain.js'), content: 'x\n' }, 'w2'),
        env,
      ),
    );
    expect(plain.decision).not.toBe('ask');
    expect(plain.reason).not.toContain('hard links');
    expect(await readFile(path.join(store, 'index.js'), 'utf8')).toBe('module.exports = 1;\n');
  }, 120_000);

  it('asks before a Bash command that writes it by name, naming the file', async () => {
    const linked = path.join(project, 'index.js');
    const answer = claudeDecision(
      await runHook(
        'claude-code',
        claudeCodeEvents.preTool(session, 'Bash', { command: 'echo "require(1)" >> index.js' }, 'c1'),
        env,
      ),
    );
    expect(answer.decision).toBe('ask');
    expect(answer.reason).toContain(`${linked} has 2 hard links`);
    expect(answer.reason).toContain('the command writes it in place');
  }, 120_000);

  it('denies it under bypassPermissions, where Claude Code would ask nobody', async () => {
    const event = {
      ...claudeCodeEvents.preTool(session, 'Write', { file_path: path.join(project, 'index.js'), content: 'x' }, 'b1'),
      permission_mode: 'bypassPermissions',
    };
    const answer = claudeDecision(await runHook('claude-code', event, env));
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toContain('hard links');
  }, 120_000);
});
