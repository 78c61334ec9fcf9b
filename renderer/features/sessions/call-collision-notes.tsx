import type { CallCollision } from '../../../shared/contract/call-collision-contract';
import { commandCollisionLine } from '../../../shared/sessions/collision-words';
import { escapeControls } from '../../../shared/text/control-characters';

/** Restores one file from a checkpoint (`relativePath`: inside `dir`), through the restore plan and its undo. */
export type RestoreTheirs = (dir: string, checkpointId: string, relativePath: string) => void;

/** The file's path inside the checkpoint's folder (forward slashes), or undefined when it is not inside. */
export function insideOf(dir: string, file: string): string | undefined {
  const root = dir.replace(/[\\/]+$/u, '');
  if (!file.startsWith(root) || !/[\\/]/u.test(file.charAt(root.length))) return undefined;
  return file.slice(root.length + 1).replaceAll('\\', '/');
}

/**
 * A terminal command's collisions, on its row: each file it overwrote that another live session
 * had just changed, and a button that restores their version from the command's checkpoint.
 */
export function CallCollisionNotes({
  collisions,
  ranAt,
  onRestoreTheirs,
}: {
  readonly collisions: readonly CallCollision[];
  /** When the command ran (ms since the epoch). */
  readonly ranAt: number;
  readonly onRestoreTheirs?: RestoreTheirs | undefined;
}) {
  return (
    <>
      {collisions.map((collision) => {
        const held = collision.checkpoint;
        const relative = held === undefined ? undefined : insideOf(held.directory, collision.path);
        return (
          <div key={collision.path} className="transcript-warning" data-testid="call-collision" role="note">
            <span>Collision: {escapeControls(commandCollisionLine(collision, ranAt))}</span>
            {onRestoreTheirs !== undefined && held !== undefined && relative !== undefined && (
              <button
                type="button"
                className="button button-quiet button-small"
                data-testid="restore-theirs"
                title={`Restore ${escapeControls(collision.otherLabel)}'s version of ${escapeControls(collision.displayPath)} from the checkpoint taken before this command; shows the plan first`}
                onClick={() => onRestoreTheirs(held.directory, held.checkpointId, relative)}
              >
                Restore their version
              </button>
            )}
          </div>
        );
      })}
    </>
  );
}
