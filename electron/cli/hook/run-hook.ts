import type { HookAgent, HookAnswer, HookEvent, ParsedHookInput } from '../../../shared/hooks/hook-event';
import {
  continueOutput,
  hookOutput,
  ignoredOutput,
  stoppedOutput,
  type HookOutput,
} from '../../../shared/hooks/hook-output';
import { parseHookInput } from '../../../shared/hooks/parse-hook-input';
import type { Result } from '../../../shared/result';
import { vigilPaths } from '../../lib';
import { withCore, type CoreRoute } from '../relay/relay-or-local';
import type { CredentialLookup } from '../relay/serve-credential';
import { geminiUnattended } from './gemini-attendance';
import { failureAnswer, readOnFailure, unassessedAnswer } from './hook-failure';
import { readHookInput } from './read-hook-input';
import { shrinkHookEvent } from './shrink-hook-event';

/** What one `vigil hook` run reads and writes. */
export interface HookIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  /** A real `vigil hook` process: when no core runs, it may start a background one (tests that run the hook in-process never do). */
  readonly mayStartCore?: boolean;
  /** serve.json of the hook's data folder as the executable already read it, so it is not read twice. */
  readonly serveLookup?: CredentialLookup;
}

/** How `vigil hook AGENT` was asked to run. */
export interface HookOptions {
  readonly agent: HookAgent;
  /** The data folder (VIGIL_HOME, `--home`). */
  readonly home: string;
  /** `--local`: never relay. */
  readonly isLocal: boolean;
  /** The whole run ends by then, answered (below every agent's hook timeout Vigil's configuration sets). */
  readonly deadlineMs: number;
}

function writeOut(stream: NodeJS.WritableStream, output: HookOutput): Promise<void> {
  if (output === undefined) return Promise.resolve();
  return new Promise((resolve) => stream.write(`${JSON.stringify(output)}\n`, () => resolve()));
}

function say(io: HookIo, agent: HookAgent, line: string): void {
  io.stderr.write(`vigil hook ${agent}: ${line.replace(/[\r\n]+/g, ' ')}\n`);
}

/** The core's answer through the relay, or from a one-shot core in this process when none runs (or it cannot be reached). */
function ask(event: HookEvent, options: HookOptions, io: HookIo): Promise<Result<HookAnswer>> {
  const route: CoreRoute = {
    home: options.home,
    env: io.env,
    say: (line) => say(io, options.agent, line),
    isLocal: options.isLocal,
    mayStart: io.mayStartCore === true,
    // A core started now gets at most half the deadline, so the in-process answer still fits after it.
    maxWaitMs: options.deadlineMs / 2,
    clientId: 'vigil-hook',
    echo: (line) => io.stderr.write(line),
    ...(io.serveLookup === undefined ? {} : { serveLookup: io.serveLookup }),
  };
  return withCore(route, (core) => core.result('hooks:event', event));
}

/** Whether a refusal is about the event itself (a field Vigil cannot use): bad input, which never blocks the agent. */
function isBadInput(result: Extract<Result<unknown>, { ok: false }>): boolean {
  return (
    (result.error.code === 'invalid_request' || result.error.code === 'not_found') &&
    typeof result.error.details?.['field'] === 'string'
  );
}

/** Answers one parsed event: Vigil's answer, or what its failure means (ask before a change, go on otherwise). */
async function answerEvent(event: HookEvent, options: HookOptions, io: HookIo): Promise<HookOutput> {
  let result: Result<HookAnswer>;
  try {
    result = await ask(await shrinkHookEvent(event), options, io);
  } catch (error) {
    result = {
      ok: false,
      error: { code: 'unexpected', message: error instanceof Error ? error.message : String(error) },
    };
  }
  if (result.ok) return hookOutput(options.agent, event.kind, result.value);
  if (isBadInput(result)) {
    const field = String(result.error.details?.['field']);
    if (event.kind === 'pre-tool') {
      say(io, options.agent, `refused a tool call Vigil cannot assess: field "${field}": ${result.error.message}`);
      return hookOutput(options.agent, event.kind, unassessedAnswer(field, result.error.message));
    }
    say(io, options.agent, `ignored this event: field "${field}": ${result.error.message} The agent goes on.`);
    return continueOutput;
  }
  return failed(
    event,
    `Vigil could not handle this event (${result.error.code}): ${result.error.message}`,
    options,
    io,
  );
}

async function failed(event: HookEvent, problem: string, options: HookOptions, io: HookIo): Promise<HookOutput> {
  const answer = failureAnswer(event, problem, await readOnFailure(vigilPaths(options.home).config));
  say(io, options.agent, `${problem} ${answer === undefined ? 'The agent goes on.' : 'The person is asked.'}`);
  return answer === undefined ? continueOutput : hookOutput(options.agent, event.kind, answer);
}

/** How a run came to an end: the answer, a crash, or the deadline. */
type Finish =
  | { readonly kind: 'output'; readonly output: HookOutput }
  | { readonly kind: 'crashed'; readonly error: unknown }
  | { readonly kind: 'deadline' };

/** Reads stdin and answers it; `seen` holds the event once there is one (what a crash or the deadline answers for). */
async function readAndAnswer(options: HookOptions, io: HookIo, seen: { event?: HookEvent }): Promise<HookOutput> {
  const parsed = parseHookInput(options.agent, await readHookInput(io.stdin));
  if (parsed.kind === 'invalid') return unreadable(parsed, options, io);
  if (parsed.kind === 'ignored') return ignoredOutput(options.agent);
  const event = await withAttendance(parsed.event, options, io);
  seen.event = event;
  return answerEvent(event, options, io);
}

/**
 * Input Vigil cannot read: a tool call is refused (the field named), an event it cannot even name
 * stops the agent, saying why; only an event that gates nothing (a prompt, a result) goes on.
 */
function unreadable(
  parsed: Extract<ParsedHookInput, { kind: 'invalid' }>,
  options: HookOptions,
  io: HookIo,
): HookOutput {
  const problem = `${parsed.message} (field "${parsed.field}")`;
  if (parsed.eventKind === 'pre-tool') {
    say(io, options.agent, `refused a tool call Vigil cannot read: ${problem}.`);
    return hookOutput(options.agent, 'pre-tool', unassessedAnswer(parsed.field, parsed.message));
  }
  if (parsed.eventKind === undefined) {
    say(io, options.agent, `stopped the agent: Vigil cannot read this hook event: ${problem}.`);
    return stoppedOutput(
      `Vigil cannot read this hook event, so it cannot tell what it would let through: ${problem}. Check that "vigil connect ${options.agent} --hooks" configured this hook.`,
      options.agent,
    );
  }
  say(io, options.agent, `ignored an event Vigil cannot read: ${problem}. It gates no tool call; the agent goes on.`);
  return continueOutput;
}

/** A Gemini CLI tool call, told whether a person can be asked about it (its input does not say; its process does). */
async function withAttendance(event: HookEvent, options: HookOptions, io: HookIo): Promise<HookEvent> {
  if (options.agent !== 'gemini-cli' || event.kind !== 'pre-tool' || event.unattended !== undefined) return event;
  const unattended = await geminiUnattended(io.env);
  return unattended === undefined ? event : { ...event, unattended };
}

/** The output of a run that did not answer by itself: a crash or the deadline, before a change or not. */
async function outputOf(
  finish: Exclude<Finish, { kind: 'output' }>,
  event: HookEvent | undefined,
  options: HookOptions,
  io: HookIo,
): Promise<HookOutput> {
  const problem =
    finish.kind === 'deadline'
      ? `Vigil did not answer within ${Math.round(options.deadlineMs / 1000)} s, so this run stops here.`
      : `Vigil failed with an internal error: ${finish.error instanceof Error ? finish.error.message : String(finish.error)}.`;
  if (event !== undefined) return failed(event, problem, options, io);
  say(io, options.agent, `${problem} The agent goes on.`);
  return continueOutput;
}

/**
 * `vigil hook AGENT`: reads one hook event from stdin in the agent's documented format, has the
 * resident core (or a one-shot core here) act on it, and prints the answer in the agent's format.
 * Always exit code 0 (2 would block the agent's work on Vigil's account): input Vigil cannot read
 * goes on with a stderr line naming the field; a failure before a change asks; everything ends by
 * the deadline, with a stderr line saying so.
 */
export async function runHook(options: HookOptions, io: HookIo): Promise<number> {
  const seen: { event?: HookEvent } = {};
  const work = readAndAnswer(options, io, seen).then(
    (output): Finish => ({ kind: 'output', output }),
    (error: unknown): Finish => ({ kind: 'crashed', error }),
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Finish>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'deadline' }), options.deadlineMs);
  });
  const finish = await Promise.race([work, deadline]);
  clearTimeout(timer);
  await writeOut(io.stdout, finish.kind === 'output' ? finish.output : await outputOf(finish, seen.event, options, io));
  return 0;
}
