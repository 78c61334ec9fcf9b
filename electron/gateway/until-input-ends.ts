import type { Readable } from 'node:stream';

/** Resolves when the readable side ends or closes. */
export function untilInputEnds(stdin: Readable): Promise<void> {
  return new Promise((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
}
