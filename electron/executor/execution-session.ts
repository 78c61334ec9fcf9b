import os from 'node:os';
import { z } from 'zod';
import { lazySchema } from '../../shared/lazy-schema';
import { parseOrThrow } from '../../shared/validation';
import type { SessionState } from '../sessions';
import type { ExecuteOptions, ToolCallRequest } from './executor-types';
import type { CoverageLimits, ExecutionSession } from '../tools';

/** The checkpoint engine's default size cap, when the caller does not say (config.json's checkpoints.maxFileMiB default). */
export const defaultCheckpointLimits: CoverageLimits = { maxFileBytes: 50 * 1024 * 1024 };

/** The most calls one batch may hold. */
export const maxBatchCalls = 256;

const batchSchema = lazySchema(() =>
  z.object({
    calls: z
      .array(
        z.object({
          callId: z.string().min(1).max(200).optional(),
          name: z.string().min(1).max(200),
          arguments: z.unknown(),
        }),
      )
      .max(maxBatchCalls),
    concurrent: z.boolean(),
  }),
);

/** Validates a batch at the executor's edge (each call's arguments are validated by its tool's schema later). */
export function validateBatch(
  calls: readonly ToolCallRequest[],
  options: ExecuteOptions,
): { readonly calls: readonly ToolCallRequest[]; readonly concurrent: boolean } {
  const parsed = parseOrThrow(batchSchema, { calls, concurrent: options.concurrent }, 'Invalid tool call batch');
  return { calls: parsed.calls, concurrent: parsed.concurrent };
}

/** The session as the adapters see it, for one batch in one turn. */
export function executionSession(
  state: SessionState,
  turn: number,
  home: string = os.homedir(),
  protectedPaths: readonly string[] = [],
  checkpointLimits: CoverageLimits = defaultCheckpointLimits,
): ExecutionSession {
  return {
    id: state.id,
    agent: state.agent,
    roots: state.roots,
    cwd: state.cwd,
    turn,
    workspace: { cwd: state.cwd ?? state.roots[0] ?? home, roots: state.roots, homeDir: home, protectedPaths },
    checkpointLimits,
  };
}
