import type { CallResponse } from '../../shared/contract';
import type { AppErrorData } from '../../shared/errors';
import type { Result } from '../../shared/result';
import type { VigilClient } from '../api/vigil-client';
import { filesInTreeOrder, fileTreeRows } from '../model/file-tree';
import { failed, ready } from '../model/load-state';
import type { CheckpointDetail, DiffFile, FileDiffState } from './checkpoint-slice';

/** The most changed files a detail view loads. */
const maxFiles = 20_000;
const filePage = 2_000;

/** The two sides of the contract's diff calls for a detail. */
export function diffSides(detail: Pick<CheckpointDetail, 'checkpointId' | 'compare'>): {
  checkpoint: string;
  against: { kind: 'live' } | { kind: 'checkpoint'; id: string };
} {
  const { compare } = detail;
  if (compare.kind === 'live') return { checkpoint: detail.checkpointId, against: { kind: 'live' } };
  return compare.isOlder
    ? { checkpoint: compare.id, against: { kind: 'checkpoint', id: detail.checkpointId } }
    : { checkpoint: detail.checkpointId, against: { kind: 'checkpoint', id: compare.id } };
}

/** The files in the order the tree shows them (folders first, each sorted). */
export function inTreeOrder(files: readonly DiffFile[]): DiffFile[] {
  const byPath = new Map(files.map((file) => [file.path, file]));
  return filesInTreeOrder(fileTreeRows(files.map((file) => file.path))).flatMap((path) => byPath.get(path) ?? []);
}

/** Every changed file of a comparison, page by page; `stale` once another comparison took its place. */
export async function fetchChangedFiles(
  client: VigilClient,
  detail: CheckpointDetail,
  isCurrent: () => boolean,
): Promise<
  | { readonly kind: 'stale' }
  | { readonly kind: 'failed'; readonly error: AppErrorData }
  | { readonly kind: 'loaded'; readonly files: DiffFile[]; readonly total: number }
> {
  const files: DiffFile[] = [];
  let offset: number | null = 0;
  let total = 0;
  while (offset !== null && files.length < maxFiles) {
    const result: Result<CallResponse<'checkpoints:diff'>> = await client.call('checkpoints:diff', {
      dir: detail.dir,
      ...diffSides(detail),
      offset,
      limit: filePage,
    });
    if (!isCurrent()) return { kind: 'stale' };
    if (!result.ok) return { kind: 'failed', error: result.error };
    files.push(...result.value.files);
    total = result.value.totalFiles;
    offset = result.value.nextOffset;
  }
  return { kind: 'loaded', files, total };
}

/** The hunks after one batch's answer: each file loaded, failed, or the same on both sides now. */
export function withBatchLoaded(
  fileDiffs: ReadonlyMap<string, FileDiffState>,
  batch: readonly string[],
  result: Result<CallResponse<'checkpoints:file-diffs'>>,
): Map<string, FileDiffState> {
  const next = new Map(fileDiffs);
  if (!result.ok) for (const path of batch) next.set(path, { load: failed(result.error), diff: undefined });
  else {
    for (const diff of result.value.files) next.set(diff.path, { load: ready, diff });
    for (const path of result.value.unchanged)
      next.set(path, {
        load: failed({
          code: 'not_found',
          message: `${path} is the same on both sides now: compare again to refresh the list.`,
        }),
        diff: undefined,
      });
  }
  return next;
}
