import {
  checkpointConfigSchema,
  type CheckpointService,
  type HistoryService,
  loadWriteLedger,
  type DiffService,
  type RestoreService,
  toCheckpointSettings,
  type WalkHeadStart,
} from '../checkpoints';
import type { LiveConfig } from '../config';
import type { AgentServices } from '../executor';
import type { HookService } from '../hooks';
import type { MergedCheckpointApi } from '../hermes';
import type { Logger } from '../logging';
import type { MemoryService, ReconfigurableMemoryService } from '../memory';
import type { DisposableStack, EventHub, VigilPaths } from '../lib';
import { once } from '../lib';
import {
  buildAgents,
  buildEngine,
  buildHistory,
  buildHooks,
  buildReconfigurableMemory,
  buildDiff,
  buildRestore,
  buildTimelines,
  disposedWith,
  memoryBuilder,
  restorePortOver,
} from './core-service-builders';

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
  /** One-shot: a walk begun before the core was built (`vigil checkpoint DIR`), for the engine to adopt. */
  readonly checkpointHeadStart?: WalkHeadStart | undefined;
}

/** The core's services, each built on first use (a resident core builds them all at start). */
export interface CoreServices {
  /** The checkpoint engine itself. */
  readonly engine: () => Promise<CheckpointService>;
  /** The engine with Hermes Agent's checkpoints merged in: what timelines, diff and restore read. */
  readonly timelines: () => Promise<MergedCheckpointApi>;
  /** The memory store, its writes checkpointed and recorded in the write ledger. */
  readonly memory: () => Promise<MemoryService>;
  /** Diffs of checkpoints, over the merged timelines. */
  readonly diff: () => Promise<DiffService>;
  /** Plans and restores, whole or some lines, over the merged timelines. */
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
 * checkpoint never loads the memory watcher, the diff and restore services or the policy engine; it
 * does load the `diff` package, for its line counts).
 */
export function createCoreServices(context: ServiceContext): CoreServices {
  const { paths, logger, stack, isResident } = context;

  const engine = once(() => buildEngine(context));

  // The one write ledger of this process: every change Vigil makes records its actor there (agents' tools, memory, restores).
  const ledger = once(async () => {
    const { writeLedgerFile, createWriteLedger } = await loadWriteLedger();
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

  const diff = once(async () => buildDiff(context, await timelines()));
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
    diff,
    restore,
    history,
    agents: (withMemory) => (withMemory ? agentsWithMemory() : agentsWithoutMemory()),
    hooks,
    applyConfig,
  };
}
