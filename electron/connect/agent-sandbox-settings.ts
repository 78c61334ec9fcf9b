import type { HookAgent } from '../../shared/hooks/hook-event';

/** A settings document as JSON.parse gives it. */
type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Claude Code's own sandbox, as Vigil turns it on for an agent it supervises through hooks: its
 * Bash commands run in the sandbox (no way out through `dangerouslyDisableSandbox`) and cannot read
 * Vigil's data folder (its credentials, serve.json, other sessions' logs). Gemini CLI has no such
 * setting: nothing is added for it.
 */
export function vigilSandboxSettings(agent: HookAgent, vigilHome: string): JsonRecord | undefined {
  if (agent !== 'claude-code') return undefined;
  return { enabled: true, allowUnsandboxedCommands: false, filesystem: { denyRead: [vigilHome] } };
}

/** Claude Code's permission rules that keep its own file tools (Read, Edit, Write) out of Vigil's folder: `//` marks an absolute path. */
export function vigilFolderDenyRules(vigilHome: string): string[] {
  const pattern = `/${vigilHome.split('\\').join('/')}/**`;
  return [`Read(${pattern})`, `Edit(${pattern})`];
}

/** `permissions.deny` with Vigil's rules added (none twice). */
function withDenyRules(document: JsonRecord, vigilHome: string): JsonRecord {
  const permissions = isRecord(document['permissions']) ? document['permissions'] : {};
  const deny = Array.isArray(permissions['deny']) ? (permissions['deny'] as unknown[]) : [];
  const added = vigilFolderDenyRules(vigilHome).filter((rule) => !deny.includes(rule));
  return added.length === 0 ? document : { ...document, permissions: { ...permissions, deny: [...deny, ...added] } };
}

/**
 * The document with Claude Code's sandbox on and Vigil's folder unreadable in it (by its shell
 * commands through the sandbox, by its file tools through permission rules); the user's other
 * settings kept.
 */
export function withVigilSandbox(document: JsonRecord, agent: HookAgent, vigilHome: string): JsonRecord {
  if (vigilSandboxSettings(agent, vigilHome) === undefined) return document;
  document = withDenyRules(document, vigilHome);
  const sandbox = isRecord(document['sandbox']) ? document['sandbox'] : {};
  const filesystem = isRecord(sandbox['filesystem']) ? sandbox['filesystem'] : {};
  const denyRead = Array.isArray(filesystem['denyRead']) ? (filesystem['denyRead'] as unknown[]) : [];
  return {
    ...document,
    sandbox: {
      ...sandbox,
      enabled: true,
      allowUnsandboxedCommands: false,
      filesystem: { ...filesystem, denyRead: denyRead.includes(vigilHome) ? denyRead : [...denyRead, vigilHome] },
    },
  };
}

/**
 * The document without Vigil's entry in the sandbox's `denyRead` (on `--remove` of a file changed
 * since): the sandbox itself stays on, as the user may have wanted it before Vigil.
 */
export function withoutVigilSandbox(
  document: JsonRecord,
  vigilHome: string,
): { readonly document: JsonRecord; readonly removed: number } {
  const rules = vigilFolderDenyRules(vigilHome);
  const permissions = document['permissions'];
  if (isRecord(permissions) && Array.isArray(permissions['deny'])) {
    const deny = permissions['deny'] as unknown[];
    const kept = deny.filter((rule) => typeof rule !== 'string' || !rules.includes(rule));
    if (kept.length !== deny.length) {
      const { deny: _deny, ...others } = permissions;
      const rest = kept.length > 0 ? { ...others, deny: kept } : others;
      const { permissions: _permissions, ...withoutPermissions } = document;
      const next = Object.keys(rest).length > 0 ? { ...document, permissions: rest } : withoutPermissions;
      const inner = withoutVigilSandbox(next, vigilHome);
      return { document: inner.document, removed: inner.removed + 1 };
    }
  }
  const sandbox = document['sandbox'];
  if (!isRecord(sandbox) || !isRecord(sandbox['filesystem'])) return { document, removed: 0 };
  const filesystem = sandbox['filesystem'];
  const denyRead = filesystem['denyRead'];
  if (!Array.isArray(denyRead) || !denyRead.includes(vigilHome)) return { document, removed: 0 };
  const kept = denyRead.filter((entry) => entry !== vigilHome);
  const { denyRead: _denyRead, ...otherFilesystem } = filesystem;
  const nextFilesystem = kept.length > 0 ? { ...otherFilesystem, denyRead: kept } : otherFilesystem;
  const { filesystem: _filesystem, ...otherSandbox } = sandbox;
  const nextSandbox =
    Object.keys(nextFilesystem).length > 0 ? { ...otherSandbox, filesystem: nextFilesystem } : otherSandbox;
  // What is left is exactly what Vigil wrote (its sandbox on, no way out): taken out with the rest.
  const isVigilsOnly =
    Object.keys(nextSandbox).length === 2 &&
    nextSandbox['enabled'] === true &&
    nextSandbox['allowUnsandboxedCommands'] === false;
  const { sandbox: _sandbox, ...withoutSandbox } = document;
  return { document: isVigilsOnly ? withoutSandbox : { ...document, sandbox: nextSandbox }, removed: 1 };
}
