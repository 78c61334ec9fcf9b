import type { AdoptionPlan, MemoryFileView, MemoryTarget } from '../../shared/contract/memory-contract';
import { proposeEntries, recommendProposal } from './memory-adoption';
import { findAppendedText } from './memory-appended';
import { parseSnapshot, type MemoryFileState } from './memory-file-state';
import type { ManagedMemoryFiles } from './managed-memory-files';
import { readWriteRecord } from './memory-write-record';

/** The most of a file's text a view carries. */
const maxViewChars = 64 * 1024;

function viewText(text: string): { text: string; isTextTruncated: boolean } {
  if (text.length <= maxViewChars) return { text, isTextTruncated: false };
  const cut =
    text.charCodeAt(maxViewChars - 1) >= 0xd800 && text.charCodeAt(maxViewChars - 1) <= 0xdbff
      ? maxViewChars - 1
      : maxViewChars;
  return { text: text.slice(0, cut), isTextTruncated: true };
}

/** A file as `memory:read` shows it: read now, with its entries, usage, drift and any text appended outside Vigil. */
export async function readView(
  files: ManagedMemoryFiles,
  state: MemoryFileState,
  target: MemoryTarget,
): Promise<MemoryFileView> {
  const snapshot = await state.run(() => files.refresh(state, 0));
  const parsed = parseSnapshot(snapshot, state.limit);
  const record = await readWriteRecord(state.file);
  const seen = state.lastExternalChange;
  const previous = seen !== null && seen.current.sha256 === snapshot.sha256 ? seen.previous.entries : undefined;
  return {
    dir: state.directory.path,
    target,
    file: state.file,
    exists: snapshot.exists,
    sha256: snapshot.sha256,
    entries: parsed.version.entries,
    usage: parsed.usage,
    drift: parsed.drift,
    ...viewText(snapshot.text),
    lastExternalChange: state.lastExternalChange,
    appended: parsed.drift.isDrifted
      ? null
      : findAppendedText(parsed.version.entries, previous, new Set(record?.entries ?? []), state.limit),
  };
}

/** How the file could be split into entries, read now, and the split Vigil recommends. */
export async function proposeAdoptionOf(
  files: ManagedMemoryFiles,
  state: MemoryFileState,
  target: MemoryTarget,
): Promise<AdoptionPlan> {
  const snapshot = await state.run(() => files.refresh(state, 0));
  const parsed = parseSnapshot(snapshot, state.limit);
  const proposals = proposeEntries(snapshot.text, state.limit);
  return {
    dir: state.directory.path,
    target,
    file: state.file,
    basis: snapshot.sha256,
    drift: parsed.drift,
    proposals,
    recommended: recommendProposal(proposals, snapshot.text),
  };
}
