import { z } from 'zod';
import { defineCalls, defineEvents } from './define';
import { resultSchema } from './wire';

/**
 * Sessions in the contract: the live list, a session's canonical history, and turn undo (plan,
 * then rewind). The same schemas type the core's SessionService (electron/sessions/session-types.ts)
 * and the agent gateway's JSON-RPC messages.
 */

/** A session id: safe as a file name (`$VIGIL_HOME/sessions/<id>.jsonl`). */
export const sessionIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a session id is 1–64 letters, digits, "_" or "-"');

/** running: a tool call is executing · waiting-approval: a call waits for a human · idle: connected, nothing running · ended: closed. */
export const sessionStatusSchema = z.enum(['running', 'waiting-approval', 'idle', 'ended']);

/**
 * What happened to a tool call before it ran: allowed by policy, allowed by a human, denied by a
 * human (or the wait timed out), blocked by policy, or invalid (unknown tool, arguments failed the schema).
 * Only `allowed` and `asked-allowed` calls run, and only they may take a checkpoint (seed 002).
 */
export const toolDecisionSchema = z.enum(['allowed', 'asked-allowed', 'denied', 'blocked', 'invalid']);

/** A checkpoint a tool call took (or found unchanged) before it ran. */
export const callCheckpointSchema = z.object({
  directory: z.string(),
  /** The commit id in the checkpoint store; for `unchanged`, the directory's current head (if any). */
  checkpointId: z.string().optional(),
  kind: z.enum(['created', 'unchanged']),
  /** What this checkpoint does not cover for the call (excluded files it changes or may change): those changes cannot be undone. */
  notCovered: z.array(z.string()).optional(),
});

/** The latest tool call of a session, as the live session list shows it. */
export const toolCallBriefSchema = z.object({
  callId: z.string(),
  name: z.string(),
  turn: z.number().int().nonnegative(),
  decision: toolDecisionSchema,
  isOk: z.boolean(),
  /** One line: the path, the command, the memory action. */
  summary: z.string(),
  at: z.string(),
});

/** One session as the live list shows it. */
export const sessionSummarySchema = z.object({
  id: sessionIdSchema,
  agent: z.string(),
  /** The connecting client (`claude-code 1.2`, `vigil-client`), when it said. */
  client: z.string().optional(),
  /** Absolute, resolved workspace roots; may be empty until an MCP client reports its roots. */
  roots: z.array(z.string()),
  /** The working directory for terminal commands and relative paths (inside a root), if any. */
  cwd: z.string().optional(),
  status: sessionStatusSchema,
  /** The latest turn number (0 before the first turn). Turn numbers are never reused, even after a rewind. */
  currentTurn: z.number().int().nonnegative(),
  isTurnOpen: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  toolCallCount: z.number().int().nonnegative(),
  lastToolCall: toolCallBriefSchema.optional(),
  /** Problems found when the log was reloaded (a torn last line after a crash, …). */
  warnings: z.array(z.string()),
});

/** A transcript message. */
export const messageRoleSchema = z.enum(['user', 'assistant']);

/** A tool call in the history, with its decision, result and checkpoints. */
export const historyToolCallSchema = z.object({
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
});

/** One entry of a turn: a message or a tool call. */
export const historyEntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('message'), at: z.string(), role: messageRoleSchema, text: z.string() }),
  historyToolCallSchema,
]);

/** One turn: what the user asked and what happened. Rewound turns stay, marked. */
export const historyTurnSchema = z.object({
  turn: z.number().int().positive(),
  startedAt: z.string(),
  endedAt: z.string().optional(),
  isRewound: z.boolean(),
  rewoundAt: z.string().optional(),
  entries: z.array(historyEntrySchema),
});

/** How much a rewind undoes (design §4). */
export const rewindModeSchema = z.enum(['code', 'conversation', 'both']);

/** A rewind as recorded in the log. */
export const rewindRecordSchema = z.object({
  at: z.string(),
  toTurn: z.number().int().positive(),
  mode: rewindModeSchema,
  rewoundTurns: z.array(z.number().int().positive()),
  restoredDirectories: z.array(z.string()),
});

/** A session's canonical history: every turn, rewound ones marked, never erased. */
export const sessionHistorySchema = z.object({
  session: sessionSummarySchema,
  turns: z.array(historyTurnSchema),
  rewinds: z.array(rewindRecordSchema),
});

/** What a restore would do to one file. */
export const rewindFileActionSchema = z.object({
  path: z.string(),
  action: z.enum(['restore', 'recreate', 'delete', 'skip']),
  reason: z.string().optional(),
  /** Changed outside any agent since the checkpoint: restoring loses that edit (a pre-rollback snapshot keeps it). */
  isChangedOutside: z.boolean(),
});

/** The code part of a rewind for one directory: back to its first checkpoint since the target turn. */
export const rewindDirectoryPlanSchema = z.object({
  directory: z.string(),
  checkpointId: z.string(),
  /** The turn in which that checkpoint was taken. */
  checkpointTurn: z.number().int().positive(),
  files: z.array(rewindFileActionSchema),
  problems: z.array(z.string()),
});

/** What a rewind will change, shown before it happens. */
export const rewindPlanSchema = z.object({
  /** Identifies this exact plan; pass it to `sessions:rewind` to refuse if anything changed since. */
  planId: z.string(),
  sessionId: sessionIdSchema,
  toTurn: z.number().int().positive(),
  mode: rewindModeSchema,
  /** Turns that will be marked rewound (conversation and both). */
  turns: z.array(z.number().int().positive()),
  /** Directories that will be restored (code and both). */
  directories: z.array(rewindDirectoryPlanSchema),
  /** Things the rewind cannot undo (a failed checkpoint, a directory without one), in words. */
  problems: z.array(z.string()),
});

/** What a rewind did. */
export const rewindOutcomeSchema = z.object({
  plan: rewindPlanSchema,
  rewoundTurns: z.array(z.number().int().positive()),
  restored: z.array(
    z.object({
      directory: z.string(),
      /** The snapshot taken before restoring: restoring it undoes the rewind. */
      preRollbackCheckpointId: z.string().optional(),
      filesChanged: z.number().int().nonnegative(),
    }),
  ),
});

const rewindRequestSchema = z
  .object({ sessionId: sessionIdSchema, toTurn: z.number().int().positive(), mode: rewindModeSchema })
  .strict();

/** Calls about sessions. */
export const sessionsCalls = defineCalls({
  'sessions:list': {
    summary: 'Every session known to the core, live ones first.',
    request: z.object({}).strict(),
    response: z.object({ sessions: z.array(sessionSummarySchema) }),
  },
  'sessions:history': {
    summary: "A session's canonical history: turns, messages, tool calls, rewinds.",
    request: z.object({ sessionId: sessionIdSchema }).strict(),
    response: sessionHistorySchema,
  },
  'sessions:plan-rewind': {
    summary: 'What rewinding a session to the start of a turn would change, without changing anything.',
    request: rewindRequestSchema,
    response: rewindPlanSchema,
  },
  'sessions:rewind': {
    summary: 'Rewinds a session to the start of a turn: code, conversation or both.',
    request: rewindRequestSchema.extend({ planId: z.string().optional() }).strict(),
    response: rewindOutcomeSchema,
  },
});

/** Events about sessions. */
export const sessionsEvents = defineEvents({
  'sessions:changed': {
    summary: 'A session was opened or closed, or its status, turn or last tool call changed.',
    payload: z.object({ session: sessionSummarySchema }),
  },
  'sessions:tool-called': {
    summary: 'A tool call of a session finished (or was refused).',
    payload: z.object({ sessionId: sessionIdSchema, turn: z.number().int().nonnegative(), call: historyToolCallSchema }),
  },
  'sessions:rewound': {
    summary: 'A session was rewound; connected agents are sent their new history.',
    payload: z.object({ sessionId: sessionIdSchema, rewind: rewindRecordSchema }),
  },
});

/** A session as the contract carries it. */
export type SessionSummary = z.infer<typeof sessionSummarySchema>;
/** running | waiting-approval | idle | ended. */
export type SessionStatus = z.infer<typeof sessionStatusSchema>;
/** allowed | asked-allowed | denied | blocked | invalid. */
export type ToolDecision = z.infer<typeof toolDecisionSchema>;
/** A checkpoint taken for a call. */
export type CallCheckpoint = z.infer<typeof callCheckpointSchema>;
/** The latest call of a session. */
export type ToolCallBrief = z.infer<typeof toolCallBriefSchema>;
/** A tool call in the history. */
export type HistoryToolCall = z.infer<typeof historyToolCallSchema>;
/** A message or tool call of a turn. */
export type HistoryEntry = z.infer<typeof historyEntrySchema>;
/** One turn of the history. */
export type HistoryTurn = z.infer<typeof historyTurnSchema>;
/** code | conversation | both. */
export type RewindMode = z.infer<typeof rewindModeSchema>;
/** A recorded rewind. */
export type RewindRecord = z.infer<typeof rewindRecordSchema>;
/** A session's canonical history. */
export type SessionHistory = z.infer<typeof sessionHistorySchema>;
/** A rewind preview. */
export type RewindPlan = z.infer<typeof rewindPlanSchema>;
/** The code part of a rewind preview for one directory. */
export type RewindDirectoryPlan = z.infer<typeof rewindDirectoryPlanSchema>;
/** What a rewind did. */
export type RewindOutcome = z.infer<typeof rewindOutcomeSchema>;
