import { plainActorNames, type PlainActor } from '../../../shared/contract/actor-model';
import { maskSecretValues } from '../../../shared/secrets/mask-secret-values';
import { vigilIdentity } from '../../git-store';
import type { Attribution, CheckpointEntry, CheckpointKind, SkippedPath, SkipReason } from '../checkpoint-types';

/** At most this many `Vigil-Skipped` trailers per commit; the rest is summarised in one line. */
export const maxSkippedTrailers = 200;

/** Longest subject kept (a long terminal command is shortened). */
const maxSubjectLength = 200;

/** The parts of a checkpoint's record that its commit holds (the rest is where the commit is). */
type RecordedParts = Pick<
  CheckpointEntry,
  'tree' | 'attribution' | 'kind' | 'restores' | 'stats' | 'skipped' | 'skippedList'
>;

/** What a checkpoint commit says, before it is serialized. */
export interface CheckpointCommit extends RecordedParts {
  readonly parent?: string;
  /** Seconds since the epoch. */
  readonly time: number;
  readonly reason: string;
}

/** Whether a character is a control character (C0 or DEL). */
function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

/** One line, no control characters: a trailer value or subject must not break the message apart. */
function oneLine(value: string): string {
  let out = '';
  let afterControl = false;
  for (const char of value) {
    if (isControl(char)) {
      if (!afterControl) out += ' ';
      afterControl = true;
    } else {
      out += char;
      afterControl = false;
    }
  }
  return out.trim();
}

/** The subject line: the reason, on one line, secrets masked as in the session logs, shortened when very long. */
export function commitSubject(reason: string): string {
  // Masked before it is shortened, so a cut cannot leave part of a secret the mask no longer recognises.
  const line = oneLine(maskSecretValues(reason));
  const subject = line === '' ? 'checkpoint' : line;
  return subject.length > maxSubjectLength ? `${subject.slice(0, maxSubjectLength - 1)}…` : subject;
}

/** Quotes a path the way git does when it holds a quote, backslash or control character. */
export function quotePath(value: string): string {
  const named: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r' };
  let escaped = '';
  let needsQuotes = false;
  for (const char of value) {
    const replacement =
      named[char] ?? (isControl(char) ? `\\${char.charCodeAt(0).toString(8).padStart(3, '0')}` : undefined);
    if (replacement !== undefined) needsQuotes = true;
    escaped += replacement ?? char;
  }
  return needsQuotes ? `"${escaped}"` : value;
}

/** Reverses `quotePath`. */
export function unquotePath(value: string): string {
  if (!value.startsWith('"') || !value.endsWith('"') || value.length < 2) return value;
  return value.slice(1, -1).replace(/\\(n|t|r|"|\\|[0-7]{3})/g, (_all, code: string) => {
    const named: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };
    return named[code] ?? String.fromCharCode(parseInt(code, 8));
  });
}

/** The trailers of a checkpoint commit, in a fixed order. */
function trailers(commit: CheckpointCommit): string[] {
  const lines: string[] = [];
  const { sessionId, turn, tool, agent } = commit.attribution;
  if (sessionId !== undefined) lines.push(`Vigil-Session: ${oneLine(sessionId)}`);
  if (turn !== undefined) lines.push(`Vigil-Turn: ${turn}`);
  if (tool !== undefined) lines.push(`Vigil-Tool: ${oneLine(tool)}`);
  if (agent !== undefined) lines.push(`Vigil-Agent: ${oneLine(agent)}`);
  if (commit.attribution.origin === 'manual') lines.push('Vigil-Origin: manual');
  if (commit.attribution.actor !== undefined) lines.push(`Vigil-Actor: ${commit.attribution.actor}`);
  if (commit.kind === 'pre-rollback') lines.push('Vigil-Kind: pre-rollback');
  if (commit.restores !== undefined) lines.push(`Vigil-Restores: ${commit.restores}`);
  const { files, insertions, deletions } = commit.stats;
  lines.push(`Vigil-Stats: files=${files} insertions=${insertions} deletions=${deletions}`);
  const shown = commit.skipped.slice(0, maxSkippedTrailers);
  for (const skip of shown) lines.push(`Vigil-Skipped: ${skip.reason} ${quotePath(skip.path)}`);
  if (commit.skipped.length > shown.length) lines.push(`Vigil-Skipped: more ${commit.skipped.length - shown.length}`);
  if (commit.skippedList !== undefined) lines.push(`Vigil-Skipped-List: ${commit.skippedList}`);
  return lines;
}

/** The complete skip list as a blob's content: one `<reason> <path>` line per skipped path (paths quoted as in the trailers). */
export function encodeSkippedList(skipped: readonly SkippedPath[]): Buffer {
  return Buffer.from(skipped.map((skip) => `${skip.reason} ${quotePath(skip.path)}\n`).join(''), 'utf8');
}

/** Reads a skip-list blob back (lines that are not `<reason> <path>` are ignored). */
export function decodeSkippedList(content: Uint8Array): SkippedPath[] {
  const skipped: SkippedPath[] = [];
  for (const line of Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8').split('\n')) {
    const parsed = parseSkip(line);
    if (parsed !== undefined) skipped.push(parsed);
  }
  return skipped;
}

/** One `<reason> <path>` skip, or undefined when the line is not one. */
function parseSkip(value: string): SkippedPath | undefined {
  const space = value.indexOf(' ');
  const reason = value.slice(0, space);
  return space > 0 && skipReasons.has(reason)
    ? { reason: reason as SkipReason, path: unquotePath(value.slice(space + 1)) }
    : undefined;
}

/** Serializes a checkpoint into a commit object's content (subject, blank line, trailers). */
export function encodeCheckpointCommit(commit: CheckpointCommit): Buffer {
  const stamp = `${commit.time} +0000`;
  const header = [`tree ${commit.tree}`];
  if (commit.parent !== undefined) header.push(`parent ${commit.parent}`);
  header.push(`author ${vigilIdentity} ${stamp}`, `committer ${vigilIdentity} ${stamp}`);
  const message = `${commitSubject(commit.reason)}\n\n${trailers(commit).join('\n')}\n`;
  return Buffer.from(`${header.join('\n')}\n\n${message}`, 'utf8');
}

/** A commit object's parsed content. */
export interface ParsedCommit extends RecordedParts {
  readonly parents: readonly string[];
  /** Committer time, seconds since the epoch. */
  readonly time: number;
  readonly subject: string;
}

const plainActors = new Set<string>(plainActorNames);

const skipReasons = new Set<string>(['excluded', 'vcs', 'oversize', 'special', 'unreadable', 'bad-name', 'more']);

/** Reads the parts of a commit a timeline needs; tolerant of commits that were not made by Vigil. */
export function decodeCheckpointCommit(content: Uint8Array): ParsedCommit {
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
  const split = text.indexOf('\n\n');
  const headerText = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2);
  let tree = '';
  const parents: string[] = [];
  let time = 0;
  for (const line of headerText.split('\n')) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
    else if (line.startsWith('committer ')) time = Number(/ (\d+) [+-]\d{4}$/.exec(line)?.[1] ?? 0);
  }
  const lines = message.split('\n');
  const subject = lines[0] ?? '';
  const attribution: { -readonly [K in keyof Attribution]: Attribution[K] } = {};
  let kind: CheckpointKind = 'checkpoint';
  let restores: string | undefined;
  let skippedList: string | undefined;
  let stats = { files: 0, insertions: 0, deletions: 0 };
  const skipped: SkippedPath[] = [];
  for (const line of lines.slice(1)) {
    const match = /^(Vigil-[A-Za-z-]+): (.*)$/.exec(line);
    if (match === null) continue;
    const [, key, value = ''] = match;
    if (key === 'Vigil-Session') attribution.sessionId = value;
    else if (key === 'Vigil-Turn' && /^\d+$/.test(value)) attribution.turn = Number(value);
    else if (key === 'Vigil-Tool') attribution.tool = value;
    else if (key === 'Vigil-Agent') attribution.agent = value;
    else if (key === 'Vigil-Origin' && value === 'manual') attribution.origin = 'manual';
    else if (key === 'Vigil-Actor' && plainActors.has(value)) attribution.actor = value as PlainActor;
    else if (key === 'Vigil-Kind' && value === 'pre-rollback') kind = 'pre-rollback';
    else if (key === 'Vigil-Restores') restores = value;
    else if (key === 'Vigil-Stats') {
      const numbers = /files=(\d+) insertions=(\d+) deletions=(\d+)/.exec(value);
      if (numbers !== null)
        stats = { files: Number(numbers[1]), insertions: Number(numbers[2]), deletions: Number(numbers[3]) };
    } else if (key === 'Vigil-Skipped') {
      const parsed = parseSkip(value);
      if (parsed !== undefined) skipped.push(parsed);
    } else if (key === 'Vigil-Skipped-List' && /^[0-9a-f]{40}$/.test(value)) skippedList = value;
  }
  // Only the trailers the commit has: an absent trailer stays an absent key.
  const base = { tree, parents, time, subject, attribution, kind, stats, skipped };
  return {
    ...base,
    ...(restores === undefined ? {} : { restores }),
    ...(skippedList === undefined ? {} : { skippedList }),
  };
}
