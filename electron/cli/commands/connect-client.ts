import path from 'node:path';
import {
  agentTokenVariable,
  clientProfiles,
  connectEntry,
  credentialReference,
  connectSnippet,
  type ConnectClientId,
  type ConnectInputs,
  type ConnectTransport,
} from '../../../shared/connect/connect-config';
import { withoutCredential } from '../../../shared/ui-credential';
import {
  activeHermesHome,
  applyConfigChange,
  codexHomeOf,
  configFileOf,
  describeChange,
  isDefaultVigilHome,
  isNoChange,
  planConfigChange,
  portableInvocation,
} from '../../connect';
import { vigilInvocation, vigilPaths } from '../../lib';
import { AgentCredentialStore, readLiveServeInfo } from '../../server';
import { writeLine, type CliIo } from '../cli-command';
import { defaultServePort } from './serve-command';

/** What `vigil connect CLIENT` was asked for. */
export interface ConnectRequest {
  readonly client: ConnectClientId;
  readonly transport: ConnectTransport;
  /** `--cwd`, resolved; undefined when not given. */
  readonly cwd: string | undefined;
  readonly isWrite: boolean;
}

/** The running server's base URL, or the default one with a note that none runs. */
async function serverBase(home: string): Promise<{ readonly baseUrl: string; readonly isRunning: boolean }> {
  const live = await readLiveServeInfo(vigilPaths(home).serveInfo);
  if (live?.url != null) return { baseUrl: withoutCredential(live.url), isRunning: true };
  return { baseUrl: `http://127.0.0.1:${defaultServePort}/`, isRunning: false };
}

/** Notes on the credential: where it is, and for a file teams commit, the variable the user sets. */
function credentialNotes(client: ConnectClientId, isNew: boolean): string[] {
  const made = `The agent credential "${client}" (${isNew ? 'made now' : 'the same as before'}) reaches /mcp and /agent only and stays valid across restarts; revoke it with: vigil connect --revoke ${client}.`;
  const reference = credentialReference(client);
  if (reference === undefined) return [`${made} Keep a file that holds it out of version control.`];
  return [
    made,
    `The file holds no secret: it refers to ${reference}, which ${clientProfiles[client].name} reads from its environment. Set it where you start ${clientProfiles[client].name}:`,
    `  export ${agentTokenVariable}="$(vigil connect --credential ${client})"`,
  ];
}

/** The inputs of the configuration, the credential made for HTTP included. */
async function inputsFor(
  request: ConnectRequest,
  home: string,
  io: CliIo,
): Promise<{ readonly inputs: ConnectInputs; readonly notes: readonly string[] }> {
  const hermesHome = request.client === 'hermes' ? await activeHermesHome(io.env) : undefined;
  const { vigil, isPortable } = await portableInvocation(await vigilInvocation(io.env), request.cwd ?? io.cwd, io.env);
  const base = {
    client: request.client,
    transport: request.transport,
    vigil,
    vigilHome: isDefaultVigilHome(home, io.env) ? undefined : home,
    hermesHome,
  };
  if (request.transport === 'stdio') {
    const isMachineBound = !isPortable || base.vigilHome !== undefined;
    const notes =
      isMachineBound && request.client !== 'hermes' && request.client !== 'codex'
        ? [
            `This entry names paths of this machine (${isPortable ? 'the data folder' : 'Node and Vigil'}): keep it out of version control, ` +
              'or install Vigil in the project (npx vigil) or on PATH and use the default data folder (~/.vigil) for an entry that names none.',
          ]
        : [];
    return { inputs: { ...base, cwd: request.cwd }, notes };
  }
  const credential = await new AgentCredentialStore(vigilPaths(home).agentCredentials).issue(request.client);
  const server = await serverBase(home);
  const notes = [
    ...credentialNotes(request.client, credential.isNew),
    ...(server.isRunning
      ? []
      : [
          `No Vigil runs on ${home} now: the URL assumes vigil serve's default port ${defaultServePort} (start it with: vigil serve).`,
        ]),
  ];
  return {
    inputs: { ...base, cwd: request.cwd ?? io.cwd, http: { baseUrl: server.baseUrl, credential: credential.secret } },
    notes,
  };
}

/** The command line that repeats this request. */
function commandLine(request: ConnectRequest): string {
  return [
    'vigil connect',
    request.client,
    request.transport === 'http' ? '--http' : '',
    request.cwd === undefined ? '' : `--cwd ${JSON.stringify(request.cwd)}`,
    '--write',
  ]
    .filter((part) => part !== '')
    .join(' ');
}

/**
 * `vigil connect CLIENT`: prints the exact configuration for the client, what it keeps of its own
 * tools and how to reload it; with `--write`, shows the change to the client's file as a diff and
 * writes it (atomically, only if the file is still as read).
 */
export async function connectClient(request: ConnectRequest, home: string, io: CliIo): Promise<void> {
  const profile = clientProfiles[request.client];
  const { inputs, notes } = await inputsFor(request, home, io);
  const file = configFileOf(request.client, {
    project: request.cwd ?? io.cwd,
    hermesHome: inputs.hermesHome ?? '',
    codexHome: codexHomeOf(io.env),
  });
  const how =
    request.transport === 'stdio'
      ? 'over stdio: the client starts "vigil mcp" itself, and no credential is in its configuration'
      : credentialReference(request.client) === undefined
        ? 'over HTTP, with its own agent credential'
        : `over HTTP, with its own agent credential, read from $${agentTokenVariable}`;
  writeLine(io.stdout, `Vigil for ${profile.name}, ${how}.`);
  writeLine(io.stdout, `Configuration for ${profile.fileHint} (${file}):`);
  writeLine(io.stdout);
  const snippet = connectSnippet(inputs);
  writeLine(io.stdout, snippet);
  writeLine(io.stdout);
  writeLine(io.stdout, `What ${profile.name} keeps of its own tools: ${profile.ownTools}`);
  for (const note of notes) writeLine(io.stdout, note);
  if (!request.isWrite) {
    writeLine(io.stdout, `To add it to ${path.basename(file)}: ${commandLine(request)}`);
    writeLine(io.stdout, profile.reload);
    return;
  }
  const change = await planConfigChange(file, {
    format: profile.format,
    path: profile.entryPath,
    entry: connectEntry(inputs),
    snippet,
    holdsCredential: request.transport === 'http' && credentialReference(request.client) === undefined,
  });
  writeLine(io.stdout);
  if (isNoChange(change)) {
    writeLine(io.stdout, `${file} already holds this entry; nothing was written.`);
    return;
  }
  writeLine(io.stdout, `The change to ${file}:`);
  writeLine(io.stdout, describeChange(change));
  await applyConfigChange(change, commandLine(request));
  writeLine(io.stdout, `Wrote ${file}${change.mode === undefined ? '' : ' (mode 0600: it holds a credential)'}.`);
  writeLine(io.stdout, profile.reload);
}
