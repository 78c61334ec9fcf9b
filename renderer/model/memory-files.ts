import type { MemoryChange, MemoryFileView, MemoryTarget } from '../../shared/contract/memory-contract';

/** The two files of a memory directory, in display order, with their names. */
export const memoryTargets: readonly (readonly [MemoryTarget, string])[] = [
  ['memory', 'MEMORY.md'],
  ['user', 'USER.md'],
];

/** How many changes the memory screen keeps. */
export const memoryChangeLimit = 200;

/** The key of one file of one directory in the store. */
export function memoryFileKey(dir: string, target: MemoryTarget): string {
  return `${target}\n${dir}`;
}

/** A file view with a change applied: its entries, usage, drift and presence as the change reports them. */
export function applyChange(view: MemoryFileView, change: MemoryChange): MemoryFileView {
  return {
    ...view,
    exists: change.current.exists,
    sha256: change.current.sha256,
    entries: change.current.entries,
    usage: change.usage,
    drift: change.drift,
    lastExternalChange: change.source === 'external' ? change : view.lastExternalChange,
    appended: change.appended ?? null,
  };
}

/** Recent changes with one more in front, capped. */
export function addChange(changes: readonly MemoryChange[], change: MemoryChange): readonly MemoryChange[] {
  return [change, ...changes].slice(0, memoryChangeLimit);
}

/** A backup path named in an error's details (`drift_backup`, `backup`), if any. */
export function backupFromDetails(details: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const value = details?.['drift_backup'] ?? details?.['backup'];
  return typeof value === 'string' ? value : undefined;
}

/** The file (store key) and backup a drift refusal names, when the file is one of the managed directories'. */
export function refusedBackup(
  details: Readonly<Record<string, unknown>> | undefined,
  directories: readonly { readonly path: string }[],
): { readonly key: string; readonly backup: string } | undefined {
  const backup = backupFromDetails(details);
  const file = details?.['file'];
  if (backup === undefined || typeof file !== 'string') return undefined;
  for (const directory of directories) {
    for (const [target, name] of memoryTargets) {
      if (file === `${directory.path}/${name}` || file === `${directory.path}\\${name}`)
        return { key: memoryFileKey(directory.path, target), backup };
    }
  }
  return undefined;
}
