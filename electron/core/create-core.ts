import { createCheckpointHandlers, toContractEntry } from '../checkpoints/checkpoint-handlers';
import { CheckpointService } from '../checkpoints/checkpoint-service';
import { createRestoreHandlers } from '../checkpoints/restore-handlers';
import { restoreServiceFor, writeLedgerFile } from '../checkpoints/restore-service';
import { createWriteLedger, recordingWrites } from '../checkpoints/restore-write-ledger';
import os from 'node:os';
import { createAgentServices } from '../executor/create-agent-services';
import type { CommandSandbox } from '../sandbox/sandbox-api';
import { restorePortOf } from '../sessions/session-rewinder';
import type { ToolExecutor } from '../executor/executor-types';
import type { SessionService } from '../sessions/session-types';
import { readConfigSection } from '../config/config-file';
import { createGateway, type Gateway } from '../gateway/create-gateway';
import { gatewayConfigSchema } from '../gateway/gateway-config';
import { HermesCheckpoints } from '../hermes/hermes-checkpoints';
import { watchHermesTimelines } from '../hermes/hermes-timeline-watcher';
import { mergeHermesCheckpoints } from '../hermes/merged-checkpoints';
import type { CallHandlers } from '../transport/call-handlers';
import { createContractRouter, type ContractRouter } from '../transport/contract-router';
import type { HttpRoute } from '../transport/http-route';
import type { Logger } from '../logging/logger';
import { createConfiguredMemoryService } from '../memory/configured-memory-service';
import { createMemoryHandlers } from '../memory/memory-handlers';
import { activeHermesHome } from '../connect/client-locations';
import { createAppHandlers } from './app-handlers';
import { vigilInvocation } from './vigil-invocation';
import { DisposableStack } from './disposable';
import { EventHub } from './event-hub';
import { ensureVigilHome, type VigilPaths } from './vigil-home';
import { vigilVersion } from './version';
import { readCheckpointSettings } from '../checkpoints/checkpoint-config';

/** What a composition root (the Electron main process, `vigil serve`) passes in. */
export interface CoreOptions {
  /** The data folder (already resolved from VIGIL_HOME or the default). */
  readonly home: string;
  readonly logger: Logger;
  /** The environment (HERMES_HOME, …); default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Whether a human can answer approvals in this process (default true). False for a core with no
   * UI attached (`vigil mcp`'s embedded core): a call that would wait for a human is denied at once.
   */
  readonly canAsk?: boolean;
}

/** The supervisor core: every service, the contract router, the event bus and the gateway routes. */
export interface Core {
  readonly paths: VigilPaths;
  readonly logger: Logger;
  readonly events: EventHub;
  /** The checkpoint engine (one store, a timeline per directory). */
  readonly checkpoints: CheckpointService;
  /** Agent sessions: the live list, their logs, turns and turn undo. */
  readonly sessions: SessionService;
  /** Runs agents' tool calls: validation, policy, approvals, checkpoints, the tools. */
  readonly executor: ToolExecutor;
  readonly router: ContractRouter;
  /** Endpoints the headless server mounts beside the UI (`/mcp`, `/agent`). */
  readonly httpRoutes: readonly HttpRoute[];
  /** The agent gateway: MCP and Vigil's JSON-RPC protocol (its routes are `httpRoutes`). */
  readonly gateway: Gateway;
  /** The OS sandbox agent commands run in: whether it can start here, and if not why and what fixes it. */
  readonly sandbox: Pick<CommandSandbox, 'status'>;
  /** Flushes logs and releases every watcher, lock and timer. */
  dispose(): Promise<void>;
}

/** How to run this Vigil's CLI and where Hermes's active home is, for the UI's connect snippets. */
async function connectInputsOf(env: NodeJS.ProcessEnv): Promise<{ command: string; args: string[]; hermesHome: string }> {
  const invocation = await vigilInvocation(env);
  return { command: invocation.command, args: [...invocation.args], hermesHome: await activeHermesHome(env) };
}

/** Builds the core. It never imports `electron`, so it runs the same under Node and in the app. */
export async function createCore(options: CoreOptions): Promise<Core> {
  const paths = await ensureVigilHome(options.home);
  const { logger } = options;
  const events = new EventHub();
  const stack = new DisposableStack();
  const checkpoints = new CheckpointService({ root: paths.checkpoints, logger, events, watch: true, ...(await readCheckpointSettings(paths.config)) });
  stack.add(() => checkpoints.dispose());
  // Hermes Agent's checkpoints (read, never written) join every timeline, diff and restore.
  const hermes = new HermesCheckpoints({ env: options.env ?? process.env, logger });
  stack.add(() => hermes.dispose());
  stack.add(watchHermesTimelines({ hermes, logger, onCreated: (entry) => events.emit('checkpoints:created', toContractEntry(entry)) }));
  const timelines = mergeHermesCheckpoints(checkpoints, hermes, { env: options.env ?? process.env });
  // Agents' writes go through this view of the engine, so the write ledger knows which versions Vigil made.
  const recordedCheckpoints = recordingWrites(checkpoints, createWriteLedger(writeLedgerFile(paths.checkpoints), logger), logger);
  // Memory directories are checkpointed directories; disposed before the engine (its captures finish first).
  const memory = await createConfiguredMemoryService({ paths, env: options.env ?? process.env, logger, events, checkpoints: recordedCheckpoints, watch: {} });
  stack.add(() => memory.dispose());
  // A restore of a memory folder takes the memory locks (Vigil's and Hermes's) and is reported as Vigil's restore.
  const restore = restoreServiceFor(timelines, paths.checkpoints, logger, events, { checkScopeAfterRestore: true, guard: memory.guardRestore });
  const agents = await createAgentServices({ paths, logger, events, home: os.homedir(), checkpoints: recordedCheckpoints, memory, restore: restorePortOf(restore), ...(options.canAsk === undefined ? {} : { canAsk: options.canAsk }) });
  stack.add(() => agents.dispose());

  const gatewayConfig = await readConfigSection(paths.config, 'gateway', gatewayConfigSchema);
  const gateway = createGateway({ sessions: agents.sessions, executor: agents.executor, events, logger, version: vigilVersion, ...gatewayConfig, mcpSessionIdleMs: agents.sessionSettings.idleMs });
  stack.add(() => gateway.dispose());

  const handlers: CallHandlers = {
    ...createAppHandlers({
      name: 'vigil',
      version: vigilVersion,
      home: paths.home,
      platform: process.platform,
      pid: process.pid,
      startedAt: new Date().toISOString(),
      // The same inputs `vigil connect` uses, so the UI's empty states show the same snippets.
      connect: await connectInputsOf(options.env ?? process.env),
    }),
    ...createMemoryHandlers(memory),
    ...createCheckpointHandlers(timelines),
    ...createRestoreHandlers(restore),
    ...agents.handlers,
  };

  stack.add(() => logger.flush());
  logger.info('core started', { home: paths.home, version: vigilVersion });

  return {
    paths,
    logger,
    events,
    checkpoints,
    sessions: agents.sessions,
    executor: agents.executor,
    router: createContractRouter(handlers, logger),
    httpRoutes: gateway.routes,
    gateway,
    sandbox: agents.sandbox,
    dispose: () => stack.dispose(),
  };
}
