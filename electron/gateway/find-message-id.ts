import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC id: an integer or a JSON string. */
const idValue = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;

/** `{"jsonrpc":"2.0","method":"…","id":…` — the id among the root's leading string members. */
const leadingId = new RegExp(
  String.raw`^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*)*"id"\s*:\s*${idValue}`,
  'u',
);

/** `…,"id":7}` at the very end — the root's last member (a nested one would be followed by more than one brace). */
const trailingId = new RegExp(String.raw`"id"\s*:\s*${idValue}\s*\}\s*$`, 'u');

function parseId(raw: string | undefined): RequestId | undefined {
  if (raw === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value)) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The id of a JSON-RPC message that is too large (or too broken) to parse, found from its first
 * and last bytes: clients put it first (`{"jsonrpc","id",…}`) or last (`{…,"jsonrpc","id"}`, as
 * the MCP SDKs do). Undefined when neither edge shows it for sure.
 */
export function findMessageId(head: string, tail: string): RequestId | undefined {
  return parseId(leadingId.exec(head)?.[1]) ?? parseId(trailingId.exec(tail)?.[1]);
}
