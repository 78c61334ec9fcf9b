import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './cli-command';
import { checkpointsOf } from './cli-services';
import type { ContractCaller } from './relay/relay-or-local';

/** A relayed call as the resident core answers it: the cut event it sent, then the answer. */
function relayedCallWithCut(message: string): ContractCaller {
  return {
    kind: 'relay',
    call: (_channel, _payload, options) => {
      options?.onEvent?.({ name: 'checkpoints:cut', payload: { message } } as never);
      return Promise.resolve({ kind: 'unchanged' } as never);
    },
  };
}

function ioWithStderr(): { readonly io: CliIo; readonly stderr: () => string } {
  const stderr = new PassThrough();
  const chunks: Buffer[] = [];
  stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const io: CliIo = { stdout: new PassThrough(), stderr, stdin: new PassThrough(), env: {}, cwd: '/' };
  return { io, stderr: () => Buffer.concat(chunks).toString('utf8') };
}

describe('a cut a relayed call made', () => {
  it('is printed once in the log echo form, secrets masked as the in-process log echo masks them', async () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
    const { io, stderr } = ioWithStderr();
    await checkpointsOf(
      relayedCallWithCut(`Dropped 1 old checkpoint of /home/u/${token}/proj; 2 kept.`),
      io,
    ).checkpoint('/home/u/proj', { reason: 'r' });
    expect(stderr()).toBe('vigil: warn: Dropped 1 old checkpoint of /home/u/ghp_[masked]/proj; 2 kept.\n');
  });
});
