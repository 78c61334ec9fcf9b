import { AppError } from '../../shared/errors';

/** Bytes inspected for NUL to tell a binary file from text, as git does. */
export const binaryProbeBytes = 8000;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Whether content is binary the way git judges it: a NUL byte among its first 8,000 bytes. */
export function hasBinaryBytes(bytes: Uint8Array): boolean {
  return bytes.subarray(0, binaryProbeBytes).includes(0);
}

/** Whether `bytes` are valid UTF-8 throughout. */
export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The first byte offset at which `bytes` stops being valid UTF-8, or -1 when it is valid throughout. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  if (isValidUtf8(bytes)) return -1;
  // Bisect for the first bad byte: a prefix that decodes (possibly ending mid-sequence) is good up to there.
  let good = 0;
  let bad = bytes.length;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, middle), { stream: true });
      good = middle;
    } catch {
      bad = middle;
    }
  }
  return startOfTrailingSequence(bytes, good);
}

/** Where an unfinished multi-byte sequence at the end of `bytes[0, end)` starts, or `end` when there is none. */
function startOfTrailingSequence(bytes: Uint8Array, end: number): number {
  let lead = end - 1;
  while (lead >= 0 && end - lead <= 3 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead -= 1;
  const first = bytes[lead] ?? 0;
  if (lead < 0 || first < 0xc0) return end;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : 2;
  return end - lead < length ? lead : end;
}

/** The error for a file that is binary (has NUL bytes): tools that work on text never show it garbled. */
export function binaryFileError(displayPath: string, size: number, action: string): AppError {
  return new AppError(
    'unsupported',
    `${displayPath} is a binary file (${size} bytes; it contains NUL bytes), so ${action} was refused rather than showing or rewriting it as garbled text. Use a program that understands the format.`,
    { path: displayPath, size, reason: 'binary' },
  );
}

/** The error for a file that is not UTF-8: Vigil never guesses an encoding or substitutes characters. */
export function notUtf8Error(displayPath: string, offset: number, action: string): AppError {
  return new AppError(
    'unsupported',
    `${displayPath} is not valid UTF-8 (the first bad byte is at offset ${offset}), so ${action} was refused rather than guessing an encoding and garbling it. Convert it to UTF-8 first, or edit it with a program that knows its encoding.`,
    { path: displayPath, offset, reason: 'not_utf8' },
  );
}

/** Decodes a whole file's bytes as UTF-8 text, refusing binary and non-UTF-8 content explicitly. */
export function decodeUtf8File(bytes: Uint8Array, displayPath: string, action: string): string {
  if (hasBinaryBytes(bytes)) throw binaryFileError(displayPath, bytes.length, action);
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw notUtf8Error(displayPath, invalidUtf8Offset(bytes), action);
  }
}
