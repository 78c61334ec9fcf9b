/** A string field worth showing as a block of its own (file content, a diff, command output). */
function isBlock(value: unknown): value is string {
  return typeof value === 'string' && (value.includes('\n') || value.length > 200);
}

/**
 * A tool's result as the text an MCP client shows its model: the scalar fields as one line of
 * JSON, then every multi-line text field (content, diff, stdout) as a block under its name, so
 * file content reads as text instead of an escaped JSON string. The exact value is also in
 * `structuredContent`.
 */
export function formatToolValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'done';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return JSON.stringify(value);
  const scalars: Record<string, unknown> = {};
  const blocks: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (isBlock(field)) blocks.push(`--- ${key} ---\n${field}`);
    else scalars[key] = field;
  }
  return [JSON.stringify(scalars), ...blocks].join('\n');
}
