import type { HookAnswer, HookEvent } from '../../../shared/hooks/hook-event';
import type { Result } from '../../../shared/result';
import { createCore } from '../../core';
import { vigilPaths } from '../../lib/vigil-home';
import { createFileLogger } from '../../logging/logger';

/**
 * One hook event answered by a one-shot core in this process (no resident core runs, or it cannot
 * be reached): the same contract call, validated the same way, as the relay makes. Loaded only then.
 */
export async function answerInProcess(
  event: HookEvent,
  home: string,
  io: { readonly stderr: NodeJS.WritableStream; readonly env: NodeJS.ProcessEnv },
): Promise<Result<HookAnswer>> {
  const logger = createFileLogger({
    directory: vigilPaths(home).logs,
    echo: { level: 'warn', write: (line) => io.stderr.write(line) },
  });
  const core = await createCore({ home, logger, env: io.env, mode: 'one-shot' });
  try {
    return (await core.router.dispatch('hooks:event', event, {
      transport: 'cli',
      clientId: 'vigil-hook',
    })) as Result<HookAnswer>;
  } finally {
    await core.dispose();
  }
}
