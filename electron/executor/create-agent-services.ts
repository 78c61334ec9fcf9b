import { ConfigFile } from '../config';
import {
  type CheckpointApi,
  readCheckpointOnFailure,
  readCheckpointSettings,
  type WriteLedger,
  type WriteRecorder,
} from '../checkpoints';
import type { EventHub, VigilPaths } from '../lib';
import type { Logger } from '../logging';
import type { MemoryService } from '../memory';
import { ApprovalService, createApprovalHandlers, PolicyEngine } from '../policy';
import {
  createSessionHandlers,
  createSessionRewinder,
  readSessionSettings,
  type RestorePort,
  SessionRegistry,
  type SessionSettings,
  warmUpSessionFolders,
} from '../sessions';
import { CommandSandbox, type ScanFolderEvents } from '../sandbox';
import { createToolAdapters } from '../tools';
import { createCollisionGuard, type CollisionGuard } from './collision-guard';
import { createToolExecutor, type RunningToolExecutor } from './tool-executor';

/** A value read once, as a getter. */
function constant<T>(value: T): () => T {
  return () => value;
}

/** What the core passes in to build sessions, policy, approvals and the executor. */
export interface AgentServicesOptions {
  readonly paths: VigilPaths;
  readonly logger: Logger;
  readonly events: EventHub;
  /** The user's home folder (default: the OS's). */
  readonly home: string;
  readonly checkpoints?: Pick<CheckpointApi, 'checkpoint' | 'noteWritten'>;
  /** The one write ledger's recorder: every change an agent's call makes is recorded as its session's. */
  readonly writes?: WriteRecorder;
  /** The one write ledger (who changed which file last): the collision guard reads it; without it there is no guard. */
  readonly ledger?: Pick<WriteLedger, 'view'>;
  /** The checkpoint store, read for the earlier version of a file two sessions collide on. */
  readonly store?: Pick<CheckpointApi, 'resolve' | 'readTree' | 'readBlob'>;
  /** The checkpoint engine's restore (plan/apply), for turn undo's code mode. */
  readonly restore?: RestorePort;
  readonly memory?: MemoryService;
  /** Whether a human can answer approvals in this process (false in one-shot CLI commands). */
  readonly canAsk?: boolean;
  /** The environment agent commands start from (default: this process's; Vigil's variables are always dropped). */
  readonly env?: NodeJS.ProcessEnv;
  /** The `sessions` settings in force, read at each use (a resident core's live config.json); omitted, config.json is read once now. */
  readonly sessionSettings?: () => SessionSettings;
  /** The checkpoint size cap in force (a resident core's live config.json); omitted, config.json is read at each call. */
  readonly maxFileBytes?: () => number;
  /** Fork agent commands from this process (one-shot commands) instead of a spawn server (the default: a resident core never forks itself). */
  readonly spawnCommandsInProcess?: boolean;
  /** A resident core's directory watchers: the sandbox reads again only the folders of the roots they report changed. */
  readonly folderEvents?: ScanFolderEvents;
  /** Starts the first snapshot of a folder a session opened in (a resident core's `CheckpointService.warmUp`); never rejects. */
  readonly warmUp?: (dir: string) => Promise<void>;
}

/** The agent-facing services of the core, their contract handlers, and their disposer. */
export interface AgentServices {
  readonly sessions: SessionRegistry;
  readonly executor: RunningToolExecutor;
  readonly approvals: ApprovalService;
  readonly policy: PolicyEngine;
  /** Holds a change to a file another live session changed recently; absent without a write ledger. */
  readonly collisions: CollisionGuard | undefined;
  /** The `sessions` section of config.json in force: the idle time before an MCP session is disconnected, log retention. */
  readonly sessionSettings: () => SessionSettings;
  /** The OS sandbox agent commands run in; `status()` says whether it can start here. */
  readonly sandbox: CommandSandbox;
  readonly handlers: ReturnType<typeof createSessionHandlers> & ReturnType<typeof createApprovalHandlers>;
  dispose(): Promise<void>;
}

/**
 * Builds sessions (reloading their logs), the policy on config.json, the approvals queue and the
 * tool executor with every tool: read_file, write_file, patch, terminal, and memory when a memory
 * store is given. Sessions show `waiting-approval` while one of their calls waits for a human; the
 * `sessions` section of config.json sets their idle time and log retention.
 */
export async function createAgentServices(options: AgentServicesOptions): Promise<AgentServices> {
  const { logger, events } = options;
  const config = new ConfigFile(options.paths.config);
  const policy = new PolicyEngine({ config, logger });
  const approvals = new ApprovalService({
    events,
    logger,
    canAsk: options.canAsk,
  });
  const sessionSettings = options.sessionSettings ?? constant(await readSessionSettings(options.paths.config));
  const sessions = new SessionRegistry({
    directory: options.paths.sessions,
    logger,
    events,
    maxAgeMs: () => sessionSettings().maxAgeMs,
    isWaitingForApproval: (sessionId) => approvals.isWaiting(sessionId),
    rewinder: options.restore && createSessionRewinder({ restore: options.restore, logger }),
  });
  await sessions.load();
  const stopWatchingApprovals = approvals.onWaitingChanged((sessionId) => sessions.notifyChanged(sessionId));
  const sandbox = new CommandSandbox({
    vigilHome: options.paths.home,
    home: options.home,
    logger,
    env: options.env,
    spawn: options.spawnCommandsInProcess === true ? 'in-process' : 'server',
    ...(options.folderEvents === undefined ? {} : { folderEvents: options.folderEvents }),
    settings: async () => {
      const { config } = await policy.settings();
      return { network: config.network, sandbox: config.sandbox };
    },
  });
  const adapters = createToolAdapters({ sandbox, memory: options.memory });
  const collisions =
    options.ledger &&
    createCollisionGuard({ ledger: options.ledger, sessions, settings: sessionSettings, store: options.store, logger });
  const executor = createToolExecutor({
    sessions,
    policy,
    approvals,
    checkpoints: options.checkpoints,
    writes: options.writes,
    adapters,
    logger,
    events,
    home: options.home,
    protectedPaths: [options.paths.home],
    collisions,
    onCheckpointFailure: () => readCheckpointOnFailure(config),
    checkpointLimits: async () => ({
      maxFileBytes: options.maxFileBytes?.() ?? (await readCheckpointSettings(options.paths.config)).maxFileBytes,
    }),
  });
  // Nobody would receive the answer of a session that ended or whose agent went away: fail closed.
  const closeSession = sessions.onChanged((session) => {
    if (session.status === 'ended' || session.status === 'disconnected') approvals.denySession(session.id);
  });
  const { warmUp } = options;
  const stopWarmingUp = warmUp === undefined ? () => undefined : warmUpSessionFolders(sessions, warmUp);
  return {
    sessions,
    executor,
    approvals,
    policy,
    collisions,
    sessionSettings,
    sandbox,
    handlers: { ...createSessionHandlers(sessions), ...createApprovalHandlers(approvals, options.logger) },
    async dispose() {
      closeSession();
      stopWarmingUp();
      stopWatchingApprovals();
      executor.dispose();
      await sessions.dispose();
      await sandbox.dispose();
    },
  };
}
