import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { quoteShellWords } from '../shell-words';
import { hookSettingsHints, vigilHooks } from '../../../shared/connect/hooks-config';
import type { HookAgent } from '../../../shared/hooks/hook-event';
import {
  applyHooksChange,
  codexHomeOf,
  describeHooksChange,
  forgetHooksOriginal,
  planHooksRemove,
  planHooksWrite,
  saveHooksOriginal,
  vigilSandboxSettings,
} from '../../connect';
import { vigilInvocation } from '../../lib';
import { writeLine, type CliIo } from '../cli-command';

/** What `vigil connect AGENT --hooks` was asked for. */
export interface HooksRequest {
  readonly agent: HookAgent;
  /** `--project`: the project's settings file instead of the user's. */
  readonly isProject: boolean;
  /** The project (`--cwd`, else the current directory). */
  readonly project: string;
  readonly action: 'print' | 'write' | 'remove';
}

/**
 * The settings file hooks go in: the user's, or the project's (Claude Code's local one, which is
 * not committed). Codex CLI keeps its hooks in hooks.json in its home (`$CODEX_HOME`, else
 * `~/.codex`), or in the project's `.codex/hooks.json`.
 */
export function hooksSettingsFile(
  agent: HookAgent,
  isProject: boolean,
  project: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (agent === 'codex') return path.join(isProject ? path.join(project, '.codex') : codexHomeOf(env), 'hooks.json');
  const folder = agent === 'claude-code' ? '.claude' : '.gemini';
  if (!isProject) return path.join(os.homedir(), folder, 'settings.json');
  return path.join(project, folder, agent === 'claude-code' ? 'settings.local.json' : 'settings.json');
}

/**
 * On Unix the hook command empties `NODE_EXTRA_CA_CERTS` for Node (a plain `sh` assignment; Node then
 * reads no bundle). Agents pass the user's environment on to hooks, and Node parses that bundle
 * before its first line runs (~38 ms for a 215 KB system bundle on the bench machine,
 * docs/benchmarks.md); a hook runs on every tool call and makes no TLS connection.
 */
const withoutCaBundle = process.platform === 'win32' ? '' : 'NODE_EXTRA_CA_CERTS= ';

/** The command the agent runs: this Vigil's CLI by absolute path, its data folder named (agents may not pass VIGIL_HOME on). */
async function hookCommandLine(agent: HookAgent, vigilHome: string, env: NodeJS.ProcessEnv): Promise<string> {
  const vigil = await vigilInvocation(env);
  return withoutCaBundle + quoteShellWords([vigil.command, ...vigil.args, 'hook', agent, '--home', vigilHome]);
}

function again(request: HooksRequest, flag: '--write' | '--remove'): string {
  return [
    'vigil connect',
    request.agent,
    '--hooks',
    request.isProject ? `--project --cwd ${JSON.stringify(request.project)}` : '',
    flag,
  ]
    .filter((part) => part !== '')
    .join(' ');
}

async function write(
  request: HooksRequest,
  file: string,
  hooks: ReturnType<typeof vigilHooks>,
  vigilHome: string,
  io: CliIo,
): Promise<void> {
  const { change, original } = await planHooksWrite(file, request.agent, hooks, vigilHome);
  if (change.before === change.after) {
    writeLine(io.stdout, `${file} already holds these hooks; nothing was written.`);
    return;
  }
  writeLine(
    io.stdout,
    `The change to ${file} (your own hooks and settings are kept; an earlier Vigil entry is replaced):`,
  );
  writeLine(io.stdout, describeHooksChange(change));
  await mkdir(path.dirname(file), { recursive: true });
  await applyHooksChange(change, again(request, '--write'));
  await saveHooksOriginal(vigilHome, original);
  writeLine(io.stdout, `Wrote ${file}. To take Vigil's hooks out again: ${again(request, '--remove')}`);
}

async function remove(request: HooksRequest, file: string, vigilHome: string, io: CliIo): Promise<void> {
  const planned = await planHooksRemove(file, request.agent, vigilHome);
  if (planned === undefined) {
    writeLine(
      io.stdout,
      `${file} holds no hooks of Vigil's for ${hookSettingsHints[request.agent].name}; nothing was changed.`,
    );
    return;
  }
  writeLine(io.stdout, `The change to ${file}:`);
  writeLine(io.stdout, describeHooksChange(planned.change));
  await applyHooksChange(planned.change, again(request, '--remove'));
  await forgetHooksOriginal(vigilHome, file);
  const how = planned.isExact
    ? planned.change.after === undefined
      ? 'it did not exist before Vigil wrote it, so it is removed'
      : 'it is back byte for byte as it was before Vigil wrote it'
    : 'it changed since Vigil wrote it, so only Vigil\u2019s hooks were taken out and everything else kept';
  writeLine(io.stdout, `Took Vigil's hooks out of ${file}: ${how}.`);
}

/**
 * `vigil connect claude-code|gemini-cli|codex --hooks`: prints the exact hooks configuration for the
 * agent's settings.json (Codex CLI's hooks.json); with `--write`, shows the change and merges it (the user's hooks kept,
 * Vigil's replaced, never duplicated); with `--remove`, takes it out again — byte for byte as the
 * file was, while it is still what Vigil wrote.
 */
export async function connectHooks(request: HooksRequest, vigilHome: string, io: CliIo): Promise<void> {
  const hint = hookSettingsHints[request.agent];
  const file = hooksSettingsFile(request.agent, request.isProject, request.project, io.env);
  if (request.action === 'remove') {
    await remove(request, file, vigilHome, io);
    return;
  }
  const hooks = vigilHooks(request.agent, await hookCommandLine(request.agent, vigilHome, io.env));
  writeLine(
    io.stdout,
    `Vigil's hooks for ${hint.name}: every session, prompt and change of its own tools supervised — a checkpoint before the`,
  );
  writeLine(
    io.stdout,
    "turn's first change of each file tool and before every shell command that may change files, Vigil's policy on shell commands,",
  );
  writeLine(io.stdout, 'and the session live in Vigil.');
  writeLine(io.stdout, `Configuration for ${request.isProject ? hint.project : hint.user} (${file}):`);
  writeLine(io.stdout);
  const sandbox = vigilSandboxSettings(request.agent, vigilHome);
  writeLine(io.stdout, JSON.stringify(sandbox === undefined ? { hooks } : { hooks, sandbox }, null, 2));
  writeLine(io.stdout);
  if (sandbox !== undefined)
    writeLine(
      io.stdout,
      `"sandbox" turns on ${hint.name}'s own sandbox (version 2.0 or later) for its shell commands, with Vigil's data folder unreadable in it: an agent supervised through hooks runs its commands outside Vigil's sandbox.`,
    );
  if (request.action === 'print') {
    writeLine(io.stdout, `To merge it into ${path.basename(file)} beside your own hooks: ${again(request, '--write')}`);
    writeLine(io.stdout, hint.reload);
    return;
  }
  await write(request, file, hooks, vigilHome, io);
  writeLine(io.stdout, hint.reload);
}
