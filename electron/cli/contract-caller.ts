import type { CallName, CallRequest, CallResponse, EventName } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import type { Result } from '../../shared/result';
import type { WalkHeadStart } from '../checkpoints';
import type { CoreBase } from '../core';
import { writeLine, type CliIo } from './cli-command';
import { cliHome, cliLogger } from './cli-context';
import { chooseCore, relayToCore, type CoreChoice } from './relay/core-target';
import type { ServeCredential } from './relay/serve-credential';

/** Events a call wants while it runs (restore progress, cuts), and where they go. */
export interface CallOptions {
  readonly events?: readonly EventName[];
  readonly onEvent?: (name: string, payload: unknown) => void;
}

/** The contract as a CLI command reaches it: relayed to the resident core, or a one-shot core in this process. */
export interface ContractCaller {
  /** Where the calls go now (a relay that found no core falls back to `local`). */
  readonly kind: 'relay' | 'local';
  /** One call; resolves to its answer, rejects with the AppError the core answered. */
  call<C extends CallName>(channel: C, payload: CallRequest<C>, options?: CallOptions): Promise<CallResponse<C>>;
}

/** How the one-shot core of an in-process command is built. */
export interface LocalCoreOptions {
  /** `vigil memory --dir D`: manage this memory directory for the command. */
  readonly memoryDirectory?: string;
  /** `vigil checkpoint DIR`: the directory the command checkpoints (the core gets ready for it while it is built). */
  readonly checkpointing?: string;
  /** With `checkpointing`: the walk of it begun before the core loads (the executable's head start), for the engine to adopt. */
  readonly checkpointHeadStart?: WalkHeadStart;
}

function unwrap<C extends CallName>(result: Result<unknown>): CallResponse<C> {
  if (result.ok) return result.value as CallResponse<C>;
  throw new AppError(result.error.code, result.error.message, result.error.details);
}

/** A one-shot core in this process, built on its first call (only then are the core's modules loaded). */
function localCaller(
  io: CliIo,
  options: LocalCoreOptions,
): { readonly caller: ContractCaller; readonly close: () => Promise<void> } {
  let core: Promise<CoreBase> | undefined;
  const open = (): Promise<CoreBase> => {
    core ??= (async () => {
      const home = cliHome(io);
      const { createCore } = await import('../core');
      return createCore({ home, logger: cliLogger(home, io), env: io.env, mode: 'one-shot', ...options });
    })();
    return core;
  };
  return {
    caller: {
      kind: 'local',
      async call<C extends CallName>(
        channel: C,
        payload: CallRequest<C>,
        callOptions: CallOptions = {},
      ): Promise<CallResponse<C>> {
        const opened = await open();
        const wanted = new Set<string>(callOptions.events ?? []);
        // This process's log already echoes each cut it makes on stderr (a warning):
        // announced once, as a relayed call's is.
        wanted.delete('checkpoints:cut');
        const stop = opened.events.onAny((name, event) => {
          if (wanted.has(name)) callOptions.onEvent?.(name, event);
        });
        try {
          return unwrap<C>(await opened.router.dispatch(channel, payload, { transport: 'cli', clientId: 'cli' }));
        } finally {
          stop();
        }
      },
    },
    close: async () => {
      if (core !== undefined) await (await core).dispose();
    },
  };
}

/**
 * Runs `task` against the contract: relayed to the resident core of this VIGIL_HOME when serve.json
 * names a live one (so the UI sees the work at once); when none runs, to a background core started
 * now (relay/core-target.ts; not with `VIGIL_NO_CORE=1` or `core.autoStart: false`); else
 * in-process on a one-shot core. `--local` (io.forceLocal) always works in-process. A serve.json
 * that cannot be used, or a core that cannot be reached or started, costs one line on stderr and
 * the command works in-process; a core that dies during a call fails it (`disconnected`), since
 * the call may have run.
 */
export async function withContract<T>(
  io: CliIo,
  task: (caller: ContractCaller) => Promise<T>,
  options: LocalCoreOptions = {},
): Promise<T> {
  const local = localCaller(io, options);
  const say = (line: string): void => writeLine(io.stderr, `vigil: ${line}`);
  const choice: CoreChoice = { home: cliHome(io), env: io.env, mayStart: io.mayStartCore === true };
  let target: ServeCredential | undefined =
    io.forceLocal === true ? undefined : await chooseCore(choice, say, io.serveLookup);
  const caller: ContractCaller = {
    get kind() {
      return target === undefined ? 'local' : 'relay';
    },
    async call<C extends CallName>(
      channel: C,
      payload: CallRequest<C>,
      callOptions: CallOptions = {},
    ): Promise<CallResponse<C>> {
      if (target !== undefined) {
        const relayed = await relayToCore(choice, target, { channel, payload, options: callOptions }, say);
        target = relayed.target;
        if (relayed.result !== undefined) return unwrap<C>(relayed.result);
      }
      return local.caller.call(channel, payload, callOptions);
    },
  };
  try {
    return await task(caller);
  } finally {
    await local.close();
  }
}

/** Runs `task` on a one-shot core in this process, whatever runs beside it (`vigil memory --dir` of a folder the resident core does not manage). */
export async function withLocalContract<T>(
  io: CliIo,
  options: LocalCoreOptions,
  task: (caller: ContractCaller) => Promise<T>,
): Promise<T> {
  const local = localCaller(io, options);
  try {
    return await task(local.caller);
  } finally {
    await local.close();
  }
}
