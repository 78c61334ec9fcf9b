import { stat } from 'node:fs/promises';
import path from 'node:path';
import { connectClientIds, type ConnectClientId } from '../../../shared/connect/connect-config';
import { vigilPaths } from '../../lib';
import { AgentCredentialStore } from '../../server';
import {
  exitCodes,
  flagOption,
  stringOption,
  UsageError,
  writeLine,
  type CliArgs,
  type CliCommand,
  type CliIo,
} from '../cli-command';
import { cliHome } from '../cli-context';
import { hookAgents, type HookAgent } from '../../../shared/hooks/hook-event';
import { connectClient } from './connect-client';
import { connectHooks } from './connect-hooks';

function isClient(name: string): name is ConnectClientId {
  return (connectClientIds as readonly string[]).includes(name);
}

async function directoryOption(io: CliIo, given: string | undefined): Promise<string | undefined> {
  if (given === undefined) return undefined;
  const resolved = path.resolve(io.cwd, given);
  const info = await stat(resolved).catch(() => undefined);
  if (info?.isDirectory() !== true) throw new UsageError(`--cwd ${resolved} is not a directory`);
  return resolved;
}

function isHookAgent(name: string): name is HookAgent {
  return (hookAgents as readonly string[]).includes(name);
}

/** `--hooks`: the agent's hooks configuration (printed, --write, --remove). */
async function connectAgentHooks(args: CliArgs, io: CliIo): Promise<number> {
  const agent = args.positionals[0] ?? '';
  if (!isHookAgent(agent)) throw new UsageError(`--hooks is for ${hookAgents.join(' and ')}, not "${agent}"`);
  if (flagOption(args, 'http') || flagOption(args, 'stdio'))
    throw new UsageError('--hooks takes no transport: the agent runs "vigil hook" itself');
  if (flagOption(args, 'write') && flagOption(args, 'remove'))
    throw new UsageError('give --write or --remove, not both');
  const project = (await directoryOption(io, stringOption(args, 'cwd'))) ?? io.cwd;
  const action = flagOption(args, 'write') ? 'write' : flagOption(args, 'remove') ? 'remove' : 'print';
  await connectHooks({ agent, isProject: flagOption(args, 'project'), project, action }, cliHome(io), io);
  return exitCodes.ok;
}

/** Which of the command's actions was asked for; more than one is a usage error. */
function chosenAction(args: CliArgs): 'client' | 'revoke' | 'credential' | 'list' {
  const actions = [
    ...(args.positionals.length > 0 ? (['client'] as const) : []),
    ...(stringOption(args, 'revoke') === undefined ? [] : (['revoke'] as const)),
    ...(stringOption(args, 'credential') === undefined ? [] : (['credential'] as const)),
    ...(flagOption(args, 'list') ? (['list'] as const) : []),
  ];
  const [action, other] = actions;
  if (action === undefined)
    throw new UsageError(
      `name a client (${connectClientIds.join(', ')}), or give --revoke NAME, --credential NAME or --list`,
    );
  if (other !== undefined) throw new UsageError('give one of: a client, --revoke NAME, --credential NAME, --list');
  return action;
}

/** --revoke, --credential and --list: the agent credentials themselves. */
async function manageCredentials(action: 'revoke' | 'credential' | 'list', args: CliArgs, io: CliIo): Promise<number> {
  const store = new AgentCredentialStore(vigilPaths(cliHome(io)).agentCredentials);
  if (action === 'list') {
    const credentials = await store.list();
    if (credentials.length === 0) writeLine(io.stdout, `No agent credentials in ${store.file}.`);
    for (const credential of credentials) writeLine(io.stdout, `${credential.name}  (made ${credential.createdAt})`);
    return exitCodes.ok;
  }
  const name = stringOption(args, action) ?? '';
  if (action === 'credential') {
    // Only the credential on stdout, so that scripts can take it: VIGIL_AGENT_CREDENTIAL=$(vigil connect --credential my-agent)
    writeLine(io.stdout, (await store.issue(name)).secret);
    return exitCodes.ok;
  }
  if (!(await store.revoke(name))) {
    writeLine(
      io.stderr,
      `vigil connect: there is no agent credential "${name}" in ${store.file} (see vigil connect --list).`,
    );
    return exitCodes.failed;
  }
  writeLine(
    io.stdout,
    `Revoked the agent credential "${name}": Vigil refuses it from its next request. Run "vigil connect ${name}" for a new one.`,
  );
  return exitCodes.ok;
}

/**
 * `vigil connect`: the exact MCP configuration for a client (stdio by default, or HTTP with a
 * stable per-client credential), merged into the client's file with --write; the hooks of Claude
 * Code, Gemini CLI and Codex CLI (--hooks, with --write or --remove); and the agent credentials themselves
 * (--credential, --revoke, --list).
 */
export const connectCommand: CliCommand = {
  name: 'connect',
  summary:
    'Print (or --write) the exact configuration that connects an agent client to Vigil; manage agent credentials.',
  usage: `vigil connect ${connectClientIds.join('|')} [--http|--stdio] [--cwd D] [--write] | ${hookAgents.join('|')} --hooks [--project] [--cwd D] [--write|--remove] | --revoke NAME | --credential NAME | --list`,
  help: [
    'Options:',
    '  --stdio            the client starts "vigil mcp" (the default; no credential in its configuration)',
    '  --http             the client calls /mcp of the running Vigil with its own agent credential (made once, kept across restarts)',
    '  --cwd D            the project: where the project-level file is (.mcp.json, .gemini/settings.json, .cursor/mcp.json, .vscode/mcp.json),',
    '                     "vigil mcp --cwd D" for stdio, and ?cwd= of the URL for HTTP (default: the current directory)',
    "  --write            show the change to the client's file as a diff, then write it (only if the file is unchanged meanwhile)",
    "  --hooks            claude-code, gemini-cli, codex: the hooks that supervise the agent's own tools (vigil hook), for its settings",
    '                     (~/.claude/settings.json, ~/.gemini/settings.json, $CODEX_HOME/hooks.json); with --write merged beside your own hooks (an earlier',
    '                     Vigil entry replaced, never duplicated), with --remove taken out again (byte for byte while the file is',
    '                     still as Vigil wrote it)',
    "  --project          with --hooks: the project's settings instead (.claude/settings.local.json, .gemini/settings.json, .codex/hooks.json under --cwd)",
    '  --revoke NAME      revoke an agent credential at once (a running Vigil refuses it from its next request)',
    '  --credential NAME  print the agent credential NAME (made on first use), for your own agent on /mcp or /agent',
    '  --list             list the agent credentials (names and when they were made, never the secrets)',
    '',
    'Files: hermes → config.yaml in the Hermes home (HERMES_HOME, else the active profile, else ~/.hermes);',
    'claude-code → .mcp.json, gemini-cli → .gemini/settings.json, cursor → .cursor/mcp.json, vscode → .vscode/mcp.json, in the project;',
    'codex → config.toml in the Codex home (CODEX_HOME, else ~/.codex).',
    'A file that cannot be parsed is never rewritten: the parse error is shown and the file stays byte-identical.',
  ].join('\n'),
  options: {
    http: { type: 'boolean' },
    stdio: { type: 'boolean' },
    cwd: { type: 'string' },
    write: { type: 'boolean' },
    revoke: { type: 'string' },
    credential: { type: 'string' },
    list: { type: 'boolean' },
    hooks: { type: 'boolean' },
    remove: { type: 'boolean' },
    project: { type: 'boolean' },
  },
  positionals: { min: 0, max: 1, names: 'CLIENT' },
  async run(args, io) {
    const action = chosenAction(args);
    if (action !== 'client') return manageCredentials(action, args, io);
    if (flagOption(args, 'hooks')) return connectAgentHooks(args, io);
    if (flagOption(args, 'remove') || flagOption(args, 'project'))
      throw new UsageError('--remove and --project go with --hooks');
    const client = args.positionals[0] ?? '';
    if (!isClient(client)) throw new UsageError(`unknown client "${client}" (expected ${connectClientIds.join(', ')})`);
    if (flagOption(args, 'http') && flagOption(args, 'stdio')) throw new UsageError('give --http or --stdio, not both');
    const cwd = await directoryOption(io, stringOption(args, 'cwd'));
    await connectClient(
      { client, transport: flagOption(args, 'http') ? 'http' : 'stdio', cwd, isWrite: flagOption(args, 'write') },
      cliHome(io),
      io,
    );
    return exitCodes.ok;
  },
};
