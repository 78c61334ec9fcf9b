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
  /** The snapshot of the drifted file; undefined when none was kept (a file over the size cap is not copied). */
  readonly backup: string | undefined;
  readonly isBackupReused: boolean;
}

function hasKind(drift: DriftReport, kind: DriftReport['reasons'][number]['kind']): boolean {
  return drift.reasons.some((reason) => reason.kind === kind);
}

/** What to do about a drifted file, for an agent or a person. */
export function driftRemediation(
  refusal: Pick<DriftRefusal, 'file' | 'target' | 'limit' | 'backup' | 'drift'>,
): string {
  const name = path.basename(refusal.file);
  const dir = path.dirname(refusal.file);
  const kept =
    refusal.backup === undefined
      ? `Nothing is lost: ${name} is untouched.`
      : `Nothing is lost: ${name} is untouched and a copy is at ${refusal.backup}.`;
  if (hasKind(refusal.drift, 'too-large')) {
    return `${kept} It is too large to be a memory file: move it out of ${dir} (keep it elsewhere if you need it), then retry; Vigil starts a new ${name}.`;
  }
  const adopt = `in Vigil open Memory → ${name} → Adopt, or run "vigil memory adopt --dir ${JSON.stringify(dir)} --target ${refusal.target}" (it proposes entries to edit and confirm)`;
  if (hasKind(refusal.drift, 'not-utf8') || hasKind(refusal.drift, 'holds-nul')) {
    return `${kept} Re-save it as UTF-8 text without NUL bytes, or ${adopt}; the original is kept as a backup. Then retry.`;
  }
  return [
    kept,
    `To make it usable again, split it into entries: ${adopt},`,
    `or rewrite it as entries separated by a line holding only "§", each without blank lines or spaces around the § lines, and at most`,
    `${formatCount(refusal.limit)} characters in all. Then retry. An agent cannot fix this with the memory tool:`,
    "tell the user, and do not re-add the file's facts one by one meanwhile.",
  ].join(' ');
}

/**
 * The `conflict` a mutation of a drifted file fails with: the file stayed untouched, the error
 * carries `drift_backup` (the snapshot's path, when one was kept) and `remediation` (what to do), as in seed 003.
 */
export function driftError(refusal: DriftRefusal): AppError {
  const name = path.basename(refusal.file);
  const why = refusal.drift.reasons.map((reason) => reason.message).join('; ');
  const what =
    hasKind(refusal.drift, 'not-round-trip') || hasKind(refusal.drift, 'entry-over-limit')
      ? 'was changed outside the memory tool and is no longer a list of entries'
      : 'is not memory text Vigil can rewrite';
  const copy =
    refusal.backup === undefined
      ? ''
      : ` and a copy is at ${refusal.backup}${refusal.isBackupReused ? ' (saved by an earlier refusal)' : ''}`;
  return new AppError('conflict', `${name} ${what} (${why}). Nothing was written; the file is untouched${copy}.`, {
    file: refusal.file,
    drift: refusal.drift,
    usage: refusal.usage,
    // Shown to the agent as the tool's error fields: no `drift_backup` key when there is no copy.
    ...(refusal.backup === undefined ? {} : { drift_backup: refusal.backup }),
    remediation: driftRemediation(refusal),
  });
}
