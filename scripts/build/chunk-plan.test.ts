import { describe, expect, it } from 'vitest';
import { chunkGroups, planChunks, type ChunkingContext } from './chunk-plan';

/** A module graph as rolldown's chunking context gives it: `imports` static, `lazy` dynamic. */
function graphOf(modules: Record<string, { imports?: string[]; lazy?: string[] }>): ChunkingContext {
  return {
    getModuleInfo: (id) => {
      const module = modules[id];
      if (module !== undefined) return { importedIds: module.imports ?? [], dynamicallyImportedIds: module.lazy ?? [] };
      return id.startsWith('/') ? null : { importedIds: [], dynamicallyImportedIds: [], isExternal: true };
    },
  };
}

const roots = {
  cli: '/cli/vigil.ts',
  commands: '/cli/cli-main.ts',
  hook: '/cli/hook/hook-main.ts',
  core: '/core/create-core.ts',
  worker: '/snapshot/hash-worker.ts',
  headStart: '/snapshot/walk-head-start.ts',
  walkWorker: '/snapshot/worker-thread.ts',
  engine: '/checkpoints/checkpoint-service.ts',
};

const graph = graphOf({
  '/cli/vigil.ts': { lazy: [roots.hook, roots.commands, '/cli/checkpoint-process.ts'] },
  '/cli/checkpoint-process.ts': { imports: ['/relay/relay-client.ts'], lazy: ['/cli/walk-head-start-entry.ts'] },
  '/cli/walk-head-start-entry.ts': { imports: ['/checkpoints/index.ts'] },
  '/checkpoints/index.ts': { imports: ['/snapshot/walk-head-start.ts', '/core/services.ts'] },
  '/snapshot/walk-head-start.ts': {
    imports: ['/locks/file-lock.ts', '/snapshot/hasher.ts', '/snapshot/worker-thread.ts', 'node:worker_threads'],
  },
  '/snapshot/worker-thread.ts': { imports: ['/store/layout.ts', 'node:worker_threads'] },
  '/store/layout.ts': { imports: ['node:crypto'] },
  '/locks/file-lock.ts': { imports: ['/shared/errors.ts'] },
  '/cli/hook/hook-main.ts': { imports: ['/cli/hook/run-hook.ts', '/relay/relay-client.ts'] },
  '/cli/hook/run-hook.ts': { imports: ['/shared/errors.ts', 'node:fs'] },
  '/relay/relay-client.ts': { imports: ['/shared/errors.ts', 'node:http'] },
  '/cli/cli-main.ts': { imports: ['/cli/run-cli.ts', '/cli/command-index.ts'] },
  '/cli/run-cli.ts': { imports: ['/shared/errors.ts'] },
  '/cli/command-index.ts': {
    lazy: ['/cmd/list.ts', '/cmd/log.ts', '/cmd/search.ts', '/cmd/connect.ts', '/cmd/show.ts', '/cmd/tool.ts'],
  },
  '/cmd/show.ts': { imports: ['/cli/services.ts', '/sessions/state.ts', '/cmd/turn-view.ts'] },
  '/cmd/turn-view.ts': {},
  '/cmd/tool.ts': { imports: ['/cli/services.ts', '/workspace/rules.ts'] },
  '/sessions/state.ts': {},
  '/workspace/rules.ts': {},
  '/agents/agents.ts': { imports: ['/sessions/state.ts'] },
  '/cmd/list.ts': { imports: ['/cli/services.ts', '/cmd/history-text.ts'] },
  '/cmd/log.ts': { imports: ['/cli/services.ts', '/cmd/history-text.ts', '/cmd/list.ts'] },
  '/cmd/search.ts': { imports: ['/cli/services.ts', '/cmd/search-text.ts', '/files/temp-name.ts'] },
  '/cmd/connect.ts': { imports: ['/cli/services.ts', 'yaml'] },
  '/cli/services.ts': { imports: ['/relay/relay-client.ts'], lazy: [roots.core] },
  '/cmd/history-text.ts': {},
  '/cmd/search-text.ts': {},
  '/core/create-core.ts': {
    imports: ['/core/services.ts', '/snapshot/hasher.ts', '/checkpoints/index.ts', '/workspace/rules.ts'],
    lazy: ['/restore/restore.ts', '/checkpoints/checkpoint-service.ts', '/agents/agents.ts'],
  },
  '/checkpoints/checkpoint-service.ts': {
    imports: ['/store/pack-writer.ts', '/core/services.ts', '/snapshot/hasher.ts'],
  },
  '/store/pack-writer.ts': { imports: ['/store/zlib.ts'] },
  '/store/zlib.ts': {},
  '/core/services.ts': { imports: ['/node_modules/zod/index.js', '/shared/errors.ts'] },
  '/node_modules/zod/index.js': {},
  '/snapshot/hash-worker.ts': { imports: ['/snapshot/hasher.ts', '/files/temp-name.ts'] },
  '/files/temp-name.ts': { imports: ['node:crypto'] },
  '/snapshot/hasher.ts': {},
  '/restore/restore.ts': { imports: ['/core/services.ts'] },
});

describe('the main bundle chunk plan', () => {
  const plan = planChunks(roots, graph);
  const chunkOf = (id: string): string | undefined => plan.get(id)?.name;

  it('puts what `vigil hook` shares with the commands into one chunk, and the rest of what it loads into another', () => {
    expect(chunkOf('/cli/hook/run-hook.ts')).toBe('cli-hook');
    expect(chunkOf('/relay/relay-client.ts')).toBe('cli-relay');
    expect(chunkOf('/shared/errors.ts')).toBe('cli-relay');
  });

  it('puts the command table and what three light commands share into the base chunk', () => {
    expect(chunkOf('/cli/run-cli.ts')).toBe('cli-base');
    expect(chunkOf('/cli/command-index.ts')).toBe('cli-base');
    expect(chunkOf('/cli/services.ts')).toBe('cli-base');
  });

  it('gives what one or two light commands use a chunk with the first of them, the first itself included', () => {
    expect(chunkOf('/cmd/history-text.ts')).toBe('cli-list');
    expect(chunkOf('/cmd/search-text.ts')).toBe('cli-search');
    expect(chunkOf('/cmd/list.ts')).toBe('cli-log');
    expect(chunkOf('/cmd/search.ts')).toBe('cli-search');
  });

  it("splits a command's chunk where a one-shot core would load it for some of it: what the core may load goes apart", () => {
    expect(chunkOf('/sessions/state.ts')).toBe('cli-show-shared');
    expect(chunkOf('/cmd/turn-view.ts')).toBe('cli-show');
    expect(chunkOf('/cmd/show.ts')).toBe('cli-show');
    expect(chunkOf('/agents/agents.ts')).toBeUndefined();
  });

  it('keeps a command whole when its chunk would hold only code the core loads besides its own module: one file a call', () => {
    expect(chunkOf('/workspace/rules.ts')).toBe('cli-tool');
    expect(chunkOf('/cmd/tool.ts')).toBe('cli-tool');
  });

  it("puts the executable's two path roots into their chunks (their facades are collapsed), so that each path loads a file less", () => {
    expect(chunkOf(roots.hook)).toBe('cli-hook');
    expect(chunkOf(roots.commands)).toBe('cli-base');
  });

  it("gives what a light command shares with the hashing worker a chunk of its own, so the worker loads no command's chunk", () => {
    expect(chunkOf('/files/temp-name.ts')).toBe('cli-worker-shared');
    expect(chunkOf('/cmd/search-text.ts')).toBe('cli-search');
  });

  it('leaves a command that loads a library statically to the bundler, so no light path loads that library', () => {
    expect(chunkOf('/cmd/connect.ts')).toBeUndefined();
  });

  it("puts the core's static closure, bundled libraries included, into one chunk, less the worker's modules and lazy parts", () => {
    expect(chunkOf('/core/create-core.ts')).toBe('core');
    expect(chunkOf('/core/services.ts')).toBe('core');
    expect(chunkOf('/node_modules/zod/index.js')).toBe('core');
    expect(chunkOf('/snapshot/hasher.ts')).toBe('hash-worker-base');
    expect(chunkOf(roots.worker)).toBeUndefined();
    expect(chunkOf('/restore/restore.ts')).toBeUndefined();
  });

  it("puts what a checkpoint's walk head start loads before the core into a chunk of its own, less the worker's modules", () => {
    expect(chunkOf(roots.headStart)).toBe('walk-head-start');
    expect(chunkOf('/locks/file-lock.ts')).toBe('walk-head-start');
    expect(chunkOf('/snapshot/hasher.ts')).toBe('hash-worker-base');
    expect(chunkOf('/shared/errors.ts')).toBe('cli-relay');
    expect(chunkOf('/checkpoints/index.ts')).toBe('core');
  });

  it("puts what starts the head start's first worker thread into a small chunk of its own, loaded before the head start's", () => {
    expect(chunkOf('/snapshot/worker-thread.ts')).toBe('walk-worker-start');
    expect(chunkOf('/store/layout.ts')).toBe('walk-worker-start');
    expect(chunkOf(roots.headStart)).toBe('walk-head-start');
  });

  it("puts the checkpoint engine's static closure into one chunk, less the core's and the worker's modules", () => {
    expect(chunkOf('/checkpoints/checkpoint-service.ts')).toBe('checkpoint-engine');
    expect(chunkOf('/store/pack-writer.ts')).toBe('checkpoint-engine');
    expect(chunkOf('/store/zlib.ts')).toBe('checkpoint-engine');
    expect(chunkOf('/core/services.ts')).toBe('core');
    expect(chunkOf('/snapshot/hasher.ts')).toBe('hash-worker-base');
  });

  it('gives rolldown one group per tier, each naming only its own modules, the shared relay first', () => {
    const groups = chunkGroups(roots);
    expect(groups.map((group) => group.priority)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const [relay, hook, base, workerShared, commandShared, command, worker, walkWorker, headStart, core, engine] =
      groups.map((group) => (id: string) => group.name(id, graph));
    expect(relay?.('/shared/errors.ts')).toBe('cli-relay');
    expect(hook?.('/shared/errors.ts')).toBeNull();
    expect(hook?.('/cli/hook/run-hook.ts')).toBe('cli-hook');
    expect(base?.('/shared/errors.ts')).toBeNull();
    expect(base?.('/cli/services.ts')).toBe('cli-base');
    expect(command?.('/cmd/history-text.ts')).toBe('cli-list');
    expect(workerShared?.('/files/temp-name.ts')).toBe('cli-worker-shared');
    expect(command?.('/files/temp-name.ts')).toBeNull();
    expect(commandShared?.('/sessions/state.ts')).toBe('cli-show-shared');
    expect(command?.('/sessions/state.ts')).toBeNull();
    expect(worker?.('/snapshot/hasher.ts')).toBe('hash-worker-base');
    expect(core?.('/snapshot/hasher.ts')).toBeNull();
    expect(headStart?.('/locks/file-lock.ts')).toBe('walk-head-start');
    expect(core?.('/locks/file-lock.ts')).toBeNull();
    expect(walkWorker?.('/store/layout.ts')).toBe('walk-worker-start');
    expect(headStart?.('/store/layout.ts')).toBeNull();
    expect(core?.('/core/services.ts')).toBe('core');
    expect(core?.('/cmd/connect.ts')).toBeNull();
    expect(engine?.('/store/pack-writer.ts')).toBe('checkpoint-engine');
    expect(core?.('/store/pack-writer.ts')).toBeNull();
  });
});

describe("the spawn server's chunk", () => {
  const withServer = { ...roots, spawnServer: '/sandbox/spawn-server.ts' };
  const served = graphOf({
    '/cli/vigil.ts': { lazy: [roots.commands] },
    '/cli/cli-main.ts': { lazy: ['/cmd/tool.ts'] },
    '/cmd/tool.ts': { lazy: ['/sandbox/engine-head-start.ts'] },
    '/sandbox/engine-head-start.ts': { imports: ['/sandbox/command-execution.ts'] },
    '/sandbox/spawn-server.ts': { imports: ['/sandbox/command-execution.ts'] },
    '/sandbox/command-execution.ts': { imports: ['node:child_process'] },
  });

  it("keeps the server's modules in its own chunk when a light path reaches them too", () => {
    const plan = planChunks(withServer, served);
    expect(plan.get('/sandbox/command-execution.ts')?.name).toBe('spawn-server-base');
  });
});
