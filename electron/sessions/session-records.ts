import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import {
  callCheckpointSchema,
  callEffectSchema,
  messageRoleSchema,
  rewindRecordSchema,
  sessionIdSchema,
  toolDecisionSchema,
} from '../../shared/contract/sessions-contract';
import { callCollisionSchema, overwriteNoticeSchema } from '../../shared/contract/call-collision-contract';
import { resultSchema } from '../../shared/contract/wire';

/**
 * The lines of a session log (`$VIGIL_HOME/sessions/<id>.jsonl`): one JSON record per line,
 * appended, never rewritten. Version 1. A tool call is two records — `call` (its decision and
 * checkpoints, written before it runs) and `result` — so a crash in between leaves the call on
 * record as interrupted instead of losing it. Arguments and results are kept condensed
 * (logged-value.ts): metadata, sizes, digests and short masked previews, never whole contents.
 */

const at = lazySchema(() => z.string());
const turn = lazySchema(() => z.number().int().positive());

/** Every record a session log may hold. */
export const sessionRecordSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('opened'),
      v: z.literal(1),
      at,
      id: sessionIdSchema,
      agent: z.string(),
      client: z.string().optional(),
      /** The agent's own transcript (its hooks say where). */
      transcriptPath: z.string().optional(),
      roots: z.array(z.string()),
      cwd: z.string().optional(),
    }),
    z.object({ type: z.literal('resumed'), at, client: z.string().optional(), transcriptPath: z.string().optional() }),
    z.object({ type: z.literal('roots'), at, roots: z.array(z.string()), cwd: z.string().optional() }),
    z.object({ type: z.literal('turn-began'), at, turn }),
    z.object({ type: z.literal('message'), at, turn, role: messageRoleSchema, text: z.string() }),
    z.object({
      type: z.literal('call'),
      at,
      turn,
      /** Unique within the session (agents' call ids may repeat). */
      seq: z.number().int().positive(),
      callId: z.string(),
      name: z.string(),
      arguments: z.unknown(),
      decision: toolDecisionSchema,
      reason: z.string().optional(),
      /** A person's decision (asked-allowed, or denied by a human): which UI it came from, the app's window or the served page. */
      decidedVia: z.enum(['window', 'page']).optional(),
      checkpoints: z.array(callCheckpointSchema),
      checkpointProblems: z.array(z.string()),
      /**
       * For turn undo: the workspace roots it may have changed, the turn's checkpoint that protects
       * each (none: it failed), and the paths in it (`/`-separated, relative) it may have changed —
       * absent when it may have changed anything there (a command whose targets are unknown).
       */
      touched: z.array(
        z.object({ directory: z.string(), checkpointId: z.string().optional(), paths: z.array(z.string()).optional() }),
      ),
    }),
    z.object({
      type: z.literal('result'),
      at,
      seq: z.number().int().positive(),
      result: resultSchema,
      durationMs: z.number().nonnegative(),
      /** The files the call changed (absolute paths), as far as Vigil could see; at most 200, `effectsOmitted` more. */
      effects: z.array(callEffectSchema).optional(),
      effectsOmitted: z.number().int().nonnegative().optional(),
      /** Files a terminal command overwrote that another live session had just changed. */
      collisions: z.array(callCollisionSchema).optional(),
    }),
    z.object({ type: z.literal('turn-ended'), at, turn }),
    /**
     * Another session's call overwrote this session's change of a file (`turn`: this session's turn
     * that changed it, when the write ledger recorded it). Written by the other session's pipeline.
     */
    z.object({ type: z.literal('overwritten'), at, turn: turn.optional(), notice: overwriteNoticeSchema }),
    rewindRecordSchema.extend({ type: z.literal('rewound') }),
    /** The agent went away without closing: idle past `sessions.idleMinutes`, its stdin closed, its socket dropped, Vigil stopped. */
    z.object({ type: z.literal('disconnected'), at, reason: z.string() }),
    z.object({ type: z.literal('closed'), at }),
  ]),
);

/** One line of a session log. */
export type SessionRecord = z.infer<typeof sessionRecordSchema>;
