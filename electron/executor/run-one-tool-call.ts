import { CheckpointService } from '../checkpoints/checkpoint-service';
import { writeLedgerFile } from '../checkpoints/restore-service';
import { createWriteLedger, recordingWrites } from '../checkpoints/restore-write-ledger';
import { EventHub } from '../core/event-hub';
import { ensureVigilHome } from '../core/vigil-home';
import type { Logger } from '../logging/logger';
import { createConfiguredMemoryService } from '../memory/configured-memory-service';
import { createAgentServices } from './create-agent-services';
import type { ToolCallOutcome } from './executor-types';
import { readCheckpointSettings } from '../checkpoints/checkpoint-config';

/** One tool call from a one-shot process (`vigil tool`). */
export interface OneToolCall {
  readonly name: string;
  readonly arguments: unknown;
  /** $VIGIL_HOME. */
  readonly vigilHome: string;
  /** The user's home folder (`~`). */
  readonly homeDir: string;
  readonly cwd: string;
  readonly roots: readonly string[];
  readonly logger: Logger;
  readonly env: NodeJS.ProcessEnv;
  /** The agent name recorded in the session log and the checkpoint trailers. */
  readonly agent?: string;
}

/**
 * Runs one tool call in a one-shot process exactly as an agent's call runs in the app: a session
 * is opened (and logged, so `vigil sessions list` shows it), the call goes through validation,
 * policy, the checkpoint of its directory and the tool, and the session is closed. Nobody can
 * approve in this process, so a call that needs a human is denied at once (fail closed).
 */
export async function runOneToolCall(call: OneToolCall): Promise<ToolCallOutcome> {
  const paths = await ensureVigilHome(call.vigilHome);
  const { logger } = call;
  const events = new EventHub();
  events.on('app:problem-reported', (problem) => logger.warn(problem.message));
  const checkpoints = new CheckpointService({ root: paths.checkpoints, logger, ...(await readCheckpointSettings(paths.config)) });
  const needsMemory = call.name === 'memory';
  const memory = needsMemory ? await createConfiguredMemoryService({ paths, env: call.env, logger, checkpoints }) : undefined;
  try {
    const services = await createAgentServices({
      paths,
      logger,
      events,
      home: call.homeDir,
      checkpoints: recordingWrites(checkpoints, createWriteLedger(writeLedgerFile(paths.checkpoints), logger), logger),
      ...(memory === undefined ? {} : { memory }),
      canAsk: false,
    });
    try {
      const session = await services.sessions.open({ agent: call.agent ?? 'vigil tool', client: 'vigil-cli', roots: call.roots, cwd: call.cwd });
      const [outcome] = await services.executor.execute(session.id, [{ name: call.name, arguments: call.arguments }], { concurrent: false });
      await services.sessions.close(session.id);
      if (outcome === undefined) throw new Error('the executor returned no outcome');
      return outcome;
    } finally {
      await services.dispose();
    }
  } finally {
    await memory?.dispose();
    await checkpoints.dispose();
  }
}
