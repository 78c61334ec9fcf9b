import type { MemoryToolInput } from '../../shared/tools/memory-tool';
import type { ToolInput } from '../../shared/tools/tool-registry';
import type { MemoryService } from '../memory';
import { prepareMemory } from './memory/prepare';
import { preparePatch } from './patch/prepare';
import { prepareReadFile } from './read-file/prepare';
import { prepareTerminal } from './terminal/prepare';
import type { TerminalSandbox } from './terminal/run';
import type { ToolAdapter } from './tool-adapter';
import { prepareWriteFile } from './write-file/prepare';

export type { ExecutionSession, LockRequest, PreparedCall, ToolAdapter } from './tool-adapter';
export type { CoverageLimits } from './undo-coverage';
export { commandCoverage, fileChangeCoverage } from './undo-coverage';
export { commandSubject } from './terminal/command-subject';
export { fileCall } from './file-call';
export type { TerminalSandbox } from './terminal/run';

/** What the tools are built on: the sandbox commands run in, and the memory store (no `memory` tool without it). */
export interface ToolServices {
  readonly sandbox: TerminalSandbox;
  readonly memory?: MemoryService;
}

/**
 * Every agent tool as the executor drives it, in `shared/tools/tool-registry.ts`'s order. A tool
 * lives in `electron/tools/<tool>/`: `prepare.ts` validates, resolves and classifies its target
 * once; `run.ts` acts on exactly that target. The executor has already validated `args` against
 * the tool's shared schema.
 */
export function createToolAdapters(services: ToolServices): readonly ToolAdapter[] {
  const { sandbox, memory } = services;
  const adapters: ToolAdapter[] = [
    { name: 'read_file', prepare: (args, session) => prepareReadFile(args as ToolInput<'read_file'>, session) },
    { name: 'write_file', prepare: (args, session) => prepareWriteFile(args as ToolInput<'write_file'>, session) },
    { name: 'patch', prepare: (args, session) => preparePatch(args as ToolInput<'patch'>, session) },
    {
      name: 'terminal',
      prepare: (args, session) => prepareTerminal(args as ToolInput<'terminal'>, session, sandbox),
    },
  ];
  if (memory !== undefined)
    adapters.push({
      name: 'memory',
      prepare: (args, session) => prepareMemory(args as MemoryToolInput, session, memory),
    });
  return adapters;
}
