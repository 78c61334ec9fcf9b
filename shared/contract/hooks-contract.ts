import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { hookAgents, hookEventKinds, maxHookCommandChars } from '../hooks/hook-event';
import { defineCalls } from './define';

/** A path as an agent gives it. */
const text = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(64 * 1024),
);

/** A shell command: as long as `vigil hook` assesses (longer ones it refuses itself). */
const command = lazySchema(() => z.string().min(1).max(maxHookCommandChars));

/** A tool call that may change files, as `vigil hook` reads it from the agent (shared/hooks/hook-event.ts). */
const hookToolSchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('file'),
        name: z.string().min(1).max(200),
        path: text,
        input: z.unknown(),
        callId: z.string().min(1).max(200).optional(),
      })
      .strict(),
    z
      .object({
        kind: z.literal('patch'),
        name: z.string().min(1).max(200),
        paths: z.array(text).min(1).max(10_000).readonly(),
        input: z.unknown(),
        callId: z.string().min(1).max(200).optional(),
      })
      .strict(),
    z
      .object({
        kind: z.literal('shell'),
        name: z.string().min(1).max(200),
        command,
        directory: text.optional(),
        input: z.unknown(),
        callId: z.string().min(1).max(200).optional(),
      })
      .strict(),
  ]),
);

/** One hook event of Claude Code, Gemini CLI or Codex CLI, normalized by `vigil hook`. */
export const hookEventSchema = lazySchema(() =>
  z
    .object({
      agent: z.enum(hookAgents),
      kind: z.enum(hookEventKinds),
      sessionId: z.string().min(1).max(512),
      cwd: text,
      transcriptPath: text.optional(),
      source: z.string().max(200).optional(),
      reason: z.string().max(200).optional(),
      prompt: z.string().optional(),
      tool: hookToolSchema.optional(),
      unattended: z.string().max(1000).optional(),
      outcome: z
        .discriminatedUnion('ok', [
          z.object({ ok: z.literal(true), response: z.unknown() }),
          z.object({ ok: z.literal(false), error: z.string() }),
        ])
        .optional(),
    })
    .strict(),
);

/** What Vigil answers to one hook event (shared/hooks/hook-event.ts's HookAnswer). */
export const hookAnswerSchema = lazySchema(() =>
  z.object({
    decision: z.enum(['allow', 'ask', 'deny']).optional(),
    reason: z.string().optional(),
    notices: z.array(z.string()),
    isApproving: z.boolean().optional(),
  }),
);

/** Calls of `vigil hook`: one per event an agent's hook reports. */
export const hooksCalls = defineCalls({
  'hooks:event': {
    summary:
      "One hook event of Claude Code, Gemini CLI or Codex CLI (session start and end, a prompt, before and after a tool call, the turn's end): the session, its turn, checkpoints before changes and the policy's decision. Command-line only (vigil hook).",
    request: hookEventSchema,
    response: hookAnswerSchema,
  },
});
