import type { CallName, CallRequest, CallResponse, EventName, EventPayload } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { Result } from '../../../shared/result';
import type { WalkHeadStart } from '../../checkpoints';
import type { CoreBase } from '../../core';
import { chooseCore, relayToCore, type CoreChoice, type SayLine } from './core-target';
import type { CredentialLookup, ServeCredential } from './serve-credential';

export type { SayLine } from './core-target';

/**
 * The one rule for every `vigil` process that reaches the contract (the commands, `vigil hook`,
 * `vigil mcp`): relay to the core that owns the data folder (the app, `vigil serve`, or a
 * background core, started now when none runs and one may start), else work in-process on a
 * one-shot core, with one line on stderr saying why. Calls are typed by their contract channel.
 * Only the relay's modules load until a call needs the in-process core.
 */

/** One contract event as a call receives it, typed by its name. */
export type ContractEvent<E extends EventName> = E extends EventName
  ? { readonly name: E; readonly payload: EventPayload<E> }
  : never;

/** Events a call wants while it runs (restore progress, cuts, approvals), and where they go. */
export interface CallOptions<E extends EventName = never> {
  readonly events?: readonly E[];
  readonly onEvent?: (event: ContractEvent<E>) => void;
}

/** The contract as a CLI command reaches it: relayed to the resident core, or a one-shot core in this process. */
export interface ContractCaller {
  /** Where the calls go now (a relay that found no core falls back to `local`). */
  readonly kind: 'relay' | 'local';
  /** One call; resolves to its answer, rejects with the AppError the core answered. */
  call<C extends CallName, E extends EventName = never>(
    channel: C,
    payload: CallRequest<C>,
    options?: CallOptions<E>,
  ): Promise<CallResponse<C>>;
}

/** One call's answer as data (a refusal included), typed by its channel. */
type AnswerCall = <C extends CallName, E extends EventName = never>(
  channel: C,
  payload: CallRequest<C>,
  options?: CallOptions<E>,
) => Promise<Result<CallResponse<C>>>;

/** A caller that also gives each answer as data, for a caller that sorts refusals itself (`vigil hook`). */
export interface CoreCaller extends ContractCaller {
  /** One call; resolves to its result, the core's refusal included (a core that dies during it still rejects). */
  readonly result: AnswerCall;
}

/** How a process looks for a core: its data folder, what it may start, where it says what it chose. */
export interface CoreSearch {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  /** One line on stderr about the choice (a core that cannot be used, started or replaced). */
  readonly say: SayLine;
  /** `--local`: work in-process, whatever runs. */
  readonly isLocal: boolean;
  /** A real `vigil` process that may start a background core when none runs (not `vigil mcp`, not tests in-process). */
  readonly mayStart: boolean;
  /** At most how long to wait for a core started now (a hook: half its deadline). */
  readonly maxWaitMs?: number;
  /** serve.json as the executable already read it (`vigil checkpoint`), so it is not read twice. */
  readonly serveLookup?: CredentialLookup;
}

/** A search, and how the one-shot core is built when the calls stay in this process. */
export interface CoreRoute extends CoreSearch {
  /** Who the in-process calls come from, as the core records them (`cli`, `vigil-hook`). */
  readonly clientId: string;
  /** Where the one-shot core's log echoes its warnings and errors (stderr). */
  readonly echo: (line: string) => void;
}

/** How the one-shot core of an in-process command is built. */
export interface LocalCoreOptions {
  /** `vigil memory --dir D`: manage this memory directory for the command. */
  readonly memoryDirectory?: string;
  /** `vigil checkpoint DIR`: the directory the command checkpoints (the core gets ready for it while it is built). */
  readonly checkpointing?: string;
  /** With `checkpointing`: the walk of it begun before the core loads (the executable's head start), for the engine to adopt. */
  readonly checkpointHeadStart?: WalkHeadStart;
  /** `vigil tool terminal`: the call runs a command (the sandbox engine starts while the core is built). */
  readonly runsTerminalCommand?: boolean;
  /** Started as the one-shot core begins to load, for what the call will need beside it (a terminal call: the sandbox engine's modules). */
  readonly alongsideCore?: () => void;
}

/**
 * A call's result as its channel's: the core that answered (this process's router, or the relayed
 * core's) checked the response against the channel's schema first. The one place a result is narrowed.
 */
function answerOf<C extends CallName>(_channel: C, result: Result<unknown>): Result<CallResponse<C>> {
  return result as Result<CallResponse<C>>;
}

/** The listener a transport calls with each event: only those the call asked for arrive, each checked by its schema. */
function eventListener<E extends EventName>(
  options: CallOptions<E>,
): ((name: string, payload: unknown) => void) | undefined {
  const { onEvent } = options;
  return onEvent === undefined ? undefined : (name, payload) => onEvent({ name, payload } as ContractEvent<E>);
}

/** A caller from its answer: `call` resolves to the value, or rejects with the core's AppError. */
function callerOf(kind: () => 'relay' | 'local', result: AnswerCall): CoreCaller {
  return {
    get kind() {
      return kind();
    },
    result,
    async call(channel, payload, options) {
      const answer = await result(channel, payload, options);
      if (answer.ok) return answer.value;
      throw new AppError(answer.error.code, answer.error.message, answer.error.details);
    },
  };
}

/** Builds the one-shot core (its modules load only now, on the first call that needs it). */
async function openCore(route: CoreRoute, options: LocalCoreOptions): Promise<CoreBase> {
  const { alongsideCore, ...coreOptions } = options;
  alongsideCore?.();
  const { openLocalCore } = await import('./local-core');
  return openLocalCore(route, coreOptions);
}

/** A one-shot core in this process, built on its first call. */
function localCaller(
  route: CoreRoute,
  options: LocalCoreOptions,
): { readonly caller: CoreCaller; readonly close: () => Promise<void> } {
  let core: Promise<CoreBase> | undefined;
  const result: AnswerCall = async (channel, payload, callOptions = {}) => {
    core ??= openCore(route, options);
    const opened = await core;
    const wanted = new Set<string>(callOptions.events ?? []);
    // This process's log already echoes each cut it makes on stderr (a warning): announced once, as a relayed call's is.
    wanted.delete('checkpoints:cut');
    const listener = eventListener(callOptions);
    const stop = opened.events.onAny((name, event) => {
      if (wanted.has(name)) listener?.(name, event);
    });
    try {
      const context = { transport: 'cli', clientId: route.clientId } as const;
      return answerOf(channel, await opened.router.dispatch(channel, payload, context));
    } finally {
      stop();
    }
  };
  return {
    caller: callerOf(() => 'local', result),
    close: async () => {
      if (core !== undefined) await (await core).dispose();
    },
  };
}

/** The search as core-target.ts takes it. */
function choiceOf(search: CoreSearch): CoreChoice {
  return {
    home: search.home,
    env: search.env,
    mayStart: search.mayStart,
    ...(search.maxWaitMs === undefined ? {} : { maxWaitMs: search.maxWaitMs }),
  };
}

/**
 * The core to relay to: serve.json's live one; when none runs, a background core started now (when
 * the search may start one, and neither `VIGIL_NO_CORE=1` nor `core.autoStart: false` refuses it);
 * else none, said in one line when serve.json could not be used. `--local`: none, silently.
 */
export async function findCore(search: CoreSearch): Promise<ServeCredential | undefined> {
  if (search.isLocal) return undefined;
  return chooseCore(choiceOf(search), search.say, search.serveLookup);
}

/**
 * Runs `task` against the contract: relayed to the core `findCore` finds, else on a one-shot core
 * in this process (built on the first call). A core that cannot be reached, or is replaced and its
 * successor cannot start, costs one line and the call (and every later one) runs in-process; a core
 * that dies during a call fails it (`disconnected`), since the call may have run.
 */
export async function withCore<T>(
  route: CoreRoute,
  task: (caller: CoreCaller) => Promise<T>,
  options: LocalCoreOptions = {},
): Promise<T> {
  const local = localCaller(route, options);
  const choice = choiceOf(route);
  let target = await findCore(route);
  const result: AnswerCall = async (channel, payload, callOptions = {}) => {
    if (target !== undefined) {
      const relayOptions = { events: callOptions.events ?? [], onEvent: eventListener(callOptions) };
      const relayed = await relayToCore(choice, target, { channel, payload, options: relayOptions }, route.say);
      target = relayed.target;
      if (relayed.result !== undefined) return answerOf(channel, relayed.result);
    }
    return local.caller.result(channel, payload, callOptions);
  };
  try {
    return await task(callerOf(() => (target === undefined ? 'local' : 'relay'), result));
  } finally {
    await local.close();
  }
}

/** Runs `task` on a one-shot core in this process, whatever runs beside it (`vigil memory --dir` of a folder the resident core does not manage). */
export async function withLocalCore<T>(
  route: CoreRoute,
  task: (caller: CoreCaller) => Promise<T>,
  options: LocalCoreOptions = {},
): Promise<T> {
  const local = localCaller(route, options);
  try {
    return await task(local.caller);
  } finally {
    await local.close();
  }
}
