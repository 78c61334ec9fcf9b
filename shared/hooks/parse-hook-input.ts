import { agentInputFormats, causeOf } from './agent-formats';
import type { HookAgent, HookEvent, HookEventKind, ParsedHookInput } from './hook-event';
import {
  commonFields,
  HookFieldError,
  isJsonObject,
  optionalText,
  requiredObject,
  requiredText,
  type JsonObject,
} from './hook-fields';
import { supervisedTool } from './hook-tools';

/** What one event kind adds to the common fields; undefined: a tool Vigil does not supervise. */
function specificFields(
  agent: HookAgent,
  kind: HookEventKind,
  name: string,
  record: JsonObject,
): Partial<HookEvent> | undefined {
  const format = agentInputFormats[agent];
  switch (kind) {
    case 'session-start': {
      const source = causeOf(record, format.sourceKeys);
      // Spread over the event, and hashed key by key into the call id: an absent cause stays absent.
      return source === undefined ? {} : { source };
    }
    case 'session-end': {
      const reason = causeOf(record, format.reasonKeys);
      return reason === undefined ? {} : { reason };
    }
    case 'prompt': {
      const prompt = record['prompt'];
      if (typeof prompt !== 'string')
        throw new HookFieldError('prompt', prompt === undefined ? '"prompt" is missing' : '"prompt" is not a string');
      return { prompt };
    }
    case 'stop':
      return {};
    case 'pre-tool':
    case 'post-tool': {
      const toolName = requiredText(record, 'tool_name');
      const tool = supervisedTool(
        agent,
        toolName,
        requiredObject(record, 'tool_input'),
        optionalText(record, 'tool_use_id'),
      );
      if (tool === undefined) return undefined;
      return kind === 'pre-tool' ? { tool } : { tool, outcome: format.outcome(name, record) };
    }
  }
}

/**
 * Claude Code's permission modes in which it asks nobody (code.claude.com/docs/en/iam): under
 * `bypassPermissions` (`--dangerously-skip-permissions`) it obeys only a deny, and an "ask" runs
 * the call unasked; under `dontAsk` it refuses what it would ask about, without saying why.
 */
const unattendedClaudeModes: Readonly<Record<string, string>> = {
  bypassPermissions:
    'Claude Code runs with --dangerously-skip-permissions (permission mode "bypassPermissions"), where it asks no one and would run the call unasked',
  dontAsk: 'Claude Code runs in permission mode "dontAsk", where it asks no one',
};

/**
 * Codex CLI 0.171 takes only "deny" from a PreToolUse hook: an "ask" (or "allow") is an invalid
 * answer, and Codex runs the call as if no hook had answered. So no person is ever asked through it.
 */
const codexUnattended =
  'Codex CLI takes only "deny" from a hook (it would run the call unasked on an "ask"), so no one can be asked through it';

/** Why no person can be asked about this event's call, from the agent's own input; undefined when one can. */
function unattendedOf(agent: HookAgent, kind: HookEventKind, record: JsonObject): { unattended?: string } {
  if (agent === 'codex' && kind === 'pre-tool') return { unattended: codexUnattended };
  if (agent !== 'claude-code' || kind !== 'pre-tool') return {};
  const mode = optionalText(record, 'permission_mode');
  const reason =
    mode !== undefined && Object.hasOwn(unattendedClaudeModes, mode) ? unattendedClaudeModes[mode] : undefined;
  return reason === undefined ? {} : { unattended: reason };
}

/**
 * Reads one hook event from the agent's stdin text, in the agent's documented format: an event
 * Vigil acts on, one it ignores (other events, tools that change no files), or input it cannot read
 * (not JSON, a field missing or of the wrong type: `field` names it).
 */
export function parseHookInput(agent: HookAgent, text: string): ParsedHookInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      kind: 'invalid',
      field: '(stdin)',
      message: `stdin is not one JSON object (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (!isJsonObject(value)) return { kind: 'invalid', field: '(stdin)', message: 'stdin is JSON, but not an object' };
  let kind: HookEventKind | undefined;
  try {
    const name = requiredText(value, 'hook_event_name');
    const format = agentInputFormats[agent];
    kind = Object.hasOwn(format.kinds, name) ? format.kinds[name] : undefined;
    if (kind === undefined) return { kind: 'ignored', name };
    const common = commonFields(value);
    const specific = specificFields(agent, kind, name, value);
    if (specific === undefined) return { kind: 'ignored', name: `${name} ${String(value['tool_name'])}` };
    return { kind: 'event', event: { agent, kind, ...common, ...specific, ...unattendedOf(agent, kind, value) } };
  } catch (error) {
    if (error instanceof HookFieldError)
      return {
        kind: 'invalid',
        field: error.field,
        message: error.message,
        ...(kind === undefined ? {} : { eventKind: kind }),
      };
    throw error;
  }
}
