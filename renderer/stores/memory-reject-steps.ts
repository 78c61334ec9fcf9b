import type { MemoryTarget } from '../../shared/contract/memory-contract';
import { memoryFileKey } from '../model/memory-files';
import type { SliceContext } from './slice-context';

/**
 * Rejects the last edit made outside Vigil, in one click: the entries from before it are written
 * back (through the adoption path, so the file must still be the edited version, the edited text
 * is kept in a backup, and the memory folder is checkpointed first). The toast's undo plans the
 * restore of the file from that checkpoint: the edited version comes back byte for byte, even
 * text Vigil's memory tool would refuse to write, and only when the person confirms the plan.
 */
export async function rejectExternalEdit(context: SliceContext, dir: string, target: MemoryTarget): Promise<void> {
  const { get } = context;
  const view = get().memoryFiles[memoryFileKey(dir, target)]?.view;
  const edit = view?.lastExternalChange ?? null;
  if (view === undefined || edit === null) return;
  const result = await context.client.call('memory:adopt', {
    dir,
    target,
    basis: edit.current.sha256,
    entries: [...edit.previous.entries],
  });
  if (!result.ok) {
    get().notify({
      tone: 'error',
      title: `The outside edit of ${edit.file} was not rejected`,
      detail: result.error.message,
    });
    await get().refreshMemoryFile(dir, target);
    return;
  }
  const backup = result.value.preserved.at(-1)?.backup;
  const checkpointId = result.value.checkpoint.id;
  const fileName = edit.file.split(/[\\/]/).at(-1) ?? edit.file;
  get().notify({
    tone: 'success',
    title: `Rejected the outside edit of ${fileName}: back to its ${result.value.entries.length} entries from before it`,
    detail: [
      backup === undefined ? result.value.message : `The edited text is kept in ${backup}.`,
      checkpointId === undefined ? 'No checkpoint holds the edited version, so this cannot be undone from here.' : '',
    ]
      .filter((part) => part !== '')
      .join(' '),
    ...(checkpointId === undefined
      ? {}
      : {
          action: {
            label: 'Undo…',
            testId: 'undo-reject',
            run: () => {
              get().navigate({ screen: 'timeline', dir, checkpointId });
              void get().planRestoreOf(dir, checkpointId, [fileName]);
            },
          },
        }),
  });
  await get().refreshMemoryFile(dir, target);
}
