import path from 'node:path';
import type { DriftReport, MemoryUsage } from '../../shared/contract/memory-contract';
import { AppError } from '../../shared/errors';
import { formatCount } from './memory-text';

/** What a drift refusal is about. */
export interface DriftRefusal {
  readonly file: string;
  readonly target: 'memory' | 'user';
  readonly limit: number;
  readonly drift: DriftReport;
  readonly usage: MemoryUsage;
  /** The snapshot of the drifted file. */
  readonly backup: string;
  readonly isBackupReused: boolean;
}

/** What to do about a drifted file, for an agent or a person. */
export function driftRemediation(refusal: Pick<DriftRefusal, 'file' | 'target' | 'limit' | 'backup'>): string {
  const name = path.basename(refusal.file);
  const dir = path.dirname(refusal.file);
  return [
    `Nothing is lost: ${name} is untouched and a copy is at ${refusal.backup}.`,
    `To make it usable again, split it into entries: in Vigil open Memory → ${name} → Adopt, or run`,
    `"vigil memory adopt --dir ${JSON.stringify(dir)} --target ${refusal.target}" (it proposes entries to confirm),`,
    `or rewrite the file as entries separated by a line holding only "§", with no trailing newline and at most`,
    `${formatCount(refusal.limit)} characters in all. Then retry. An agent cannot fix this with the memory tool:`,
    'tell the user, and do not re-add the file\'s facts one by one meanwhile.',
  ].join(' ');
}

/**
 * The `conflict` a mutation of a drifted file fails with: the file stayed untouched, the error
 * carries `drift_backup` (the snapshot's path) and `remediation` (what to do), as in seed 003.
 */
export function driftError(refusal: DriftRefusal): AppError {
  const name = path.basename(refusal.file);
  const why = refusal.drift.reasons.map((reason) => reason.message).join('; ');
  return new AppError(
    'conflict',
    `${name} was changed outside the memory tool and is no longer a list of entries (${why}). Nothing was written; ` +
      `the file is untouched and a copy is at ${refusal.backup}${refusal.isBackupReused ? ' (saved by an earlier refusal)' : ''}.`,
    {
      file: refusal.file,
      drift: refusal.drift,
      usage: refusal.usage,
      drift_backup: refusal.backup,
      remediation: driftRemediation(refusal),
    },
  );
}
