import type { CallResponse, EventPayload } from '../../shared/contract';
import type { MemoryMutation, MemoryTarget } from '../../shared/contract/memory-contract';
import { AppError } from '../../shared/errors';
import type { CheckpointEntry } from '../checkpoints';
import { echoLine } from '../logging';
import { writeLine, type CliIo } from './cli-command';
import type { CallOptions, ContractCaller } from './relay/relay-or-local';

/**
 * The services as CLI commands use them, each method one contract call (or a few, paged): the same
 * calls whether they are relayed to the resident core or answered by a one-shot core in-process,
 * so a command prints the same either way.
 */

/** A checkpoint as commands print it (the contract's entry; its source is always set). */
export type CliCheckpoint = CheckpointEntry;
/** The newer side of a diff, as the CLI names it (`ref`: a number from the list, or an id). */
export type CliDiffAgainst = { readonly kind: 'live' } | { readonly kind: 'checkpoint'; readonly ref: string };
/** A step of a running restore, as the contract's event carries it. */
export type ProgressEvent = EventPayload<'checkpoints:restore-progressed'>;
/** Lines `from` to `to` of a file (1-based, inclusive). */
export interface LineRange {
  readonly from: number;
  readonly to: number;
}
/** The largest page each paged call takes. */
const listPage = 5_000;
const diffPage = 2_000;

/**
 * Prints each cut a relayed call made on stderr, as the log of an in-process call does (which
 * echoes its warnings there, secrets masked): nothing is dropped without the user being told, and told once.
 */
function reportingCuts(io: CliIo): CallOptions<'checkpoints:cut'> {
  return {
    events: ['checkpoints:cut'],
    onEvent: ({ payload }) => writeLine(io.stderr, echoLine('warn', payload.message)),
  };
}

/** `vigil checkpoint` and `vigil checkpoints status|prune|pin|unpin`. */
export function checkpointsOf(caller: ContractCaller, io: CliIo) {
  return {
    checkpoint: (dir: string, request: { readonly reason: string }) =>
      caller.call('checkpoints:create', { dir, reason: request.reason }, reportingCuts(io)),
    status: (dir?: string) => caller.call('checkpoints:status', { dir }),
    prune: () => caller.call('checkpoints:prune', {}, reportingCuts(io)),
    pin: (dir: string, checkpoint: string, isPinned: boolean) =>
      caller.call('checkpoints:pin', { dir, checkpoint, isPinned }),
    rename: (dir: string, checkpoint: string, name: string) =>
      caller.call('checkpoints:rename', { dir, checkpoint, name }),
  };
}

/** A file's history and the search of the past, as `vigil checkpoints log|search` read them. */
export function historyOf(caller: ContractCaller) {
  return {
    fileLog: (dir: string, path: string) => caller.call('checkpoints:file-log', { dir, path }),
    search: (dir: string, text: string, limit: number) => caller.call('checkpoints:search', { dir, text, limit }),
  };
}

/** The merged timeline (Vigil's checkpoints and Hermes Agent's), as `vigil checkpoints list|restore` read it. */
export function timelinesOf(caller: ContractCaller) {
  // The total each list answered with, so a count right after it is the count of the same moment (and costs no call).
  const totals = new Map<string, number>();
  const key = (dir: string, source: string | undefined): string => `${source ?? '*'}\0${dir}`;
  return {
    async list(
      dir: string,
      {
        limit = 100,
        offset = 0,
        source,
      }: { readonly limit?: number; readonly offset?: number; readonly source?: 'vigil' | 'hermes' } = {},
    ): Promise<CliCheckpoint[]> {
      const entries: CliCheckpoint[] = [];
      for (;;) {
        const size = Math.min(listPage, limit - entries.length);
        const page = await caller.call('checkpoints:list', {
          dir,
          limit: size,
          offset: offset + entries.length,
          source,
        });
        totals.set(key(dir, source), page.total);
        entries.push(...page.entries);
        if (page.entries.length < size || entries.length >= limit) return entries;
      }
    },
    /**
     * A checkpoint named once: a number from the list (1 = newest) becomes its id now, so a
     * checkpoint taken meanwhile (Hermes committing) cannot shift what later calls of the same
     * command see; an id (or prefix) names one checkpoint for good and is passed on as given.
     */
    async resolve(dir: string, ref: string): Promise<{ readonly id: string }> {
      const text = ref.trim();
      if (!/^\d{1,9}$/.test(text)) return { id: text };
      const number = Number(text);
      const page =
        number < 1 ? undefined : await caller.call('checkpoints:list', { dir, limit: 1, offset: number - 1 });
      const entry = page?.entries[0];
      if (entry !== undefined) return entry;
      const total = page?.total ?? (await caller.call('checkpoints:list', { dir, limit: 1 })).total;
      if (total === 0) throw new AppError('not_found', `${dir} has no checkpoints yet.`, { dir });
      throw new AppError(
        'invalid_request',
        `There is no checkpoint ${number} for ${dir}: use 1–${total} (1 = newest).`,
        { field: 'checkpoint', count: total },
      );
    },
    async count(dir: string, { source }: { readonly source?: 'vigil' | 'hermes' } = {}): Promise<number> {
      return totals.get(key(dir, source)) ?? (await caller.call('checkpoints:list', { dir, limit: 1, source })).total;
    },
  };
}

/** The contract's form of what a diff compares the checkpoint with. */
function diffTarget(against: CliDiffAgainst) {
  return against.kind === 'live' ? ({ kind: 'live' } as const) : ({ kind: 'checkpoint', id: against.ref } as const);
}

/** The files that differ (all of them up to `limit`, fetched page by page). */
async function diffUpTo(
  caller: ContractCaller,
  dir: string,
  ref: string,
  against: CliDiffAgainst,
  { paths = [], limit = 200 }: { readonly paths?: readonly string[]; readonly limit?: number } = {},
): Promise<CallResponse<'checkpoints:diff'>> {
  const first = await caller.call('checkpoints:diff', {
    dir,
    checkpoint: ref,
    against: diffTarget(against),
    paths: [...paths],
    offset: 0,
    limit: Math.min(diffPage, limit),
  });
  const files = [...first.files];
  let next = first.nextOffset;
  while (next !== null && files.length < limit) {
    const page = await caller.call('checkpoints:diff', {
      dir,
      checkpoint: ref,
      against: diffTarget(against),
      paths: [...paths],
      offset: next,
      limit: Math.min(diffPage, limit - files.length),
    });
    files.push(...page.files);
    next = page.nextOffset;
  }
  return { ...first, files, nextOffset: next };
}

/** Diff, plan and restore, as `vigil checkpoints diff|restore` use them. */
export function restoreOf(caller: ContractCaller) {
  return {
    /** The files that differ (all of them up to `limit`, fetched page by page). */
    diff: (
      dir: string,
      ref: string,
      against: CliDiffAgainst,
      options: { readonly paths?: readonly string[]; readonly limit?: number } = {},
    ): Promise<CallResponse<'checkpoints:diff'>> => diffUpTo(caller, dir, ref, against, options),
    // The contract caps one file's diff at 100,000 lines (`--lines` above that shows what fits, with the rest counted).
    fileDiff: (dir: string, ref: string, against: CliDiffAgainst, path: string, maxLines: number) =>
      caller.call('checkpoints:file-diff', {
        dir,
        checkpoint: ref,
        against: diffTarget(against),
        path,
        maxLines: Math.min(maxLines, 100_000),
      }),
    plan: (dir: string, ref: string, paths: readonly string[] = []) =>
      caller.call('checkpoints:plan-restore', { dir, checkpoint: ref, paths: [...paths] }),
    /** What restoring lines `range` (of the checkpoint's version) of one file would do. */
    planLines: (dir: string, ref: string, path: string, range: LineRange) =>
      caller.call('checkpoints:plan-restore-lines', {
        dir,
        checkpoint: ref,
        path,
        lines: { kind: 'range', range: { ...range } },
      }),
    /** Restores lines `range` of one file (the plan made under the lock is applied, or refused when it no longer matches `fingerprint`). */
    restoreLines: (dir: string, ref: string, path: string, range: LineRange, fingerprint?: string) =>
      caller.call('checkpoints:restore-lines', {
        dir,
        checkpoint: ref,
        path,
        lines: { kind: 'range', range: { ...range } },
        fingerprint,
      }),
    restore: (
      dir: string,
      ref: string,
      paths: readonly string[] = [],
      {
        onProgress,
        allowSecrets,
        fingerprint,
      }: {
        readonly onProgress?: ((progress: ProgressEvent) => void) | undefined;
        readonly allowSecrets?: boolean;
        readonly fingerprint?: string;
      } = {},
    ) =>
      caller.call(
        'checkpoints:restore',
        {
          dir,
          checkpoint: ref,
          paths: [...paths],
          allowSecrets,
          fingerprint,
        },
        onProgress === undefined
          ? {}
          : {
              events: ['checkpoints:restore-progressed'],
              onEvent: ({ payload }) => onProgress(payload),
            },
      ),
  };
}

/** The memory store, as `vigil memory list|add|replace|remove|adopt` use it. */
export function memoryOf(caller: ContractCaller) {
  return {
    directories: async () => (await caller.call('memory:directories', {})).directories,
    read: (dir: string, target: MemoryTarget) => caller.call('memory:read', { dir, target }),
    mutate: (
      dir: string,
      target: MemoryTarget,
      operation: MemoryMutation,
      { fieldOf }: { readonly fieldOf?: (index: number, property: 'content' | 'oldText') => string } = {},
    ) =>
      caller.call('memory:mutate', {
        dir,
        target,
        operation,
        ...(fieldOf === undefined
          ? {}
          : { fieldNames: { content: fieldOf(0, 'content'), oldText: fieldOf(0, 'oldText') } }),
      }),
    proposeAdoption: (dir: string, target: MemoryTarget) => caller.call('memory:propose-adoption', { dir, target }),
    adopt: (dir: string, target: MemoryTarget, basis: string | null, entries: readonly string[]) =>
      caller.call('memory:adopt', { dir, target, basis, entries: [...entries] }),
  };
}

/** Sessions, as `vigil sessions list|show` read them. */
export function sessionsOf(caller: ContractCaller) {
  return {
    /** Every session on disk, older ones included (the CLI lists them all). */
    list: async () => (await caller.call('sessions:list', { includeOlder: true })).sessions,
    history: (sessionId: string) => caller.call('sessions:history', { sessionId }),
  };
}
