import type { AppliedOperation, DriftReport } from '../../shared/contract/memory-contract';
import type { Attribution } from '../checkpoints';
import type { Logger } from '../logging';
import type { MemoryCaptureQueue } from './memory-capture';
import type { MemoryCheckpointer } from './memory-checkpointer';
import type { LateWriteWatch } from './memory-late-writes';
import type { MemoryFileSnapshot } from './memory-file';
import type { ParsedSnapshot } from './memory-file-state';
import { isBadInput } from './memory-drift';

/** What a change decided, given the file as it is now. */
export interface ChangeDecision {
  readonly entries: readonly string[];
  readonly applied: readonly AppliedOperation[];
  readonly isChanged: boolean;
  /** Entries the change takes out of the file. */
  readonly discarded: readonly string[];
  /** One sentence for the result (`Entry added.`). */
  readonly message: string;
}

/** One guarded change of a memory file: a mutation or an adoption. */
export interface GuardedChange {
  /** `memory: add`; the checkpoint subject is `before <purpose>`. */
  readonly purpose: string;
  readonly attribution?: Attribution;
  /**
   * How the change treats a drifted file: `refuse` any drift (replace, remove, a batch);
   * `append` refuses only bytes Vigil cannot write, as Hermes's add skips its drift rule (an
   * append takes nothing out); `rewrite` (an adoption) refuses only a file over the size cap.
   */
  readonly driftPolicy: DriftPolicy;
  /** Keep a backup of the whole file before writing (an adoption keeps the free-form original). */
  readonly backupWhole: boolean;
  /** Decides the new entries from the current file; throws an AppError to refuse. */
  decide(current: ParsedSnapshot, snapshot: MemoryFileSnapshot): ChangeDecision;
}

/** How a change treats a drifted file (see `GuardedChange.driftPolicy`). */
export type DriftPolicy = 'refuse' | 'append' | 'rewrite';

/** Whether a change with `policy` must refuse a file with this drift report. */
export function refusesDrift(drift: DriftReport, policy: DriftPolicy): boolean {
  if (!drift.isDrifted) return false;
  switch (policy) {
    case 'refuse':
      return true;
    case 'append':
      return isBadInput(drift);
    case 'rewrite':
      return drift.reasons.some((reason) => reason.kind === 'too-large');
  }
}

/** What the guarded change runner needs from the service. */
export interface GuardedChangeDependencies {
  readonly logger: Logger;
  /** This service's id in write records. */
  readonly writer: string;
  readonly checkpoints: MemoryCheckpointer | undefined;
  readonly captures: MemoryCaptureQueue;
  readonly lateWrites: LateWriteWatch;
  readonly reportProblem: (message: string) => void;
  readonly lockTimeoutMs?: number;
  /** Runs between the writer's last check and its rename (tests stand in for another program there). */
  readonly afterWriteCheck?: () => Promise<void>;
}
