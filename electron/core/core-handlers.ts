import { callNames, type CallName } from '../../shared/contract';
import type { ConfigState } from '../../shared/contract/config-contract';
import { AppError } from '../../shared/errors';
import {
  checkpointConfigSchema,
  createCheckpointHandlers,
  createDiffHandlers,
  createHistoryHandlers,
  createRestoreHandlers,
  type DiffCallName,
  type RestoreCallName,
} from '../checkpoints';
import type { LiveConfig } from '../config';
import { runOneToolCall } from '../executor';
import { createMemoryHandlers } from '../memory';
import type { CallContext, CallHandlers, PartialCallHandlers } from '../transport';
import { createAppHandlers } from './app-handlers';
import type { CoreServices } from './core-services';

/** What the handlers answer `app:info` with. */
type AppInfo = Parameters<typeof createAppHandlers>[0];

/**
 * Sections whose edits take effect only when Vigil restarts: none. Every section applies while the
 * core runs (checkpoints, memory, gateway and sessions when config.json changes; policy and hooks at
 * each call). What cannot change without a restart (the port, the host) is a `vigil serve` flag.
 */
export const sectionsAppliedAtRestart: readonly string[] = [];

/** The configuration in force, as `config:read` and `config:changed` carry it. */
export function configState(config: LiveConfig): ConfigState {
  const checkpoints = config.section('checkpoints', checkpointConfigSchema);
  return {
    file: config.file,
    checkpoints: { ...checkpoints },
    appliedAtRestart: [...sectionsAppliedAtRestart],
    problem: config.problem(),
  };
}

/** Handlers whose service is built on the first call of any of them (at once when it is built already). */
function deferred<C extends CallName>(
  names: readonly C[],
  load: () => Promise<PartialCallHandlers<C>>,
): PartialCallHandlers<C> {
  const handlers: Partial<Record<C, (request: unknown, context: CallContext) => Promise<unknown>>> = {};
  for (const name of names) {
    handlers[name] = async (request, context) => {
      const loaded = (await load())[name] as (request: unknown, context: CallContext) => Promise<unknown>;
      return loaded(request, context);
    };
  }
  return handlers as PartialCallHandlers<C>;
}

/** Every call of one domain (`sessions:`, `approvals:`), so a call a domain adds is routed without a change here. */
function callsOf<P extends string>(...prefixes: readonly P[]): readonly Extract<CallName, `${P}:${string}`>[] {
  return callNames.filter((name) => prefixes.some((prefix) => name.startsWith(`${prefix}:`))) as Extract<
    CallName,
    `${P}:${string}`
  >[];
}

const timelineCalls = [
  'checkpoints:directories',
  'checkpoints:list',
  'checkpoints:status',
  'checkpoints:prune',
] as const;
const diffCalls = [
  'checkpoints:diff',
  'checkpoints:file-diff',
  'checkpoints:file-diffs',
] as const satisfies readonly DiffCallName[];
const restoreCalls = [
  'checkpoints:plan-restore',
  'checkpoints:restore',
  'checkpoints:plan-restore-lines',
  'checkpoints:restore-lines',
] as const satisfies readonly RestoreCallName[];

/** What the core's handlers are built from. */
export interface CoreHandlerOptions {
  readonly services: CoreServices;
  readonly config: () => Promise<LiveConfig>;
  readonly info: AppInfo;
  /** A resident core: the memory tool is always on, and a live comparison keeps its directory watched. */
  readonly isResident: boolean;
}

/** Every handler of the contract, each service built on its first call. */
export function createCoreHandlers(options: CoreHandlerOptions): CallHandlers {
  const { services } = options;
  const timeline = async (): Promise<PartialCallHandlers<(typeof timelineCalls)[number]>> => {
    const handlers = createCheckpointHandlers(await services.timelines());
    return {
      ...handlers,
      // The status says when config.json was edited into something invalid (the last valid settings stay in force).
      'checkpoints:status': async (request, context) => ({
        ...(await handlers['checkpoints:status'](request, context)),
        configProblem: (await options.config()).problem(),
      }),
    };
  };
  const diff = async (): Promise<PartialCallHandlers<(typeof diffCalls)[number]>> => {
    const [handlers, engine] = await Promise.all([services.diff().then(createDiffHandlers), services.engine()]);
    // A comparison with the live directory is kept current: the directory is watched from then on.
    const watched = async (dir: string, against: { readonly kind: string }): Promise<void> => {
      if (options.isResident && against.kind === 'live') await engine.watchLive(dir);
    };
    return {
      ...handlers,
      'checkpoints:diff': async (request, context) => {
        await watched(request.dir, request.against);
        return handlers['checkpoints:diff'](request, context);
      },
    };
  };
  return {
    ...createAppHandlers(options.info),
    ...deferred(timelineCalls, timeline),
    // Taking a checkpoint is the engine's alone: Hermes Agent's timelines (read, never written) are not loaded for it.
    ...deferred(['checkpoints:create'], async () => {
      const { 'checkpoints:create': create } = createCheckpointHandlers(await services.engine());
      return { 'checkpoints:create': create };
    }),
    ...deferred(diffCalls, diff),
    ...deferred(restoreCalls, async () => createRestoreHandlers(await services.restore())),
    ...deferred(['checkpoints:pin', 'checkpoints:rename', 'checkpoints:dropped'], async () => {
      const engine = await services.engine();
      return {
        'checkpoints:dropped': async (request) => {
          const list = await engine.dropped(request.dir);
          return { ...list, entries: [...list.entries] };
        },
        'checkpoints:pin': (request) => engine.pin(request.dir, request.checkpoint, request.isPinned),
        'checkpoints:rename': (request) => engine.rename(request.dir, request.checkpoint, request.name),
      };
    }),
    ...deferred(['checkpoints:file-log', 'checkpoints:search'], async () =>
      createHistoryHandlers(await services.history()),
    ),
    ...deferred(callsOf('memory'), async () => createMemoryHandlers(await services.memory())),
    ...deferred(callsOf('sessions', 'approvals'), async () => (await services.agents(options.isResident)).handlers),
    'config:read': async () => configState(await options.config()),
    'hooks:event': async (request, context) => {
      // Like tools:run: the user's own hook process (vigil hook), relayed with serve.json's credential or in-process.
      if (context.transport !== 'http' && context.transport !== 'cli') {
        throw new AppError(
          'denied',
          'hooks:event is for "vigil hook", which the agents run; the UI has no use for it.',
          { transport: context.transport },
        );
      }
      const answer = await (await services.hooks()).handle(request);
      return { ...answer, notices: [...answer.notices] };
    },
    'tools:run': async (request, context) => {
      // Running any tool with any workspace root is the command line's (the user's own shell); the UI has no use for it.
      if (context.transport !== 'http' && context.transport !== 'cli') {
        throw new AppError(
          'denied',
          'tools:run is for the command line ("vigil tool"); agents call tools through /mcp or /agent.',
          { transport: context.transport },
        );
      }
      const agents = await services.agents(options.isResident || request.name === 'memory');
      const outcome = await runOneToolCall(agents, request);
      return {
        ...outcome,
        checkpoints: outcome.checkpoints.map((checkpoint) => ({ ...checkpoint })),
        checkpointProblems: [...outcome.checkpointProblems],
      };
    },
  };
}
