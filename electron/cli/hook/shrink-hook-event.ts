import type { HookEvent } from '../../../shared/hooks/hook-event';

/** Strings longer than this are sent to the core as their size and digest only (a session never keeps whole contents). */
export const longStringChars = 256 * 1024;

/** Whether a value holds a string longer than the limit (walked without copying). */
function hasLong(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.length > longStringChars;
  if (depth > 16 || typeof value !== 'object' || value === null) return false;
  return Object.values(value).some((item) => hasLong(item, depth + 1));
}

/** A copy of a value with every long string replaced by an `elided-text` (size and SHA-256, no preview). */
async function shrunk(value: unknown, depth = 0): Promise<unknown> {
  if (typeof value === 'string') {
    if (value.length <= longStringChars) return value;
    const { createHash } = await import('node:crypto');
    return {
      kind: 'elided-text',
      reason: 'long',
      chars: value.length,
      bytes: Buffer.byteLength(value, 'utf8'),
      sha256: createHash('sha256').update(value).digest('hex'),
    };
  }
  if (depth > 16 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Promise.all(value.map((item) => shrunk(item, depth + 1)));
  const entries = await Promise.all(
    Object.entries(value).map(async ([key, item]) => [key, await shrunk(item, depth + 1)] as const),
  );
  return Object.fromEntries(entries);
}

/**
 * The event as it is relayed: a tool's input and result with their long texts (a big Write) reduced
 * to size and digest, so one call stays far below the transport's frame limit. The fields Vigil acts
 * on (paths, commands, prompts) are never long enough to be touched.
 */
export async function shrinkHookEvent(event: HookEvent): Promise<HookEvent> {
  const tool = event.tool;
  const outcome = event.outcome;
  if (!hasLong(tool?.input) && !(outcome?.ok === true && hasLong(outcome.response))) return event;
  return {
    ...event,
    // Spread over the event: a missing tool must stay missing, not become `tool: undefined`.
    ...(tool === undefined ? {} : { tool: { ...tool, input: await shrunk(tool.input) } }),
    ...(outcome?.ok === true ? { outcome: { ok: true, response: await shrunk(outcome.response) } } : {}),
  };
}
