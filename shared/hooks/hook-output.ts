import type { HookAgent, HookAnswer, HookEventKind } from './hook-event';

/** The one JSON document `vigil hook` prints (exit code 0 always), or undefined to print nothing. */
export type HookOutput = Readonly<Record<string, unknown>> | undefined;

/** The answer that lets the agent go on as if no hook ran: invalid input never blocks on Vigil's account. */
export const continueOutput: HookOutput = { continue: true };

/**
 * The answer to input Vigil cannot read at all (not JSON, no event name): it cannot tell which
 * event this is, so it stops the agent, saying why, rather than let an unassessed call go on.
 * Codex CLI takes no `continue: false` from a PreToolUse hook (it would run the call), so it gets
 * a PreToolUse "deny", which blocks the call if this was one (and is ignored elsewhere).
 */
export function stoppedOutput(reason: string, agent?: HookAgent): HookOutput {
  if (agent === 'codex')
    return {
      systemMessage: signed(reason),
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: signed(reason),
      },
    };
  return { continue: false, stopReason: signed(reason) };
}

/** A text the agent shows as Vigil's: prefixed with "Vigil: " unless it names Vigil first already. */
function signed(text: string): string {
  return /^Vigil\b/.test(text) ? text : `Vigil: ${text}`;
}

function said(answer: HookAnswer, extra: readonly string[] = []): string | undefined {
  const lines = [...answer.notices, ...extra].filter((line) => line !== '');
  return lines.length === 0 ? undefined : lines.map(signed).join('\n');
}

/**
 * Claude Code: a PreToolUse decision is `hookSpecificOutput.permissionDecision` ("deny": the call
 * is refused and the reason goes to Claude; "ask": Claude Code's own permission prompt shows the
 * reason) with `permissionDecisionReason`. Vigil's "allow" is no objection: nothing is printed, so
 * Claude Code's own permission rules and prompt still apply, unless `hooks.approveAllowed` is set,
 * when it answers "allow" (which skips that prompt). Notices go to the person as `systemMessage`.
 */
function claudeCodeOutput(kind: HookEventKind, answer: HookAnswer): HookOutput {
  const message = said(answer);
  // The agent reads this JSON as is: a key it does not expect stays absent, never `undefined`.
  const base = message === undefined ? {} : { systemMessage: message };
  const decision = kind === 'pre-tool' ? answer.decision : undefined;
  const isSaid = decision === 'deny' || decision === 'ask' || (decision === 'allow' && answer.isApproving === true);
  if (!isSaid) return message === undefined ? undefined : base;
  const reason = signed(answer.reason ?? 'Vigil');
  return {
    ...base,
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason },
  };
}

/**
 * Gemini CLI: a BeforeTool decision is `decision` ("deny": refused, the reason goes to the model as
 * the tool's error; "ask": Gemini CLI's own confirmation, `systemMessage` shown in it; "allow": go
 * on, which never skips Gemini CLI's own confirmation) with `reason`. Notices go to `systemMessage`.
 */
function geminiCliOutput(kind: HookEventKind, answer: HookAnswer): HookOutput {
  const decision = kind === 'pre-tool' ? answer.decision : undefined;
  const reason = answer.reason === undefined ? undefined : signed(answer.reason);
  const message = said(answer, decision === 'ask' && answer.reason !== undefined ? [answer.reason] : []);
  return {
    ...(decision === undefined ? {} : { decision }),
    ...(decision === undefined || reason === undefined ? {} : { reason }),
    ...(message === undefined ? {} : { systemMessage: message }),
  };
}

/**
 * Codex CLI: Claude Code's format, but a PreToolUse answer may only deny — "ask" and "allow" are
 * invalid there and Codex then runs the call as if unanswered (its events always say no person can
 * be asked, so Vigil's "ask" arrives here as "deny"). Anything but a deny prints no decision.
 */
function codexOutput(kind: HookEventKind, answer: HookAnswer): HookOutput {
  return claudeCodeOutput(kind, answer.decision === 'deny' ? { ...answer, isApproving: false } : noDecision(answer));
}

function noDecision(answer: HookAnswer): HookAnswer {
  const { decision: _decision, ...rest } = answer;
  return rest;
}

/** What to print for Vigil's answer to an event, in the agent's own format. */
export function hookOutput(agent: HookAgent, kind: HookEventKind, answer: HookAnswer): HookOutput {
  if (agent === 'codex') return codexOutput(kind, answer);
  return agent === 'claude-code' ? claudeCodeOutput(kind, answer) : geminiCliOutput(kind, answer);
}

/** What to print for an event Vigil ignores: nothing for Claude Code and Codex CLI, `{}` for Gemini CLI (which reads stdout as JSON). */
export function ignoredOutput(agent: HookAgent): HookOutput {
  return agent === 'gemini-cli' ? {} : undefined;
}
