import os from 'node:os';
import {
  checkpointConfigSchema,
  type CheckpointService,
  type HistoryService,
  loadCheckpointService,
  loadHistoryService,
  loadRestoreService,
  loadWriteLedger,
  type RecordingCheckpoints,
  type RestoreService,
  toCheckpointSettings,
  toContractEntry,
  type WriteLedger,
} from '../checkpoints';
import type { LiveConfig } from '../config/live-config';
import type { AgentServices } from '../executor/create-agent-services';
import type { HookService } from '../hooks/hook-service';
import type { MergedCheckpointApi } from '../hermes/merged-checkpoints';
import type { Logger } from '../logging/logger';
import {
  loadConfiguredMemoryService,
  loadReconfigurableMemoryService,
  memoryConfigSchema,
  type MemoryConfig,
  type MemoryService,
  type ReconfigurableMemoryService,
} from '../memory';
import type { RestorePort } from '../sessions/session-rewinder';
import type { DisposableStack } from '../lib/disposable';
import type { EventHub } from '../lib/event-hub';
import { once } from '../lib/once';
import type { VigilPaths } from '../lib/vigil-home';

/** What every service of one core is built from. */
export interface ServiceContext {
  readonly paths: VigilPaths;
  readonly logger: Logger;
  readonly events: EventHub;
  readonly env: NodeJS.ProcessEnv;
  /** The app or `vigil serve` (or `vigil mcp`'s embedded core): watchers and background work on. */
  readonly isResident: boolean;
  /** Whether a human can answer approvals in this process. */
  readonly canAsk: boolean;
  /** `vigil memory --dir D`: the memory directory this process works on (managed for it alone). */
  readonly memoryDirectory: string | undefined;
  /** `vigil memory watch`: watch the memory directories in a one-shot core. */
  readonly watchMemory: boolean;
  /** Told where each watched memory folder stands (watching, waiting for it to appear, appeared). */
  readonly onMemoryWatchState?: (dir: string, state: 'watching' | 'waiting' | 'appeared') => void;
  /** config.json as this process sees it (opened on first use in a one-shot core). */
  readonly config: () => Promise<LiveConfig>;
  /** Where every service registers its disposer (run in reverse order). */
  readonly stack: DisposableStack;
  /** Told when files change in a directory the engine watches (resident only). */
  readonly onDirectoryChanged?: (dir: string) => void;
}

/** The core's services, each built on first use (a resident core builds them all at start). */
export interface CoreServices {
  /** The checkpoint engine itself. */
  readonly engine: () => Promise<CheckpointService>;
  /** The engine with Hermes Agent's checkpoints merged in: what timelines, diff and restore read. */
  readonly timelines: () => Promise<MergedCheckpointApi>;
  /** The memory store, its writes checkpointed and recorded in the write ledger. */
  readonly memory: () => Promise<MemoryService>;
  readonly restore: () => Promise<RestoreService>;
  /** A file's history and the search of the past, over the merged timelines (with each turn's message). */
  readonly history: () => Promise<HistoryService>;
  /** Sessions, policy, approvals and the executor; with the memory tool, or without it (a one-shot call of another tool). */
  readonly agents: (withMemory: boolean) => Promise<AgentServices>;
  /** The agents' own tools reported through their hooks (`vigil hook`): sessions, checkpoints, policy, the write ledger. */
  readonly hooks: () => Promise<HookService>;
  /**
   * A resident core's config.json changed (`changed`: the sections whose value in force changed):
   * each service built so far applies it at once — retention and the size cap, the memory
   * directories and limits, session log retention. Timings (idle times, grace, turn gaps) are read
   * at each use and need nothing here.
   */
  readonly applyConfig: (changed: readonly string[]) => Promise<void>;
}

/**
 * The one place where Vigil's services are constructed and wired: the same ledger, guards and
 * restore options in every process. Each service is built once, on first use, and registers its
 * disposer; its modules are loaded then too, so a one-shot command loads only what it uses (a
 * checkpoint never loads the memory watcher, the diff library or the policy engine).
 */
export function createCoreServices(context: ServiceContext): CoreServices {
  const { paths, logger, stack, isResident } = context;

  const engine = once(() => buildEngine(context));

  // The one write ledger of this process: every change Vigil makes records its actor there (agents' tools, memory, restores).
  const ledger = once(async () => {
    const [{ writeLedgerFile }, { createWriteLedger }] = await Promise.all([loadRestoreService(), loadWriteLedger()]);
    return createWriteLedger(writeLedgerFile(paths.checkpoints), logger);
  });

  // Agents' and memory's writes go through this view of the engine, so the write ledger knows which versions Vigil made, and whose.
  const recorded = once(async () => {
    const { recordingWrites } = await loadWriteLedger();
    return recordingWrites(await engine(), await ledger(), logger);
  });

  const timelines = once(async () => buildTimelines(context, await engine()));

  let liveMemory: ReconfigurableMemoryService | undefined;
  const memory = once(async (): Promise<MemoryService> => {
    const build = await memoryBuilder(context, await recorded());
    // Disposed before the engine (registered after it): its captures finish first.
    if (!isResident) return disposedWith(stack, await build());
    liveMemory = disposedWith(stack, await buildReconfigurableMemory(context, build));
    return liveMemory;
  });

  const restore = once(async () => buildRestore(context, await timelines(), memory, ledger));
  const history = once(async () => buildHistory(context, await timelines()));
  const restorePort = restorePortOver(restore);

  const builtAgents: AgentServices[] = [];
  const agentsWith = (withMemory: boolean): (() => Promise<AgentServices>) =>
    once(async () => {
      const services = await buildAgents(context, {
        checkpoints: await recorded(),
        engine,
        ledger,
        memory: withMemory ? memory : undefined,
        restore: restorePort,
      });
      stack.add(() => services.dispose());
      builtAgents.push(services);
      return services;
    });
  const agentsWithMemory = agentsWith(true);
  const agentsWithoutMemory = agentsWith(false);

  // The agents' own tools, reported through their hooks: the same sessions and policy as the gateway's.
  const hooks = once(() =>
    buildHooks(context, { agents: isResident ? agentsWithMemory : agentsWithoutMemory, engine, ledger }),
  );

  const applyConfig = async (changed: readonly string[]): Promise<void> => {
    const live = await context.config();
    if (changed.includes('checkpoints'))
      (await engine()).updateSettings(toCheckpointSettings(live.section('checkpoints', checkpointConfigSchema)));
    if (changed.includes('memory')) await liveMemory?.reconfigure();
    if (changed.includes('sessions')) await Promise.all(builtAgents.map((agents) => agents.sessions.applyRetention()));
  };

  return {
    engine,
    timelines,
    memory,
    restore,
    history,
    agents: (withMemory) => (withMemory ? agentsWithMemory() : agentsWithoutMemory()),
    hooks,
    applyConfig,
  };
}

type Lazy<T> = () => Promise<T>;

/** A memory store built from config.json (or from the given memory section). */
type MemoryBuild = (config?: () => MemoryConfig) => Promise<MemoryService>;

function disposedWith<T extends { dispose(): void | Promise<void> }>(stack: DisposableStack, service: T): T {
  stack.add(() => service.dispose());
  return service;
}

async function buildEngine(context: ServiceContext): Promise<CheckpointService> {
  const { CheckpointService } = await loadCheckpointService();
  const settings = toCheckpointSettings((await context.config()).section('checkpoints', checkpointConfigSchema));
  const service = new CheckpointService({
    root: context.paths.checkpoints,
    logger: context.logger,
    events: context.events,
    watch: context.isResident,
    ...settings,
    onDirectoryChanged: context.onDirectoryChanged,
  });
  return disposedWith(context.stack, service);
}

async function buildTimelines(context: ServiceContext, checkpoints: CheckpointService): Promise<MergedCheckpointApi> {
  const { env, logger, events, stack } = context;
  const [{ HermesCheckpoints }, { watchHermesTimelines }, { mergeHermesCheckpoints }] = await Promise.all([
    import('../hermes/hermes-checkpoints'),
    import('../hermes/hermes-timeline-watcher'),
    import('../hermes/merged-checkpoints'),
  ]);
  // Hermes Agent's checkpoints (read, never written) join every timeline, diff and restore.
  const hermes = new HermesCheckpoints({ env, logger });
  stack.add(() => hermes.dispose());
  if (context.isResident)
    stack.add(
      watchHermesTimelines({
        hermes,
        logger,
        onCreated: (entry) => events.emit('checkpoints:created', toContractEntry(entry)),
      }),
    );
  return mergeHermesCheckpoints(checkpoints, hermes, { env });
}

async function memoryBuilder(context: ServiceContext, checkpoints: RecordingCheckpoints): Promise<MemoryBuild> {
  const { paths, env, logger, events, isResident } = context;
  const { createConfiguredMemoryService } = await loadConfiguredMemoryService();
  const watch = isResident || context.watchMemory ? { watch: { onWatchState: context.onMemoryWatchState } } : {};
  return (config) =>
    createConfiguredMemoryService({
      paths,
      env,
      logger,
      ...(isResident ? { events } : {}),
      checkpoints,
      ...watch,
      onlyDirectory: context.memoryDirectory,
      config,
    });
}

/** A resident core's store follows the memory section in force: rebuilt when config.json changes it. */
async function buildReconfigurableMemory(
  context: ServiceContext,
  build: MemoryBuild,
): Promise<ReconfigurableMemoryService> {
  const [live, { createReconfigurableMemoryService }] = await Promise.all([
    context.config(),
    loadReconfigurableMemoryService(),
  ]);
  return createReconfigurableMemoryService(
    () => build(() => live.section('memory', memoryConfigSchema)),
    context.logger,
  );
}

async function buildRestore(
  context: ServiceContext,
  merged: MergedCheckpointApi,
  memory: Lazy<MemoryService>,
  ledger: Lazy<WriteLedger>,
): Promise<RestoreService> {
  const { paths, env, logger, isResident } = context;
  const [{ restoreServiceFor }, { createConfiguredRestoreGuard }] = await Promise.all([
    loadRestoreService(),
    loadConfiguredMemoryService(),
  ]);
  // A restore of a memory folder takes the memory locks (Vigil's and Hermes's) and is reported as Vigil's restore.
  const guard = isResident ? (await memory()).guardRestore : await createConfiguredRestoreGuard({ paths, env, logger });
  return restoreServiceFor(merged, paths.checkpoints, logger, context.events, {
    checkScopeAfterRestore: isResident,
    guard,
    ledger: await ledger(),
  });
}

async function buildHistory(context: ServiceContext, merged: MergedCheckpointApi): Promise<HistoryService> {
  const { paths } = context;
  const [{ createHistoryService }, { createTurnMessageLookup }] = await Promise.all([
    loadHistoryService(),
    import('../sessions/turn-messages'),
  ]);
  const rules = {
    // Read through: config.json can change the size cap while the core runs.
    get maxFileBytes() {
      return merged.maxFileBytes;
    },
    ignoredFolders: [paths.checkpoints],
  };
  return createHistoryService({
    engine: merged,
    root: paths.checkpoints,
    rules,
    turnMessageOf: createTurnMessageLookup(paths.sessions),
  });
}

/** Turn undo's port: the restore service is built when a rewind first needs it. */
function restorePortOver(restore: Lazy<RestoreService>): RestorePort {
  return {
    plan: async (dir, checkpointId, paths) => (await restore()).plan(dir, checkpointId, paths),
    apply: async (plan, actor) =>
      (await restore()).restore(plan.dir, plan.checkpoint.id, plan.paths, {
        fingerprint: plan.fingerprint,
        actor,
      }),
  };
}

interface AgentInputs {
  readonly checkpoints: RecordingCheckpoints;
  readonly engine: Lazy<CheckpointService>;
  readonly ledger: Lazy<WriteLedger>;
  /** Set when the agents get the memory tool. */
  readonly memory: Lazy<MemoryService> | undefined;
  readonly restore: RestorePort;
}

async function buildAgents(context: ServiceContext, inputs: AgentInputs): Promise<AgentServices> {
  const { paths, logger, events, isResident } = context;
  const [{ createAgentServices }, { createWriteRecorder }, { sessionConfigSchema, toSessionSettings }] =
    await Promise.all([
      import('../executor/create-agent-services'),
      loadWriteLedger(),
      import('../sessions/session-config'),
    ]);
  const engineNow = await inputs.engine();
  // A resident core reads the sessions section in force at each use; a one-shot command reads config.json once.
  const live = isResident ? await context.config() : undefined;
  return createAgentServices({
    paths,
    logger,
    events,
    home: os.homedir(),
    checkpoints: inputs.checkpoints,
    writes: createWriteRecorder(await inputs.engine(), await inputs.ledger()),
    ...(inputs.memory === undefined ? {} : { memory: await inputs.memory() }),
    restore: inputs.restore,
    canAsk: context.canAsk,
    maxFileBytes: () => engineNow.maxFileBytes,
    ...(live === undefined
      ? {}
      : { sessionSettings: () => toSessionSettings(live.section('sessions', sessionConfigSchema)) }),
  });
}

interface HookInputs {
  readonly agents: Lazy<AgentServices>;
  readonly engine: Lazy<CheckpointService>;
  readonly ledger: Lazy<WriteLedger>;
}

async function buildHooks(context: ServiceContext, inputs: HookInputs): Promise<HookService> {
  const { paths, events, logger, isResident } = context;
  const [agents, checkpoints, writes, { createHookService }, { ConfigFile }] = await Promise.all([
    inputs.agents(),
    inputs.engine(),
    inputs.ledger(),
    import('../hooks/hook-service'),
    import('../config/config-file'),
  ]);
  // One view of config.json, re-read only when it changes: this is on every tool call's path.
  const config = new ConfigFile(paths.config);
  const service = createHookService({
    sessions: agents.sessions,
    policy: agents.policy,
    engine: checkpoints,
    ledger: writes,
    config,
    events,
    logger,
    facts: {
      home: os.homedir(),
      knownDirectories: async () => (await checkpoints.directories()).map((entry) => entry.dir),
    },
    vigilHome: paths.home,
    stateDirectory: paths.hooks,
    // The size cap in force (a resident core's follows config.json; an invalid edit keeps the last valid one).
    checkpointLimits: () => Promise.resolve({ maxFileBytes: checkpoints.maxFileBytes }),
    isResident,
    idleMs: () => agents.sessionSettings().idleMs,
  });
  return disposedWith(context.stack, service);
}
