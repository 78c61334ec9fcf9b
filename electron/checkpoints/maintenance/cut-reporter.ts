import type { PlainActor } from '../../../shared/contract/actor-model';
import type { CutReason, CutRecord } from '../../../shared/contract/checkpoints-live-contract';
import type { RetentionPolicy } from '../checkpoint-types';
import type { CutLog } from './cut-log';
import type { DirRegistry } from '../timeline/dir-registry';

/** A cut as the engine knows it, before it is named and recorded. */
export interface Cut {
  readonly dirhash: string;
  readonly dropped: number;
  readonly kept: number;
  readonly reason: CutReason;
  /** Who ran it: Vigil (retention, the size cap), or the app or CLI that asked for a prune. */
  readonly actor?: PlainActor;
}

function mebibytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}

/** One sentence about a cut: how many, of which directory, why, and where the setting is. */
export function describeCut(cut: Cut, dir: string, retention: RetentionPolicy): string {
  const count = `${cut.dropped} old checkpoint${cut.dropped === 1 ? '' : 's'} of ${dir}`;
  const days = retention.keepDroppedDays ?? 7;
  const kept = `${cut.kept} kept; the dropped ones stay restorable for ${days} day${days === 1 ? '' : 's'} ("vigil checkpoints list DIR --dropped")`;
  switch (cut.reason) {
    case 'retention':
      return `Dropped ${count}: Vigil keeps ${retention.maxSnapshots} per folder (checkpoints.maxSnapshots in config.json); ${kept}.`;
    case 'size-cap':
      return `Dropped ${count} to keep the store under its ${mebibytes(retention.maxTotalBytes)} size cap (checkpoints.maxStoreMiB in config.json); ${kept}.`;
    case 'prune':
      return `${cut.actor === 'app' ? 'A prune from the app' : '"vigil checkpoints prune"'} dropped ${count}: Vigil keeps ${retention.maxSnapshots} per folder; ${kept}.`;
    default: {
      const unknown: never = cut.reason;
      return `Dropped ${count} (${String(unknown)}); ${kept}.`;
    }
  }
}

/** Turns the engine's cuts into named records in the cut log (which logs them and tells the UI). */
export function createCutReporter(options: {
  readonly registry: DirRegistry;
  readonly cutLog: CutLog;
  readonly retention: () => RetentionPolicy;
}): (cut: Cut) => Promise<void> {
  return async (cut) => {
    const dir = (await options.registry.read(cut.dirhash))?.workdir ?? `(unknown directory ${cut.dirhash})`;
    const retention = options.retention();
    const record: CutRecord = {
      at: new Date().toISOString(),
      dir,
      dirhash: cut.dirhash,
      dropped: cut.dropped,
      kept: cut.kept,
      reason: cut.reason,
      retention: { ...retention },
      message: describeCut(cut, dir, retention),
      actor: cut.actor ?? 'vigil',
    };
    await options.cutLog.record(record);
  };
}
