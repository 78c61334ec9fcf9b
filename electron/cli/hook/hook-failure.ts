import { readFile } from 'node:fs/promises';
import type { HookAnswer, HookEvent } from '../../../shared/hooks/hook-event';

/**
 * `hooks.onFailure` from config.json, read by hand (the hook process loads no schema library):
 * `allow` only when it says so exactly; anything else — a missing or broken file — is `ask`.
 */
export async function readOnFailure(configFile: string): Promise<'ask' | 'allow'> {
  try {
    const document = JSON.parse(await readFile(configFile, 'utf8')) as { hooks?: { onFailure?: unknown } } | null;
    return document?.hooks?.onFailure === 'allow' ? 'allow' : 'ask';
  } catch {
    return 'ask';
  }
}

/**
 * What to answer when Vigil failed on an event (the core refused or died, an internal error, the
 * deadline passed). Before a change Vigil may not have checkpointed, the person decides ("ask",
 * saying why), unless `hooks.onFailure` is `allow`; every other event goes on (undefined).
 */
export function failureAnswer(event: HookEvent, problem: string, onFailure: 'ask' | 'allow'): HookAnswer | undefined {
  if (event.kind !== 'pre-tool' || event.tool === undefined || onFailure === 'allow') return undefined;
  return {
    decision: 'ask',
    reason: `${problem} No checkpoint may have been taken before this ${event.tool.name}, so it may not be undoable. (hooks.onFailure: "allow" in Vigil's config.json lets such changes go on without asking.)`,
    notices: [],
  };
}
