import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../files';

/**
 * What a settings file held before `vigil connect … --hooks --write` first changed it, kept in
 * `$VIGIL_HOME/connect/`, so that `--remove` can put it back byte for byte while the file is still
 * exactly what Vigil wrote. `unknown`: the file held Vigil's hooks already when it was written.
 */
export interface HooksOriginal {
  readonly file: string;
  readonly before:
    { readonly kind: 'absent' } | { readonly kind: 'text'; readonly text: string } | { readonly kind: 'unknown' };
  /** SHA-256 of what Vigil wrote. */
  readonly written: string;
}

/** SHA-256 of a text, hex. */
export function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function recordFile(vigilHome: string, file: string): string {
  return path.join(vigilHome, 'connect', `hooks-${digestOf(file).slice(0, 16)}.json`);
}

/** The original kept for a settings file, if any. */
export async function readHooksOriginal(vigilHome: string, file: string): Promise<HooksOriginal | undefined> {
  try {
    const record = JSON.parse(await readFile(recordFile(vigilHome, file), 'utf8')) as HooksOriginal;
    return record.file === file && typeof record.written === 'string' ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the original of a settings file (mode 0600: it may hold the user's settings). */
export async function saveHooksOriginal(vigilHome: string, record: HooksOriginal): Promise<void> {
  await writeFileAtomic(recordFile(vigilHome, record.file), JSON.stringify(record), { mode: 0o600 });
}

/** Forgets the original of a settings file (its hooks were removed). */
export async function forgetHooksOriginal(vigilHome: string, file: string): Promise<void> {
  await rm(recordFile(vigilHome, file), { force: true });
}
