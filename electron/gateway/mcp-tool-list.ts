import { ToolSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { toolInputJsonSchema, toolOutputJsonSchema } from '../../shared/tools/tool-json-schema';
import type { AnyToolDefinition } from '../../shared/tools/tool-registry';

function objectSchema(
  tool: AnyToolDefinition,
  which: 'input' | 'output',
  schema: Readonly<Record<string, unknown>>,
): Tool['inputSchema'] {
  const { $schema: _dialect, ...rest } = schema;
  const parsed = ToolSchema.shape.inputSchema.safeParse(rest);
  if (!parsed.success) throw new Error(`The ${which} schema of tool "${tool.name}" is not an object schema.`);
  return parsed.data;
}

/**
 * The MCP tool list, generated from the shared tool definitions: the schema that validates a call
 * describes it (`required` lists exactly the fields the executor refuses to do without), and the
 * output schema describes the `structuredContent` of a successful result.
 */
export function mcpToolList(tools: readonly AnyToolDefinition[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.summary,
    description: tool.description,
    inputSchema: objectSchema(tool, 'input', toolInputJsonSchema(tool)),
    outputSchema: objectSchema(tool, 'output', toolOutputJsonSchema(tool)),
  }));
}
