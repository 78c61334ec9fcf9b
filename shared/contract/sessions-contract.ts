import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { defineCalls, defineEvents } from './define';
import type {
  sessionStatusSchema,
  callCheckpointSchema,
  sessionFileSchema,
  toolCallBriefSchema,
  elidedTextSchema,
  historyEntrySchema,
} from './sessions-schemas';
import {
  sessionIdSchema,
  toolDecisionSchema,
  callEffectSchema,
  sessionSummarySchema,
  historyToolCallSchema,
  historyTurnSchema,
} from './sessions-schemas';
import type { rewindDirectoryPlanSchema } from './sessions-rewind-schemas';
import { rewindModeSchema, rewindRecordSchema, rewindPlanSchema, rewindOutcomeSchema } from './sessions-rewind-schemas';

/**
 * Sessions in the contract: the live list, a session's canonical history, and turn undo (plan,
 * then rewind). The same schemas type the core's SessionService (electron/sessions/session-types.ts)
 * and the agent gateway's JSON-RPC messages.
 */

export {
  sessionIdSchema,
  sessionStatusSchema,
  toolDecisionSchema,
  callCheckpointSchema,
  callEffectSchema,
  sessionFileSchema,
  toolCallBriefSchema,
  sessionSummarySchema,
  messageRoleSchema,
  elidedTextSchema,
  historyToolCallSchema,
  historyEntrySchema,
  historyTurnSchema,
} from './sessions-schemas';
export {
  rewindModeSchema,
  rewindRecordSchema,
  rewindFileActionSchema,
  rewindDirectoryPlanSchema,
  rewindPlanSchema,
  rewindOutcomeSchema,
} from './sessions-rewind-schemas';

/** A session's canonical history: every turn, rewound ones marked, never erased. */
export const sessionHistorySchema = lazySchema(() =>
  z.object({
    session: sessionSummarySchema,
    turns: z.array(historyTurnSchema),
    rewinds: z.array(rewindRecordSchema),
  }),
);

/** One of a turn's calls, as a timeline row's summary uses it. */
export const turnCallSchema = lazySchema(() =>
  z.object({
    name: z.string(),
    /** One line: the path, the command, the memory action. */
    summary: z.string(),
    decision: toolDecisionSchema,
    /** The workspace roots it may have changed (a timeline shows the calls of its own directory). */
    directories: z.array(z.string()),
  }),
);

/** What a turn was about, for the rows of its checkpoints: the start of its user message, and its calls. */
export const turnBriefSchema = lazySchema(() =>
  z.object({
    sessionId: sessionIdSchema,
    turn: z.number().int().positive(),
    /** The start of the turn's first user message (at most 500 characters, secrets masked), when the agent sent one. */
    title: z.string().optional(),
    /** Its first calls (at most 20), in order. */
    calls: z.array(turnCallSchema),
    callCount: z.number().int().nonnegative(),
    /** The files its calls changed, merged per file over the turn (its changeset; see shared/sessions/turn-changes.ts). */
    effects: z.array(callEffectSchema.extend({ isPartlyCounted: z.boolean().optional() })).default([]),
    /** Files its calls changed beyond those recorded. */
    effectsOmitted: z.number().int().nonnegative().default(0),
  }),
);

const rewindRequestSchema = lazySchema(() =>
  z.object({ sessionId: sessionIdSchema, toTurn: z.number().int().positive(), mode: rewindModeSchema }).strict(),
);

/** Calls about sessions. */
export const sessionsCalls = defineCalls({
  'sessions:list': {
    summary:
      'The sessions the core shows (live ones, and the most recent others), live ones first; older ones on request.',
    request: lazySchema(() => z.object({ includeOlder: z.boolean().optional() }).strict()),
    response: lazySchema(() =>
      z.object({
        sessions: z.array(sessionSummarySchema),
        /** Sessions on disk not read yet (older than those listed); `includeOlder: true` lists them too. */
        olderCount: z.number().int().nonnegative(),
      }),
    ),
  },
  'sessions:history': {
    summary: "A session's canonical history: turns, messages, tool calls, rewinds.",
    request: lazySchema(() => z.object({ sessionId: sessionIdSchema }).strict()),
    response: sessionHistorySchema,
  },
  'sessions:turns': {
    summary:
      'What some turns were about (the start of their user message, their calls), for the timeline rows of their checkpoints; unknown sessions and turns are left out.',
    request: lazySchema(() =>
      z
        .object({
          turns: z
            .array(z.object({ sessionId: sessionIdSchema, turn: z.number().int().positive() }).strict())
            .max(2_000),
        })
        .strict(),
    ),
    response: lazySchema(() => z.object({ turns: z.array(turnBriefSchema) })),
  },
  'sessions:plan-rewind': {
    summary: 'What rewinding a session to the start of a turn would change, without changing anything.',
    request: rewindRequestSchema,
    response: rewindPlanSchema,
  },
  'sessions:rewind': {
    summary: 'Rewinds a session to the start of a turn: code, conversation or both.',
    request: lazySchema(() =>
      rewindRequestSchema
        .extend({
          planId: z.string().optional(),
          /** Files another actor changed after the turn that the person chose to take back too (default: theirs are kept). */
          overwrite: z
            .array(z.object({ directory: z.string(), path: z.string() }).strict())
            .max(100_000)
            .optional(),
        })
        .strict(),
    ),
    response: rewindOutcomeSchema,
  },
});

/** Events about sessions. */
export const sessionsEvents = defineEvents({
  'sessions:changed': {
    summary: 'A session was opened or closed, or its status, turn or last tool call changed.',
    payload: lazySchema(() => z.object({ session: sessionSummarySchema })),
  },
  'sessions:tool-called': {
    summary: 'A tool call of a session finished (or was refused).',
    payload: lazySchema(() =>
      z.object({
        sessionId: sessionIdSchema,
        turn: z.number().int().nonnegative(),
        call: historyToolCallSchema,
      }),
    ),
  },
  'sessions:rewound': {
    summary: 'A session was rewound; connected agents are sent their new history.',
    payload: lazySchema(() => z.object({ sessionId: sessionIdSchema, rewind: rewindRecordSchema })),
  },
});

/** A session as the contract carries it. */
export type SessionSummary = z.infer<typeof sessionSummarySchema>;
/** working | waiting-approval | idle | disconnected | ended. */
export type SessionStatus = z.infer<typeof sessionStatusSchema>;
/** allowed | asked-allowed | denied | blocked | invalid. */
export type ToolDecision = z.infer<typeof toolDecisionSchema>;
/** A text kept in part: size, digest, preview (or only the size, for a secret). */
export type ElidedText = z.infer<typeof elidedTextSchema>;
/** A checkpoint taken for a call. */
export type CallCheckpoint = z.infer<typeof callCheckpointSchema>;
/** The latest call of a session. */
export type ToolCallBrief = z.infer<typeof toolCallBriefSchema>;
/** A file a call changed. */
export type CallEffect = z.infer<typeof callEffectSchema>;
/** A file a session touched. */
export type SessionFile = z.infer<typeof sessionFileSchema>;
/** What a turn was about. */
export type TurnBrief = z.infer<typeof turnBriefSchema>;
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
