import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { callCollisionSchema, overwriteNoticeSchema } from './call-collision-contract';
import { pendingToolCallSchema } from './pending-call-contract';
import { resultSchema } from './wire';

/**
 * The schemas of a session in the contract: its id, status and live summary, and the entries of
 * its history (messages and tool calls). Re-exported by sessions-contract.ts, where importers find them.
 */

/** A session id: safe as a file name (`$VIGIL_HOME/sessions/<id>.jsonl`). */
export const sessionIdSchema = lazySchema(() =>
  z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a session id is 1–64 letters, digits, "_" or "-"'),
);

/**
 * The one state a session is in, as its badge shows it:
 * working (a turn is open or a tool call runs) · waiting-approval (a call waits for a human, in Vigil's
 * approvals or in the agent's own permission prompt) ·
 * idle (connected, between turns) · disconnected (the agent went away without closing: no request
 * and no open stream for `sessions.idleMinutes`, its stdin closed, or Vigil restarted; a later
 * request revives it) · ended (closed by the agent or the user).
 */
export const sessionStatusSchema = lazySchema(() =>
  z.enum(['working', 'waiting-approval', 'idle', 'disconnected', 'ended']),
);

/**
 * What happened to a tool call before it ran: allowed by policy, allowed by a human, denied by a
 * human (or the wait timed out), blocked by policy, or invalid (unknown tool, arguments failed the schema).
 * Only `allowed` and `asked-allowed` calls run, and only they may take a checkpoint (seed 002).
 */
export const toolDecisionSchema = lazySchema(() =>
  z.enum(['allowed', 'asked-allowed', 'denied', 'blocked', 'invalid']),
);

/** A checkpoint a tool call took (or found unchanged) before it ran. */
export const callCheckpointSchema = lazySchema(() =>
  z.object({
    directory: z.string(),
    /** The commit id in the checkpoint store; for `unchanged`, the directory's current head (if any). */
    checkpointId: z.string().optional(),
    kind: z.enum(['created', 'unchanged']),
    /** What this checkpoint does not cover for the call (excluded files it changes or may change): those changes cannot be undone. */
    notCovered: z.array(z.string()).optional(),
  }),
);

/**
 * A file a call created, changed or deleted, with the lines it added and removed where Vigil
 * could count them (a file tool's text files; a file a command created). A command's changes are
 * found by comparing the files of its scope before and after it ran.
 */
export const callEffectSchema = lazySchema(() =>
  z.object({
    path: z.string(),
    change: z.enum(['created', 'modified', 'deleted']),
    added: z.number().int().nonnegative().optional(),
    removed: z.number().int().nonnegative().optional(),
  }),
);

/** A file a session touched, summed over its calls: the latest change, lines added and removed where counted, when. */
export const sessionFileSchema = lazySchema(() =>
  callEffectSchema.extend({
    at: z.string(),
    /** Some of its changes could not be counted in lines (a command changed it): the sums are a lower bound. */
    isPartlyCounted: z.boolean().optional(),
  }),
);

/** The latest tool call of a session, as the live session list shows it. */
export const toolCallBriefSchema = lazySchema(() =>
  z.object({
    callId: z.string(),
    name: z.string(),
    turn: z.number().int().nonnegative(),
    decision: toolDecisionSchema,
    isOk: z.boolean(),
    /** One line: the path, the command, the memory action. */
    summary: z.string(),
    at: z.string(),
    /** Files a terminal command overwrote that another live session had just changed (its card warns). */
    collisions: z.array(callCollisionSchema).optional(),
    /** This call's changes that another session's call overwrote afterwards (its card warns too). */
    overwrittenBy: z.array(overwriteNoticeSchema).optional(),
  }),
);

/** One session as the live list shows it. */
export const sessionSummarySchema = lazySchema(() =>
  z.object({
    id: sessionIdSchema,
    agent: z.string(),
    /** The connecting client (`claude-code 1.2`, `vigil-client`), when it said. */
    client: z.string().optional(),
    /** The agent's own transcript of the session (its hooks say where), when it keeps one. */
    transcriptPath: z.string().optional(),
    /** Absolute, resolved workspace roots; may be empty until an MCP client reports its roots. */
    roots: z.array(z.string()),
    /** The working directory for terminal commands and relative paths (inside a root), if any. */
    cwd: z.string().optional(),
    status: sessionStatusSchema,
    /** The latest turn number (0 before the first turn). Turn numbers are never reused, even after a rewind. */
    currentTurn: z.number().int().nonnegative(),
    isTurnOpen: z.boolean(),
    createdAt: z.string(),
    /** The time of the last change of any kind (its status included): orders updates. */
    updatedAt: z.string(),
    /** The time of the agent's last activity (a call, a message, a turn): what "active 5 min ago" shows. Survives restarts. */
    lastActiveAt: z.string(),
    toolCallCount: z.number().int().nonnegative(),
    lastToolCall: toolCallBriefSchema.optional(),
    /** The latest calls, newest first (at most five). */
    recentCalls: z.array(toolCallBriefSchema).default([]),
    /** The call its hooks reported that waits for its result (at the agent's own prompt, or running), if any. */
    pendingCall: pendingToolCallSchema.optional(),
    /** The start of the current turn's first user message (at most 500 characters, secrets masked), when the agent sent one. */
    prompt: z.string().optional(),
    /** The files its calls touched, most recent first (at most twelve), and how many in all. */
    files: z.array(sessionFileSchema).default([]),
    fileCount: z.number().int().nonnegative().default(0),
    /** Its latest changes that another session's call overwrote, newest first (at most five). */
    overwrites: z.array(overwriteNoticeSchema).optional(),
    /** Problems found when the log was reloaded (a torn last line after a crash, …). */
    warnings: z.array(z.string()),
  }),
);

/** A transcript message. */
export const messageRoleSchema = lazySchema(() => z.enum(['user', 'assistant']));

/**
 * A text a session keeps only in part (its log, its history, the UI): never a whole file's
 * content. `long`: its size, SHA-256 and a short masked preview. `secret`: written to or read from
 * a secret path (`.env*`, keys, credentials), so only its size — no preview, no digest.
 */
export const elidedTextSchema = lazySchema(() =>
  z.object({
    kind: z.literal('elided-text'),
    reason: z.enum(['long', 'secret']),
    /** Length in characters. */
    chars: z.number().int().nonnegative(),
    /** Size in UTF-8 bytes. */
    bytes: z.number().int().nonnegative(),
    /** SHA-256 of the whole text (hex); absent for secrets. */
    sha256: z.string().optional(),
    /** The start of the text, secret-looking values masked; absent for secrets. */
    preview: z.string().optional(),
  }),
);

/**
 * A tool call in the history, with its decision, result and checkpoints. Its arguments and result
 * are as the session log keeps them: metadata in full, long texts as `elided-text` (see above).
 */
export const historyToolCallSchema = lazySchema(() =>
  z.object({
    kind: z.literal('tool-call'),
    at: z.string(),
    callId: z.string(),
    name: z.string(),
    arguments: z.unknown(),
    decision: toolDecisionSchema,
    /** Why policy or a human decided as it did. */
    reason: z.string().optional(),
    result: resultSchema,
    checkpoints: z.array(callCheckpointSchema),
    /** Checkpoints that failed (the call still ran); shown so the user knows what cannot be undone. */
    checkpointProblems: z.array(z.string()),
    durationMs: z.number().nonnegative().optional(),
    /** The process stopped between the decision and the result (crash, kill): the call may have partly run. */
    isInterrupted: z.boolean(),
    /** The files it changed (a command's as found by comparing before and after; at most 200, `effectsOmitted` more). */
    effects: z.array(callEffectSchema).optional(),
    effectsOmitted: z.number().int().nonnegative().optional(),
    /** Files a terminal command overwrote that another live session had just changed (`sessions.collisions`). */
    collisions: z.array(callCollisionSchema).optional(),
    /** This call's changes that another session's call overwrote afterwards. */
    overwrittenBy: z.array(overwriteNoticeSchema).optional(),
  }),
);

/** One entry of a turn: a message or a tool call. */
export const historyEntrySchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('message'), at: z.string(), role: messageRoleSchema, text: z.string() }),
    historyToolCallSchema,
  ]),
);

/** One turn: what the user asked and what happened. Rewound turns stay, marked. */
export const historyTurnSchema = lazySchema(() =>
  z.object({
    turn: z.number().int().positive(),
    startedAt: z.string(),
    endedAt: z.string().optional(),
    isRewound: z.boolean(),
    rewoundAt: z.string().optional(),
    entries: z.array(historyEntrySchema),
  }),
);
