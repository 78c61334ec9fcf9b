import { createHash } from 'node:crypto';
import type { HookAgent, HookTool } from '../../shared/hooks/hook-event';
import type { CheckpointApi, WriteLedger } from '../checkpoints';
import type { ConfigFile } from '../config';
import type { EventHub } from '../lib';
import type { CoverageLimits } from '../tools';
import type { Logger } from '../logging';
import type { PolicyEngine } from '../policy';
import type { PendingToolCall } from '../../shared/contract/pending-call-contract';
import type { SessionHistory, SessionSummary } from '../../shared/contract/sessions-contract';
import type { BeginTurnRequest, CallLog, OpenSessionRequest, SessionState } from '../sessions';
import type { CollisionGuard } from '../executor';
import type { WorkspaceFacts } from '../workspace';

/**
 * What the hooks need of the agents' sessions (the session registry provides it): open one keyed
 * by the agent's session, its turns, its roots, the call waiting at the agent's prompt, and the
 * call log the executor's record stage writes to.
 */
export interface HookSessions extends CallLog {
  openKeyed(sessionId: string, request: OpenSessionRequest, options: { readonly isHeld: boolean }): Promise<unknown>;
  summary(sessionId: string): SessionSummary;
  stateOf(sessionId: string): SessionState;
  history(sessionId: string): Promise<SessionHistory>;
  beginTurn(sessionId: string, request?: BeginTurnRequest): Promise<unknown>;
  endTurn(sessionId: string): Promise<void>;
  setRoots(sessionId: string, roots: readonly string[], cwd?: string): Promise<unknown>;
  setPendingCall(sessionId: string, call: PendingToolCall | undefined): void;
  disconnect(sessionId: string, reason: string): Promise<unknown>;
  close(sessionId: string): Promise<unknown>;
}

/** What the hooks are built from (by the composition root). */
export interface HookDeps {
  readonly sessions: HookSessions;
  readonly policy: Pick<PolicyEngine, 'decide'>;
  /** The checkpoint engine itself (its `noteWritten` does not write the ledger: the hooks do, once). */
  readonly engine: Pick<CheckpointApi, 'checkpoint' | 'noteWritten' | 'resolve' | 'readTree'>;
  readonly ledger: WriteLedger;
  /** config.json: the `hooks` section. */
  readonly config: ConfigFile;
  readonly events: Pick<EventHub, 'emit'>;
  readonly logger: Logger;
  readonly facts: WorkspaceFacts;
  /** Vigil's own data folder (never changed by an agent's command). */
  readonly vigilHome: string;
  /** `$VIGIL_HOME/hooks`: what the hooks remember of each session. */
  readonly stateDirectory: string;
  /** What checkpoints store (the size cap): what a change beyond it loses. */
  readonly checkpointLimits: () => Promise<CoverageLimits>;
  /** A resident core holds hook sessions between events and disconnects them when their agent goes quiet. */
  readonly isResident: boolean;
  /** `sessions.idleMinutes` in force, in ms. */
  readonly idleMs: () => number;
  /** The executor's collision guard: a file another live session changed recently is not overwritten silently. */
  readonly collisions?: CollisionGuard;
}

/** A JSON text of a value with its keys sorted, so equal inputs give equal text whatever their key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson(record[key])}`)
      .join(',')}}`;
  }
  return value === undefined ? 'null' : JSON.stringify(value);
}

/**
 * The id that pairs a call's "before" and "after" events: the agent's own (Claude Code's
 * `tool_use_id`), else a digest of the tool and its input (Gemini CLI gives the same input to both).
 */
export function hookCallIdOf(tool: HookTool): string {
  if (tool.callId !== undefined) return tool.callId;
  return `call-${createHash('sha256')
    .update(`${tool.name}\n${stableJson(tool.input)}`)
    .digest('hex')
    .slice(0, 24)}`;
}

/** How each agent is named as the session's client. */
export const hookClientNames = {
  'claude-code': 'Claude Code (hooks)',
  'gemini-cli': 'Gemini CLI (hooks)',
  codex: 'Codex CLI (hooks)',
} as const;

/**
 * The Vigil session id of an agent's session: `claude-code-<session_id>` (a readable name, the same
 * in every process, so each hook event finds its session without any table), or the agent's id
 * hashed when it does not fit Vigil's id rule (letters, digits, `_`, `-`, at most 64).
 */
export function vigilSessionIdOf(agent: HookAgent, agentSessionId: string): string {
  if (/^[A-Za-z0-9_-]{1,50}$/.test(agentSessionId)) return `${agent}-${agentSessionId}`;
  return `${agent}-${createHash('sha256').update(agentSessionId).digest('hex').slice(0, 40)}`;
}
