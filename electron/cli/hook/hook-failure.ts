import { readFile } from 'node:fs/promises';
import type { HookAnswer, HookEvent } from '../../../shared/hooks/hook-event';

/** The sections of config.json that may set what a failed checkpoint makes of a change. */
interface OnFailureDocument {
  readonly checkpoints?: { readonly onFailure?: unknown };
  readonly hooks?: { readonly onFailure?: unknown };
}

/**
 * `checkpoints.onFailure` (else its older alias `hooks.onFailure`) from config.json, read by hand
 * (the hook process loads no schema library): `allow` only when it says so exactly; anything else
 * — a missing or broken file — is `ask`.
 */
export async function readOnFailure(configFile: string): Promise<'ask' | 'allow'> {
  try {
    const document = JSON.parse(await readFile(configFile, 'utf8')) as OnFailureDocument | null;
    return (document?.checkpoints?.onFailure ?? document?.hooks?.onFailure) === 'allow' ? 'allow' : 'ask';
  } catch {
    return 'ask';
  }
}

/**
 * What to answer when Vigil failed on an event (the core refused or died, an internal error, the
 * deadline passed). Before a change Vigil may not have checkpointed, the person decides ("ask",
 * saying why; "deny" where the agent asks nobody), unless `checkpoints.onFailure` is `allow`; every other
 * event goes on (undefined).
 */
export function failureAnswer(event: HookEvent, problem: string, onFailure: 'ask' | 'allow'): HookAnswer | undefined {
  if (event.kind !== 'pre-tool' || event.tool === undefined || onFailure === 'allow') return undefined;
  const reason = `${problem} No checkpoint may have been taken before this ${event.tool.name}, so it may not be undoable. (checkpoints.onFailure: "allow" in Vigil's config.json lets such changes go on without asking.)`;
  // Where the agent asks nobody, an "ask" would run the call unasked (or end the run): refuse instead.
  if (event.unattended !== undefined)
    return { decision: 'deny', reason: `${reason} ${event.unattended}, so Vigil refuses it.`, notices: [] };
  return { decision: 'ask', reason, notices: [] };
}

/** The answer to a tool call Vigil cannot assess (a field missing, malformed or too long, a cwd that is no folder): refused, saying which. */
export function unassessedAnswer(field: string, message: string): HookAnswer {
  return {
    decision: 'deny',
    reason: `Vigil refused this tool call because it cannot assess it: ${message} (field "${field}"). Nothing was run or changed.`,
    notices: [],
  };
}
