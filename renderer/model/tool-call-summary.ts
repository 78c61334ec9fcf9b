import { maskSecretValues } from '../../shared/secrets/mask-secret-values';
import { escapeControls } from '../../shared/text/control-characters';

/** A kept text: a string, or the preview of an `elided-text` (a session keeps long texts in part, secrets not at all). */
function keptText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || (value as { kind?: unknown }).kind !== 'elided-text')
    return undefined;
  const { preview, reason } = value as { preview?: unknown; reason?: unknown };
  if (reason === 'secret') return '(secret: not kept)';
  return typeof preview === 'string' ? `${preview}…` : undefined;
}

/**
 * One line about a tool call's arguments: the path, the command, the memory action; else compact
 * JSON. Values that look like secrets are masked, whatever the core kept; control characters are escaped for display.
 */
export function summarizeArguments(name: string, args: unknown): string {
  return escapeControls(maskSecretValues(summarize(name, args)));
}

function summarize(name: string, args: unknown): string {
  if (args === undefined) return '';
  if (typeof args !== 'object' || args === null) return JSON.stringify(args);
  const record = args as Readonly<Record<string, unknown>>;
  const text = (key: string): string | undefined => keptText(record[key]);
  // Vigil's terminal, and the agents' own shell tools reported through their hooks (Bash, run_shell_command).
  if (text('command') !== undefined) return text('command') ?? '';
  if (name === 'memory') {
    const target = text('target');
    const detail = text('content') ?? text('old_text') ?? text('oldText') ?? '';
    return [text('action'), target, detail === '' ? undefined : `“${clip(detail, 60)}”`]
      .filter((part) => part !== undefined)
      .join(' ');
  }
  const path = text('path') ?? text('file_path') ?? text('file');
  if (path !== undefined) return path;
  return clip(JSON.stringify(args), 160);
}

/** A text cut to `length` characters with an ellipsis, on one line. */
export function clip(text: string, length: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= length ? line : `${line.slice(0, length - 1)}…`;
}
