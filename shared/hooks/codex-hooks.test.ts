import { describe, expect, it } from 'vitest';
import { codexPatchPaths } from './codex-patch';
import { hookOutput, stoppedOutput } from './hook-output';
import { parseHookInput } from './parse-hook-input';

/** Codex CLI 0.171's PreToolUse for apply_patch, as it wrote it on a logging hook's stdin (ids shortened). */
const applyPatchEvent = {
  session_id: '01a24acf-0595-7af2-a8b6-72e8222e668a',
  turn_id: '01a24acf-05aa-7da2-aa0e-9de1a89e7921',
  transcript_path: '/home/you/.codex/sessions/2026/12/06/rollout.jsonl',
  cwd: '/work/project',
  hook_event_name: 'PreToolUse',
  model: 'gpt-5.5',
  permission_mode: 'default',
  tool_name: 'apply_patch',
  tool_input: {
    command:
      '*** Begin Patch\n*** Update File: keep.txt\n@@\n-old line\n+new line\n*** Add File: sub/added.txt\n+hello\n*** Delete File: del.txt\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-x\n+y\n*** End Patch\n',
  },
  tool_use_id: 'call_vigil_t1_0',
};

describe("Codex CLI's hook events", () => {
  it('reads the files an apply_patch adds, changes, deletes and moves, in order, once each', () => {
    expect(codexPatchPaths(applyPatchEvent.tool_input.command, 'tool_input.command')).toEqual([
      'keep.txt',
      'sub/added.txt',
      'del.txt',
      'a.txt',
      'b.txt',
    ]);
  });

  it('reads apply_patch as a patch of those files, and says no person can be asked, whatever the permission mode', () => {
    const parsed = parseHookInput('codex', JSON.stringify(applyPatchEvent));
    expect(parsed).toMatchObject({
      kind: 'event',
      event: {
        agent: 'codex',
        kind: 'pre-tool',
        sessionId: applyPatchEvent.session_id,
        cwd: '/work/project',
        tool: {
          kind: 'patch',
          name: 'apply_patch',
          paths: ['keep.txt', 'sub/added.txt', 'del.txt', 'a.txt', 'b.txt'],
          callId: 'call_vigil_t1_0',
        },
      },
    });
    if (parsed.kind === 'event') expect(parsed.event.unattended).toContain('Codex CLI takes only "deny"');
  });

  it('reads its shell as Bash with the command, and its PostToolUse output text as the result', () => {
    const post = {
      ...applyPatchEvent,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm gone.txt' },
      tool_response: '',
      tool_use_id: 'call_vigil_t0_0',
    };
    expect(parseHookInput('codex', JSON.stringify(post))).toMatchObject({
      kind: 'event',
      event: {
        kind: 'post-tool',
        tool: { kind: 'shell', command: 'rm gone.txt' },
        outcome: { ok: true, response: '' },
      },
    });
  });

  it('refuses an apply_patch whose text is no patch, or names no file, naming the field', () => {
    for (const command of ['rm -rf /', '*** Begin Patch\n*** End Patch\n']) {
      const parsed = parseHookInput('codex', JSON.stringify({ ...applyPatchEvent, tool_input: { command } }));
      expect(parsed).toMatchObject({ kind: 'invalid', field: 'tool_input.command', eventKind: 'pre-tool' });
    }
  });

  it('ignores the events and tools Vigil does not act on', () => {
    expect(
      parseHookInput('codex', JSON.stringify({ ...applyPatchEvent, hook_event_name: 'PermissionRequest' })),
    ).toEqual({ kind: 'ignored', name: 'PermissionRequest' });
    expect(parseHookInput('codex', JSON.stringify({ ...applyPatchEvent, tool_name: 'view_image' }))).toMatchObject({
      kind: 'ignored',
    });
  });

  it('answers only "deny" on PreToolUse: an "ask" or an "allow" is an invalid answer Codex would run the call on', () => {
    expect(hookOutput('codex', 'pre-tool', { decision: 'deny', reason: 'Refused by a rule', notices: [] })).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'Vigil: Refused by a rule',
      },
    });
    expect(hookOutput('codex', 'pre-tool', { decision: 'ask', reason: 'why', notices: [] })).toBeUndefined();
    expect(hookOutput('codex', 'pre-tool', { decision: 'allow', notices: ['a notice'], isApproving: true })).toEqual({
      systemMessage: 'Vigil: a notice',
    });
    expect(stoppedOutput('cannot read', 'codex')).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'Vigil: cannot read' },
    });
    expect(stoppedOutput('cannot read', 'codex')).not.toHaveProperty('continue');
  });
});
