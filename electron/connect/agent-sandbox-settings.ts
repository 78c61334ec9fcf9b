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

/** The document with Claude Code's sandbox on and Vigil's folder unreadable in it; the user's other sandbox settings kept. */
export function withVigilSandbox(document: JsonRecord, agent: HookAgent, vigilHome: string): JsonRecord {
  if (vigilSandboxSettings(agent, vigilHome) === undefined) return document;
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
  const sandbox = document['sandbox'];
  if (!isRecord(sandbox) || !isRecord(sandbox['filesystem'])) return { document, removed: 0 };
  const filesystem = sandbox['filesystem'];
  const denyRead = filesystem['denyRead'];
  if (!Array.isArray(denyRead) || !denyRead.includes(vigilHome)) return { document, removed: 0 };
  const kept = denyRead.filter((entry) => entry !== vigilHome);
  return {
    document: { ...document, sandbox: { ...sandbox, filesystem: { ...filesystem, denyRead: kept } } },
    removed: 1,
  };
}
