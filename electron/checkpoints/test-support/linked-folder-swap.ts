import { renameSync, symlinkSync } from 'node:fs';
import type { CheckpointService } from '../checkpoint-service';
import { createPathScope, openDiffSides, readSideContent } from '../compare';

/** Swaps the folder `folder` for a symlink to `target` (an agent's move after Vigil's check); the folder is kept beside it. */
export function swapFolderForSymlink(folder: string, target: string): void {
  renameSync(folder, `${folder}.moved`);
  symlinkSync(target, folder);
}

/** The sides of a diff, as the diff service opens them. */
export type OpenedSides = Awaited<ReturnType<typeof openDiffSides>>;

/** Checkpoints `dir`, runs `change` and opens a diff of that checkpoint against the live folder. */
export async function liveDiffAfter(engine: CheckpointService, dir: string, change: () => void): Promise<OpenedSides> {
  const outcome = await engine.checkpoint(dir, { reason: 'before write_file' });
  if (outcome.kind !== 'created') throw new Error('expected a new checkpoint');
  change();
  const rules = { maxFileBytes: engine.maxFileBytes, ignoredFolders: [] };
  return openDiffSides(engine, rules, dir, outcome.checkpoint.id, { kind: 'live' }, createPathScope([]));
}

/** What the diff shows as a change's live (new) side, or why it refused to show it (`refused: <error>`). */
export function shownLive(
  engine: CheckpointService,
  sides: OpenedSides,
  change: OpenedSides['changes'][number],
): Promise<string> {
  return readSideContent(engine, sides, 'new', change).then(
    (content) => Buffer.from(content ?? []).toString(),
    (error: unknown) => `refused: ${String(error)}`,
  );
}
