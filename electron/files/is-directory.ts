import { stat } from 'node:fs/promises';

/** Whether `candidate` is a directory (through symlinks); false when nothing is there or it cannot be inspected. */
export async function isDirectory(candidate: string): Promise<boolean> {
  return stat(candidate).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}
