import type { z } from 'zod';
import { memoryTool } from './memory-tool';
import { patchTool } from './patch-tool';
import { readFileTool } from './read-file-tool';
import { terminalTool } from './terminal-tool';
import { writeFileTool } from './write-file-tool';

/**
 * Every agent tool, in the order agents are shown them. To add a tool, write
 * `shared/tools/<name>-tool.ts` with `defineTool(...)` and add it here: one file, one line.
 */
export const toolDefinitions = [readFileTool, writeFileTool, patchTool, terminalTool, memoryTool] as const;

/** A tool's definition. */
export type AnyToolDefinition = (typeof toolDefinitions)[number];

/** The name of a registered tool. */
export type ToolName = AnyToolDefinition['name'];

/** The definition of the tool named `N`. */
export type ToolDefinitionOf<N extends ToolName> = Extract<AnyToolDefinition, { readonly name: N }>;

/** The validated arguments of tool `N`. */
export type ToolInput<N extends ToolName> = z.output<ToolDefinitionOf<N>['input']>;

/** The result of tool `N`. */
export type ToolOutput<N extends ToolName> = z.output<ToolDefinitionOf<N>['output']>;

/** The names of every registered tool. */
export const toolNames: readonly ToolName[] = toolDefinitions.map((definition) => definition.name);

/** Whether a string names a registered tool. */
export function isToolName(name: string): name is ToolName {
  return (toolNames as readonly string[]).includes(name);
}

/** The definition of a registered tool. */
export function toolDefinition<N extends ToolName>(name: N): ToolDefinitionOf<N> {
  return toolDefinitions.find((definition) => definition.name === name) as ToolDefinitionOf<N>;
}
