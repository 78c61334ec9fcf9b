import os from 'node:os';
import {
  announceTimelineChanges,
  CheckpointAnnouncer,
  checkpointConfigSchema,
  createLiveChangeReporter,
  type CheckpointService,
  loadStoreWatcher,
  type WalkHeadStart,
} from '../checkpoints';

import { LiveConfig, type ConfigSectionSpec } from '../config';
import type { ToolExecutor } from '../executor';
import { gatewayConfigSchema, loadGateway, type Gateway, type GatewayConfig } from '../gateway';
import { hooksConfigSchema } from '../hooks';
import type { Logger } from '../logging';
import { memoryConfigSchema } from '../memory';
import { loadPolicyConfig } from '../policy/lazy';
import { sessionConfigSchema } from '../sessions';
import type { CommandSandbox } from '../sandbox';
import { activeHermesHome } from '../hermes';
import type { SessionService } from '../sessions';
import { loadSessionFolderWatch } from '../sessions/lazy';
import { createContractRouter, type ContractRouter } from '../transport';
import type { HttpRoute } from '../transport';
import { configState, createCoreHandlers } from './core-handlers';
import { coreConfigSchema } from './core-config';
import { createCoreServices, type CoreServices } from './core-services';
import { startSandboxAhead } from './sandbox-ahead';
import {
  DisposableStack,
  ensureVigilHome,
  EventHub,
  once,
  vigilInvocation,
  type VigilPaths,
  vigilVersion,
} from '../lib';

/**
 * How a process runs its core. `resident`: the app, `vigil serve` and `vigil mcp`'s embedded core —
 * every service built at start, directories, the store and config.json watched. `one-shot`: one CLI
 * command — each service built on its first use, nothing watched, everything closed afterwards.
 */
export type CoreMode = 'resident' | 'one-shot';

/** What a process passes in to build its core. */
export interface CoreOptions {
  /** The data folder (already resolved from VIGIL_HOME or the default). */
  readonly home: string;
  readonly logger: Logger;
  /** The environment (HERMES_HOME, …); default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Whether a human can answer approvals in this process (default: true when resident). False for
   * a core no UI reaches (`vigil mcp`'s embedded core, a one-shot command): such calls are denied at once.
   */
  readonly canAsk?: boolean;
  /** Default `resident`. */
  readonly mode?: CoreMode;
  /** One-shot: the memory directory of `vigil memory --dir D`, managed for this command alone. */
  readonly memoryDirectory?: string;
  /**
   * One-shot: the directory `vigil checkpoint DIR` checkpoints. The engine is built at once and gets
   * ready for it (for a big tree, the hashing workers start) while the rest of the core is built
   * and the call is checked, instead of after.
   */
  readonly checkpointing?: string;
  /** One-shot, with `checkpointing`: the walk of that directory begun before the core was built, for the engine to adopt. */
  readonly checkpointHeadStart?: WalkHeadStart;
  /**
   * One-shot: the command runs an agent's terminal command (`vigil tool terminal`). The sandbox
   * engine starts at once, while the rest of the core is built and the call is checked.
   */
  readonly runsTerminalCommand?: boolean;
  /** One-shot: watch the memory directories (`vigil memory watch`). */
  readonly watchMemory?: boolean;
  /** One-shot, with `watchMemory`: told where each watched memory folder stands (`vigil memory watch` prints it). */
  readonly onMemoryWatchState?: (dir: string, state: 'watching' | 'waiting' | 'appeared') => void;
}

/** What every core has: the contract, its events, and its services (built on first use). */
export interface CoreBase {
  readonly mode: CoreMode;
  readonly paths: VigilPaths;
  readonly logger: Logger;
  readonly events: EventHub;
  readonly router: ContractRouter;
  readonly services: CoreServices;
  /** Flushes logs and releases every watcher, lock and timer. */
  dispose(): Promise<void>;
}

/** A resident core: every service running, the gateway's routes ready to mount. */
export interface Core extends CoreBase {
  /** The checkpoint engine (one store, a timeline per directory). */
  readonly checkpoints: CheckpointService;
  /** Agent sessions: the live list, their logs, turns and turn undo. */
  readonly sessions: SessionService;
  /** Runs agents' tool calls: validation, policy, approvals, checkpoints, the tools. */
  readonly executor: ToolExecutor;
  /** Endpoints the headless server mounts beside the UI (`/mcp`, `/agent`). */
  readonly httpRoutes: readonly HttpRoute[];
  /** The agent gateway: MCP and Vigil's JSON-RPC protocol (its routes are `httpRoutes`). */
  readonly gateway: Gateway;
  /** The OS sandbox agent commands run in: whether it can start here, and if not why and what fixes it. */
  readonly sandbox: Pick<CommandSandbox, 'status'>;
}

/** How to run this Vigil's CLI and where Hermes's active home is, for the UI's connect snippets (what `vigil connect` prints). */
async function connectInputsOf(
  env: NodeJS.ProcessEnv,
): Promise<{ command: string; args: string[]; hermesHome: string }> {
  const invocation = await vigilInvocation(env);
  return { command: invocation.command, args: [...invocation.args], hermesHome: await activeHermesHome(env) };
}

/**
 * The config.json sections a resident core holds in force and applies while it runs (an invalid
 * edit keeps the last valid value); policy and hooks are read by their features at each call, and
 * only checked here, so that a bad edit is reported with its field.
 */
const configSectionsWith = (policyConfigSchema: ConfigSectionSpec['schema']): readonly ConfigSectionSpec[] => [
  { name: 'checkpoints', schema: checkpointConfigSchema },
  { name: 'memory', schema: memoryConfigSchema },
  { name: 'gateway', schema: gatewayConfigSchema },
  { name: 'sessions', schema: sessionConfigSchema },
  // The policy fails closed rather than keep rules the user has just changed: while it is invalid, a human decides.
  {
    name: 'policy',
    schema: policyConfigSchema,
    isCheckedOnly: true,
    whileInvalid: 'Until it is fixed, every agent tool call asks a human (the policy fails closed).',
  },
  {
    name: 'hooks',
    schema: hooksConfigSchema,
    isCheckedOnly: true,
    whileInvalid:
      'Until it is fixed, hooks use their defaults: a change Vigil could not checkpoint first asks a human.',
  },
  {
    name: 'core',
    schema: coreConfigSchema,
    isCheckedOnly: true,
    whileInvalid: 'Until it is fixed, a background core started now waits its default 30 minutes before it exits.',
  },
];

/** A one-shot command holds the checkpoints section and only checks the others (its features read them themselves), so `vigil checkpoints status` names any field at fault. */
const oneShotConfigSections = (configSections: readonly ConfigSectionSpec[]): readonly ConfigSectionSpec[] =>
  configSections.map((section) =>
    section.name === 'checkpoints'
      ? section
      : {
          whileInvalid: `Until it is fixed, commands that use the "${section.name}" settings stop with this error.`,
          ...section,
          isCheckedOnly: true,
        },
  );

/**
 * The one composition root: builds the core of every process (the app, `vigil serve`, `vigil mcp`,
 * each CLI command), resident or one-shot. It never imports `electron`, so it runs the same under
 * Node and in the app.
 */
export async function createCore(options: CoreOptions & { readonly mode?: 'resident' }): Promise<Core>;
export async function createCore(options: CoreOptions & { readonly mode: 'one-shot' }): Promise<CoreBase>;
export async function createCore(options: CoreOptions): Promise<Core | CoreBase> {
  const mode = options.mode ?? 'resident';
  const isResident = mode === 'resident';
  const paths = await ensureVigilHome(options.home);
  const { logger } = options;
  const events = new EventHub();
  const stack = new DisposableStack();
  stack.add(() => logger.flush());
  if (!isResident && options.runsTerminalCommand === true) stack.add(startSandboxAhead(paths.config));
  // The policy's schema is loaded, not imported: importing the policy's face here would put all of the policy into the core's chunk.
  const config = once(async () => {
    const sections = configSectionsWith((await loadPolicyConfig()).policyConfigSchema);
    return LiveConfig.open(paths.config, isResident ? sections : oneShotConfigSections(sections));
  });
  const liveChanges = createLiveChangeReporter(new CheckpointAnnouncer(events));
  stack.add(liveChanges.dispose);
  const services = createCoreServices({
    paths,
    logger,
    events,
    env: options.env ?? process.env,
    isResident,
    canAsk: options.canAsk ?? isResident,
    memoryDirectory: options.memoryDirectory,
    watchMemory: options.watchMemory === true,
    onMemoryWatchState: options.onMemoryWatchState,
    config,
    stack,
    ...(isResident ? { onDirectoryChanged: liveChanges.report } : { checkpointHeadStart: options.checkpointHeadStart }),
  });
  // Its failures are the call's to report: getting ready is only a head start.
  if (!isResident && options.checkpointing !== undefined) {
    const dir = options.checkpointing;
    services
      .engine()
      .then((engine) => engine.prepare(dir))
      .catch(() => undefined);
  }
  // A resident core's UI shows the same snippets `vigil connect` prints; a one-shot command has no UI.
  const connect = isResident ? { connect: await connectInputsOf(options.env ?? process.env) } : {};
  const info = {
    name: 'vigil',
    version: vigilVersion,
    home: paths.home,
    platform: process.platform,
    pid: process.pid,
    startedAt: new Date().toISOString(),
    ...connect,
  } as const;
  const router = createContractRouter(createCoreHandlers({ services, config, info, isResident }), logger);
  const base: CoreBase = { mode, paths, logger, events, router, services, dispose: () => stack.dispose() };
  if (!isResident) return base;
  try {
    return await startResident(base, stack, config);
  } catch (error) {
    await stack.dispose();
    throw error;
  }
}

/** Builds every service of a resident core and starts what keeps it live: config.json, the store, the timelines' counts. */
async function startResident(base: CoreBase, stack: DisposableStack, config: () => Promise<LiveConfig>): Promise<Core> {
  const { services, events, logger, paths } = base;
  const liveConfig = await config();
  const checkpoints = await services.engine();
  const timelines = await services.timelines();
  await Promise.all([services.diff(), services.restore()]);
  const agents = await services.agents(true);
  // Loaded here: a one-shot command never needs the gateway (MCP, WebSocket) nor the watchers below.
  const [{ createGateway }, { watchStore }, { watchSessionFolder }] = await Promise.all([
    loadGateway(),
    loadStoreWatcher(),
    loadSessionFolderWatch(),
  ]);
  // Timings are read at each use, so an edit of config.json applies to the next turn, drop and sweep.
  const gatewayNow = (): GatewayConfig => liveConfig.section('gateway', gatewayConfigSchema);
  const gateway = createGateway({
    sessions: agents.sessions,
    executor: agents.executor,
    events,
    logger,
    version: vigilVersion,
    turnIdleGapMs: () => gatewayNow().turnIdleGapMs,
    agentDetachGraceMs: () => gatewayNow().agentDetachGraceMs,
    mcpSessionIdleMs: () => agents.sessionSettings().idleMs,
    rootRules: { home: os.homedir(), protectedPaths: [paths.home] },
  });
  stack.add(() => gateway.dispose());
  stack.add(
    liveConfig.watch(logger, async (changed) => {
      await services.applyConfig(changed);
      const state = configState(liveConfig);
      if (state.problem !== null)
        logger.warn('config.json is invalid; the last valid configuration stays in force', {
          field: state.problem.field,
          message: state.problem.message,
        });
      else if (changed.length > 0) logger.info('config.json changed; applied', { sections: changed });
      events.emit('config:changed', state);
    }),
  );
  stack.add(await watchStore({ root: paths.checkpoints, engine: checkpoints, logger }));
  stack.add(
    announceTimelineChanges(events, checkpoints.announcer, (dir) => timelines.count(dir, { isResolved: true }), logger),
  );
  stack.add(
    watchSessionFolder({ directory: paths.sessions, reload: (id) => agents.sessions.reloadFromLog(id), logger }),
  );
  logger.info('core started', { home: paths.home, version: vigilVersion, user: os.userInfo().username });
  return {
    ...base,
    checkpoints,
    sessions: agents.sessions,
    executor: agents.executor,
    httpRoutes: gateway.routes,
    gateway,
    sandbox: agents.sandbox,
  };
}
