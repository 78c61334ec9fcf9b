import type { z } from 'zod';

/**
 * One agent tool, defined once: the same schema validates a call, produces the JSON Schema that
 * MCP clients see, and documents the tool.
 */
export interface ToolDefinition<
  Name extends string = string,
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodType = z.ZodType,
> {
  readonly name: Name;
  /** One line: what the tool does. */
  readonly summary: string;
  /** What an agent needs to use it well: behaviour, limits, what an error means. Shown to models. */
  readonly description: string;
  /** The arguments: a strict object whose fields all carry a `.describe()`. */
  readonly input: Input;
  /** The result of a successful call. */
  readonly output: Output;
  /** What a missing or malformed call could not have done: "No file was created or modified." */
  readonly notRunEffect: string;
}

/** Declares a tool; the identity function keeps the literal name and the schema types. */
export function defineTool<const Name extends string, Input extends z.ZodObject, Output extends z.ZodType>(
  definition: ToolDefinition<Name, Input, Output>,
): ToolDefinition<Name, Input, Output> {
  return definition;
}
