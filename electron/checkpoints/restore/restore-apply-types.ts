import type { z } from 'zod';
import type { restoreOutcomeSchema } from '../../../shared/contract/checkpoints-restore-schemas';
import type { DiskVersion, KnownHashes, TreeReader } from '../compare';
import type { RestorePlan } from './restore-plan';
import type { ObservedVersion } from './restore-write-ledger';

/** What happened to one path. */
export type RestoreOutcome = z.output<typeof restoreOutcomeSchema>;

/** A step of a running restore. */
export interface ApplyProgress {
  readonly phase: 'write' | 'verify';
  readonly done: number;
  readonly total: number;
}

/** What applying needs besides the plan. */
export interface ApplyInput {
  readonly plan: RestorePlan;
  /** The checkpoint's root tree and a reader, to know which folders it had. */
  readonly checkpointTree: string | undefined;
  readonly reader: TreeReader;
  readBlob(oid: string): Promise<Uint8Array>;
  onProgress?(progress: ApplyProgress): void;
  /** The pre-rollback snapshot's stat records: a file whose stat they vouch for is not read again before it is replaced. */
  readonly known?: KnownHashes;
  /**
   * What the plan found at the paths it restores or deletes, after the pre-rollback snapshot (see
   * `PlanInput.seen`): a write or delete insists on that version instead of looking again.
   */
  readonly seen?: ReadonlyMap<string, DiskVersion>;
  /** The check of the scope after writing lists these folders anyway and sweeps their stale temp files then (no listing here). */
  readonly isSweepLeftToScopeCheck?: boolean;
  /** Vigil temp files found in some of the folders to write, by folder (listed while the snapshot ran): those folders are not listed again. */
  readonly listedTemps?: ReadonlyMap<string, readonly string[]>;
}

/** What applying did. */
export interface ApplyResult {
  readonly outcomes: readonly RestoreOutcome[];
  readonly removedDirectories: readonly string[];
  /** Absolute paths written or deleted (for the engine's dirty set). */
  readonly touched: readonly string[];
  /** What the read-back found at each of them (for the write ledger: no need to look again). */
  readonly written: readonly ObservedVersion[];
  readonly isVerified: boolean;
  /**
   * What the read-back found, by path: a file whose stat is still the one read back holds what was
   * verified, so a check of the scope right after need not read it a fifth time.
   */
  readonly readBack: KnownHashes;
}

/** Files written or deleted at once: enough to overlap fsyncs, few enough for descriptor limits. */
export const writeConcurrency = 16;

/** Progress is reported at most this often (files), plus at the end. */
export const progressStep = 64;
