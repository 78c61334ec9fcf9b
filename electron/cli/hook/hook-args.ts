import { hookAgents, type HookAgent } from '../../../shared/hooks/hook-event';
import { resolveVigilHome } from '../../lib';
import type { HookOptions } from './run-hook';

/** The default deadline: under the 30 s timeout `vigil connect … --hooks` configures. */
export const defaultHookDeadlineMs = 25_000;

/** The synopsis of `vigil hook`. */
export const hookUsage = `vigil hook ${hookAgents.join('|')} [--home DIR] [--deadline-ms N] [--local]`;

/** What `vigil hook --help` prints after the synopsis. */
export const hookHelp = [
  "Reads one hook event as JSON on stdin, in the agent's own format, and answers on stdout in that format.",
  'The agent runs it: "vigil connect claude-code --hooks" (or gemini-cli, codex) prints the configuration that does.',
  '',
  'Options:',
  '  --home DIR       the data folder (instead of VIGIL_HOME)',
  `  --deadline-ms N  answer within N ms whatever happens (default ${defaultHookDeadlineMs}; keep it below the agent's hook timeout)`,
  '  --local          work in-process even while the app or "vigil serve" runs',
  '',
  "Exit code: always 0 when run by an agent (2 would block its work on Vigil's account); 1 for wrong usage.",
  'A tool call Vigil cannot read or assess is denied, naming the field; an event it cannot name stops the agent;',
  'a failure before a change asks the person (denies, where the agent asks nobody).',
].join('\n');

/** A `vigil hook` command line, read: options to run with, help, or what is wrong with it. */
export type HookArgs =
  | { readonly kind: 'run'; readonly options: HookOptions }
  | { readonly kind: 'help' }
  | { readonly kind: 'usage'; readonly problem: string };

function isAgent(name: string): name is HookAgent {
  return (hookAgents as readonly string[]).includes(name);
}

/** Reads `vigil hook`'s arguments by hand (this path loads no argument parser beyond this). */
export function parseHookArgs(argv: readonly string[], env: NodeJS.ProcessEnv): HookArgs {
  let agent: string | undefined;
  let home: string | undefined;
  let deadline = defaultHookDeadlineMs;
  let isLocal = false;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    const value = (): string | undefined => argv[++index];
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    else if (arg === '--local') isLocal = true;
    else if (arg === '--home') home = value();
    else if (arg === '--deadline-ms') deadline = Number(value());
    else if (arg.startsWith('-')) return { kind: 'usage', problem: `unknown option "${arg}"` };
    else if (agent === undefined) agent = arg;
    else return { kind: 'usage', problem: `unexpected argument "${arg}"` };
  }
  if (agent === undefined) return { kind: 'usage', problem: `name the agent (${hookAgents.join(' or ')})` };
  if (!isAgent(agent))
    return { kind: 'usage', problem: `unknown agent "${agent}" (expected ${hookAgents.join(' or ')})` };
  if (home === '') return { kind: 'usage', problem: '--home needs a folder' };
  if (!Number.isInteger(deadline) || deadline < 100 || deadline > 600_000)
    return { kind: 'usage', problem: '--deadline-ms needs a whole number of milliseconds from 100 to 600000' };
  const resolvedHome = resolveVigilHome(home === undefined ? env : { ...env, VIGIL_HOME: home });
  return { kind: 'run', options: { agent, home: resolvedHome, isLocal, deadlineMs: deadline } };
}
