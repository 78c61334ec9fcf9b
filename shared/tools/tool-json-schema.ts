import { z } from 'zod';
import type { AnyToolDefinition } from './tool-registry';

/** A JSON Schema document. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** The JSON Schema of a tool's arguments, as MCP's `inputSchema` (with `required` and `additionalProperties: false`). */
export function toolInputJsonSchema(definition: AnyToolDefinition): JsonSchema {
  return z.toJSONSchema(definition.input, { io: 'input' });
}

/** The JSON Schema of a tool's result, as MCP's `outputSchema`. */
export function toolOutputJsonSchema(definition: AnyToolDefinition): JsonSchema {
  return z.toJSONSchema(definition.output, { io: 'output' });
}
