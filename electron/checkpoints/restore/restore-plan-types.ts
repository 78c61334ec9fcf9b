import type { z } from 'zod';
import type { restorePlanEntrySchema, restorePlanSchema } from '../../../shared/contract/checkpoints-restore-schemas';
import type { CheckpointEntry } from '../checkpoint-types';
import type { StoreRules } from '../snapshot/store-rules';
import type { DiskVersion, KnownHashes, PathScope, TreeReader } from '../compare';
import type { WriteLedger } from './restore-write-ledger';

/** One line of a restore plan. */
export type RestorePlanEntry = z.output<typeof restorePlanEntrySchema>;
/** A restore plan. */
export type RestorePlan = z.output<typeof restorePlanSchema>;

/** What a plan is computed from. */
export interface PlanInput {
  /** The checkpointed directory (resolved). */
  readonly dir: string;
  readonly checkpoint: CheckpointEntry;
  readonly scope: PathScope;
  /** The directory now as a snapshot stores it: a live walk (preview) or the pre-rollback snapshot (apply). */
  readonly current: { readonly tree: string | undefined; readonly reader: TreeReader };
  readonly maxFileBytes: number;
  readonly ledger: WriteLedger;
  /** Reads a blob of the store: the checkpoint's complete skip list when its trailers were cut short. */
  readonly readBlob?: (oid: string) => Promise<Uint8Array>;
  /** What a snapshot of the directory stores (default: Vigil's built-in names). */
  readonly rules?: StoreRules;
  /**
   * Set by a restore that applies the plan: the pre-rollback snapshot's stat records (`known`), and
   * where the plan puts the version it finds at each path it restores or deletes (`versions`), so
   * the writes insist on exactly that version (checked again right before each rename or unlink)
   * instead of looking at every file once more.
   */
  readonly seen?: { readonly known: KnownHashes | undefined; readonly versions: Map<string, DiskVersion> };
}
