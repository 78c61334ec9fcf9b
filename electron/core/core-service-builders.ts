import os from 'node:os';
import {
  checkpointConfigSchema,
  type CheckpointService,
  type HistoryService,
  loadCheckpointService,
  loadHistoryService,
  loadDiffService,
  loadRestoreService,
  loadWriteLedger,
  type RecordingCheckpoints,
  type DiffService,
  type RestoreService,
  toCheckpointSettings,
  type WriteLedger,
} from '../checkpoints';
import type { AgentServices } from '../executor';
import { loadAgentServices } from '../executor/lazy';
import type { HookService } from '../hooks';
import { loadHookService } from '../hooks/lazy';
import type { MergedCheckpointApi } from '../hermes';
import { loadHermesCheckpoints, loadHermesTimelineWatcher, loadMergedCheckpoints } from '../hermes/lazy';
import {
  loadConfiguredMemoryService,
  loadReconfigurableMemoryService,
  memoryConfigSchema,
  type MemoryConfig,
  type MemoryService,
  type ReconfigurableMemoryService,
} from '../memory';
import type { RestorePort } from '../sessions';
import { loadSessionConfig, loadTurnMessages } from '../sessions/lazy';
import type { DisposableStack } from '../lib';
import type { ServiceContext } from './core-services';

/** A service built on first use. */
export type Lazy<T> = () => Promise<T>;

/** A memory store built from config.json (or from the given memory section). */
export type MemoryBuild = (config?: () => MemoryConfig) => Promise<MemoryService>;

/** Registers the service's disposer on the core's stack and returns the service. */
export function disposedWith<T extends { dispose(): void | Promise<void> }>(stack: DisposableStack, service: T): T {
  stack.add(() => service.dispose());
  return service;
}

/** The checkpoint engine with the checkpoints section in force (watching in a resident core). */
export async function buildEngine(context: ServiceContext): Promise<CheckpointService> {
  // The engine's modules load while config.json is read and checked.
  const [{ CheckpointService }, config] = await Promise.all([loadCheckpointService(), context.config()]);
  const settings = toCheckpointSettings(config.section('checkpoints', checkpointConfigSchema));
  const service = new CheckpointService({
    root: context.paths.checkpoints,
    logger: context.logger,
    events: context.events,
    watch: context.isResident,
    ...settings,
    onDirectoryChanged: context.onDirectoryChanged,
    ...(context.checkpointHeadStart === undefined ? {} : { headStart: context.checkpointHeadStart }),
  });
  return disposedWith(context.stack, service);
}

/** The engine with Hermes Agent's checkpoints merged in (and watched in a resident core). */
export async function buildTimelines(
  context: ServiceContext,
  checkpoints: CheckpointService,
): Promise<MergedCheckpointApi> {
  const { env, logger, stack } = context;
  const [{ HermesCheckpoints }, { watchHermesTimelines }, { mergeHermesCheckpoints }] = await Promise.all([
    loadHermesCheckpoints(),
    loadHermesTimelineWatcher(),
    loadMergedCheckpoints(),
  ]);
  // Hermes Agent's checkpoints (read, never written) join every timeline, diff and restore.
  const hermes = new HermesCheckpoints({ env, logger });
  stack.add(() => hermes.dispose());
  if (context.isResident)
    stack.add(
      watchHermesTimelines({
        hermes,
        logger,
        onCreated: (entry) => checkpoints.announcer.created(entry),
      }),
    );
  return mergeHermesCheckpoints(checkpoints, hermes, { env });
}

/** How this core builds its memory store: its directories, watching and events. */
export async function memoryBuilder(context: ServiceContext, checkpoints: RecordingCheckpoints): Promise<MemoryBuild> {
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
export async function buildReconfigurableMemory(
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

/** Diffs over the merged timelines (Vigil's checkpoints and Hermes Agent's). */
export async function buildDiff(context: ServiceContext, merged: MergedCheckpointApi): Promise<DiffService> {
  const { diffServiceFor } = await loadDiffService();
  return diffServiceFor(merged, context.paths.checkpoints);
}

/** Restore over the merged timelines, guarded by the memory locks and recorded in the write ledger. */
export async function buildRestore(
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

/** A file's history and the search of the past over the merged timelines, with each turn's message. */
export async function buildHistory(context: ServiceContext, merged: MergedCheckpointApi): Promise<HistoryService> {
  const { paths } = context;
  const [{ createHistoryService }, { createTurnMessageLookup }] = await Promise.all([
    loadHistoryService(),
    loadTurnMessages(),
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
export function restorePortOver(restore: Lazy<RestoreService>): RestorePort {
  return {
    plan: async (dir, checkpointId, paths) => (await restore()).plan(dir, checkpointId, paths),
    apply: async (plan, actor) =>
      (await restore()).restore(plan.dir, plan.checkpoint.id, plan.paths, {
        fingerprint: plan.fingerprint,
        actor,
      }),
  };
}

/** What the agents' services are built on. */
export interface AgentInputs {
  readonly checkpoints: RecordingCheckpoints;
  readonly engine: Lazy<CheckpointService>;
  readonly ledger: Lazy<WriteLedger>;
  /** Set when the agents get the memory tool. */
  readonly memory: Lazy<MemoryService> | undefined;
  readonly restore: RestorePort;
}

/** Sessions, policy, approvals and the executor over the recorded engine. */
export async function buildAgents(context: ServiceContext, inputs: AgentInputs): Promise<AgentServices> {
  const { paths, logger, events, isResident } = context;
  const [{ createAgentServices }, { createWriteRecorder }, { sessionConfigSchema, toSessionSettings }] =
    await Promise.all([loadAgentServices(), loadWriteLedger(), loadSessionConfig()]);
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
    ledger: await inputs.ledger(),
    store: inputs.checkpoints,
    ...(inputs.memory === undefined ? {} : { memory: await inputs.memory() }),
    restore: inputs.restore,
    canAsk: context.canAsk,
    spawnCommandsInProcess: !isResident,
    // A resident core's watchers tell the sandbox which folders of the roots changed between commands.
    ...(isResident ? { folderEvents: engineNow.folderChanges() } : {}),
    // A resident core starts the first snapshot of a folder a session opens in; a one-shot command would not live to use it.
    ...(isResident ? { warmUp: (dir: string) => engineNow.warmUp(dir) } : {}),
    maxFileBytes: () => engineNow.maxFileBytes,
    ...(live === undefined
      ? {}
      : { sessionSettings: () => toSessionSettings(live.section('sessions', sessionConfigSchema)) }),
  });
}

/** What the hook service is built on. */
export interface HookInputs {
  readonly agents: Lazy<AgentServices>;
  readonly engine: Lazy<CheckpointService>;
  readonly ledger: Lazy<WriteLedger>;
}

/** The hook service over the agents' sessions and policy, the engine and the write ledger. */
export async function buildHooks(context: ServiceContext, inputs: HookInputs): Promise<HookService> {
  const { paths, events, logger, isResident } = context;
  const [agents, checkpoints, writes, { createHookService }, { ConfigFile }] = await Promise.all([
    inputs.agents(),
    inputs.engine(),
    inputs.ledger(),
    loadHookService(),
    import('../config'),
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
    ...(agents.collisions === undefined ? {} : { collisions: agents.collisions }),
  });
  return disposedWith(context.stack, service);
}
