import type { CallResponse } from '../../shared/contract';
import { actorOfCall } from '../transport';
import type { PartialCallHandlers } from '../transport';
import type { CheckpointApi } from './checkpoint-api';
import type { CheckpointEntry, StoreStatus } from './checkpoint-types';

type Entry = CallResponse<'checkpoints:list'>['entries'][number];

/** A checkpoint as the contract carries it (plain mutable arrays). */
export function toContractEntry({ skippedList: _internal, ...entry }: CheckpointEntry): Entry {
  return {
    ...entry,
    attribution: { ...entry.attribution },
    stats: { ...entry.stats },
    skipped: entry.skipped.map((skip) => ({ ...skip })),
    source: entry.source ?? 'vigil',
  };
}

function toContractStatus(status: StoreStatus): CallResponse<'checkpoints:status'> {
  const { cuts, ...rest } = status;
  return {
    ...rest,
    cuts: cuts?.map((cut) => ({ ...cut, retention: { ...cut.retention } })),
    retention: { ...status.retention },
    directories: status.directories.map(({ sources, watch, ...directory }) => ({
      ...directory,
      ...(watch === undefined
        ? {}
        : { watch: { ...watch, walkedPaths: watch.walkedPaths.map((walked) => ({ ...walked })) } }),
      skipped: directory.skipped.map((skip) => ({ ...skip })),
      sources: sources && [...sources],
    })),
  };
}

/** The handlers of the `checkpoints:` calls of the timeline (diff and restore have their own). */
export function createCheckpointHandlers(
  checkpoints: CheckpointApi,
): PartialCallHandlers<
  'checkpoints:directories' | 'checkpoints:list' | 'checkpoints:create' | 'checkpoints:status' | 'checkpoints:prune'
> {
  return {
    'checkpoints:directories': async () => ({
      directories: (await checkpoints.directories()).map(({ sources, ...directory }) => ({
        ...directory,
        sources: sources && [...sources],
      })),
    }),
    'checkpoints:list': async (request) => {
      const [entries, total] = await Promise.all([
        checkpoints.list(request.dir, { limit: request.limit, offset: request.offset, source: request.source }),
        checkpoints.count(request.dir, { source: request.source }),
      ]);
      return { dir: entries[0]?.dir ?? request.dir, total, entries: entries.map(toContractEntry) };
    },
    'checkpoints:create': async (request, context) => {
      // Whatever its reason says, a checkpoint asked for through this call is taken by hand: by the person in the app, or the CLI.
      const outcome = await checkpoints.checkpoint(request.dir, {
        reason: request.reason,
        attribution: { origin: 'manual', actor: actorOfCall(context) },
      });
      return outcome.kind === 'created'
        ? { kind: 'created', checkpoint: toContractEntry(outcome.checkpoint) }
        : outcome.head === undefined
          ? { kind: 'unchanged' }
          : { kind: 'unchanged', head: outcome.head };
    },
    'checkpoints:status': async (request) => toContractStatus(await checkpoints.status(request.dir)),
    'checkpoints:prune': async (_request, context) => ({ ...(await checkpoints.prune(actorOfCall(context))) }),
  };
}
