import { toolInputJsonSchema, toolOutputJsonSchema } from './tool-json-schema';
import type { AnyToolDefinition } from './tool-registry';

/** The fields of an object JSON Schema as Markdown table rows. */
function fieldRows(schema: Readonly<Record<string, unknown>>, isInput: boolean): string[] {
  const properties = (schema['properties'] ?? {}) as Record<
    string,
    { type?: string; description?: string; enum?: unknown[]; items?: { type?: string } }
  >;
  const required = new Set((schema['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, field]) => {
    const type =
      field.enum === undefined
        ? field.type === 'array'
          ? `${field.items?.type ?? 'any'}[]`
          : (field.type ?? 'any')
        : field.enum.map((value) => JSON.stringify(value)).join(' \\| ');
    const presence = required.has(name) ? (isInput ? 'required' : 'always') : isInput ? 'optional' : 'sometimes';
    return `| \`${name}\` | ${type} | ${presence} | ${(field.description ?? '').replace(/\|/gu, '\\|')} |`;
  });
}

/** A tool's documentation in Markdown, generated from its one definition (summary, description, fields). */
export function describeTool(definition: AnyToolDefinition): string {
  return [
    `### \`${definition.name}\``,
    '',
    definition.summary,
    '',
    definition.description,
    '',
    '| Argument | Type | | Meaning |',
    '| --- | --- | --- | --- |',
    ...fieldRows(toolInputJsonSchema(definition), true),
    '',
    '| Result field | Type | | Meaning |',
    '| --- | --- | --- | --- |',
    ...fieldRows(toolOutputJsonSchema(definition), false),
    '',
  ].join('\n');
}
