/** What a restore (or the code part of a rewind) will do to one file. */
export interface PlanFile {
  readonly path: string;
  readonly action: 'restore' | 'recreate' | 'delete' | 'skip';
  readonly reason?: string | undefined;
  /** Changed outside Vigil since the checkpoint: restoring replaces that edit (the restore point keeps it). */
  readonly isChangedOutside: boolean;
  /** Who made its current version, when a Vigil actor did ("alpha, turn 3", "you, in the app"): escaped words. */
  readonly changedBy?: string | undefined;
}

/** A plan's files grouped by what happens to them, in the order the confirmation shows them. */
export interface PlanGroups {
  readonly restore: readonly PlanFile[];
  readonly recreate: readonly PlanFile[];
  readonly delete: readonly PlanFile[];
  readonly skip: readonly PlanFile[];
  /** Files that will change (everything but skips). */
  readonly changeCount: number;
  /** Files changed outside Vigil that the plan would overwrite or delete. */
  readonly outsideCount: number;
}

/** Groups a plan's files by action, sorted by path within each group. */
export function groupPlan(files: readonly PlanFile[]): PlanGroups {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const of = (action: PlanFile['action']): PlanFile[] => sorted.filter((file) => file.action === action);
  const skip = of('skip');
  return {
    restore: of('restore'),
    recreate: of('recreate'),
    delete: of('delete'),
    skip,
    changeCount: files.length - skip.length,
    outsideCount: files.filter((file) => file.action !== 'skip' && file.isChangedOutside).length,
  };
}

/** One line for the plan's header: "2 to restore · 1 to re-create · 1 to delete · 3 skipped". */
export function planHeadline(groups: PlanGroups): string {
  const parts: string[] = [];
  if (groups.restore.length > 0) parts.push(`${groups.restore.length} to restore`);
  if (groups.recreate.length > 0) parts.push(`${groups.recreate.length} to re-create`);
  if (groups.delete.length > 0) parts.push(`${groups.delete.length} to delete`);
  if (groups.skip.length > 0) parts.push(`${groups.skip.length} skipped`);
  return parts.length === 0 ? 'Nothing to change' : parts.join(' · ');
}

/** What a plan will do, in the verbs its headline uses: "restore 2 files, delete 1 file" (an undo's button says exactly this). */
export function planActionWords(groups: PlanGroups): string {
  const files = (count: number): string => `${count} file${count === 1 ? '' : 's'}`;
  const parts: string[] = [];
  if (groups.restore.length > 0) parts.push(`restore ${files(groups.restore.length)}`);
  if (groups.recreate.length > 0) parts.push(`re-create ${files(groups.recreate.length)}`);
  if (groups.delete.length > 0) parts.push(`delete ${files(groups.delete.length)}`);
  return parts.length === 0 ? 'nothing to change' : parts.join(', ');
}
