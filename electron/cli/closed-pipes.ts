/**
 * Lets a command end quietly when the reader of its output goes away (`vigil checkpoints list DIR |
 * head -1`): instead of an EPIPE stack trace, the rest of the output is dropped and the command
 * finishes with its own exit code. Any other stream error is still thrown.
 */
export function ignoreClosedPipes(...streams: readonly NodeJS.WriteStream[]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
      throw error;
    });
  }
}
