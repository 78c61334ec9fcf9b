import { escapeControls } from '../../shared/text/control-characters';

/** One line about a tool call's arguments (the path, the command, the memory action; else compact JSON), control characters escaped for display. */
export function summarizeArguments(name: string, args: unknown): string {
  return escapeControls(describeArguments(name, args));
}

function describeArguments(name: string, args: unknown): string {
  if (args === undefined) return '';
  if (typeof args !== 'object' || args === null) return JSON.stringify(args);
  const record = args as Readonly<Record<string, unknown>>;
  const text = (key: string): string | undefined => (typeof record[key] === 'string' ? record[key] : undefined);
  if (name === 'terminal' && text('command') !== undefined) return text('command') ?? '';
  if (name === 'memory') {
    const target = text('target');
    const detail = text('content') ?? text('old_text') ?? text('oldText') ?? '';
    return [text('action'), target, detail === '' ? undefined : `“${clip(detail, 60)}”`].filter((part) => part !== undefined).join(' ');
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
