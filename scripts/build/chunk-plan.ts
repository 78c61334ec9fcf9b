import path from 'node:path';

/** What the plan reads of the bundler's module graph (rolldown's chunking context). */
export interface ChunkingContext {
  getModuleInfo(id: string): {
    readonly importedIds: readonly string[];
    readonly dynamicallyImportedIds: readonly string[];
    readonly isExternal?: boolean;
  } | null;
}

/** Where the plan starts: the `vigil` executable's paths, the core, and the hashing worker. */
export interface ChunkPlanRoots {
  /** The `vigil` executable's entry (electron/cli/vigil.ts). */
  readonly cli: string;
  /** What every command but `vigil hook` loads first (electron/cli/cli-main.ts). */
  readonly commands: string;
  /** `vigil hook`'s own short path (electron/cli/hook/hook-main.ts), run on every tool call of an agent. */
  readonly hook: string;
  /** The composition root of every in-process command, through its face (electron/core/index.ts). */
  readonly core: string;
  /** The hashing worker's entry: its modules stay out of the core's chunk, so that a worker starts on what it needs. */
  readonly worker: string;
  /** A one-shot checkpoint's walk head start (electron/checkpoints/snapshot/walk-head-start.ts), loaded before the core. */
  readonly headStart: string;
  /** What starts the head start's first worker thread (electron/checkpoints/snapshot/hash-worker-thread.ts), loaded before the head start. */
  readonly walkWorker?: string;
  /** The spawn server's entry (electron/sandbox/spawn-server.ts): its modules stay out of the core's chunk, so that it stays small. */
  readonly spawnServer?: string;
  /** The checkpoint engine (electron/checkpoints/checkpoint-service.ts), which a one-shot checkpoint loads lazily after the core. */
  readonly engine?: string;
}

/** A planned chunk's name and its tier: a module two chunks would pull in goes to the higher tier's. */
export interface PlannedChunk {
  readonly name: string;
  readonly tier: number;
}

/** The chunk of each planned module; one the plan leaves out goes wherever the bundler's own splitting puts it. */
export type ChunkPlan = ReadonlyMap<string, PlannedChunk>;

const tiers = {
  relay: 11,
  hook: 10,
  base: 9,
  workerShared: 8,
  commandShared: 7,
  command: 6,
  worker: 5,
  walkWorker: 4,
  headStart: 3,
  core: 2,
  engine: 1,
} as const;

/** A module this many light commands share goes into the CLI's base chunk, which every command loads. */
const baseShare = 3;

/** A bundled library or an external package: more than a relayed command should load (node: built-ins are cheap). */
function isHeavy(id: string, graph: ChunkingContext): boolean {
  if (id.startsWith('node:')) return false;
  return id.includes(`${path.sep}node_modules${path.sep}`) || graph.getModuleInfo(id)?.isExternal === true;
}

/** Every module `from` loads without a dynamic import, itself included (node: built-ins left out). */
function staticClosure(from: string, graph: ChunkingContext): Set<string> {
  const seen = new Set<string>();
  const queue = [from];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id) || id.startsWith('node:')) continue;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    if (info !== null && info.isExternal !== true) queue.push(...info.importedIds);
  }
  return seen;
}

/** Every module `from` may load, through dynamic imports too, itself included (node: built-ins and externals left out). */
function fullClosure(from: string, graph: ChunkingContext): Set<string> {
  const seen = new Set<string>();
  const queue = [from];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id) || id.startsWith('node:')) continue;
    const info = graph.getModuleInfo(id);
    if (info === null || info.isExternal === true) continue;
    seen.add(id);
    queue.push(...info.importedIds, ...info.dynamicallyImportedIds);
  }
  return seen;
}

/** The light paths: modules the CLI reaches by dynamic imports whose static closure holds nothing heavy, with their closures. */
function lightPaths(roots: ChunkPlanRoots, graph: ChunkingContext): Map<string, Set<string>> {
  const paths = new Map<string, Set<string>>();
  const pending = [...(graph.getModuleInfo(roots.cli)?.dynamicallyImportedIds ?? [])];
  for (let root = pending.pop(); root !== undefined; root = pending.pop()) {
    if (paths.has(root) || root === roots.core) continue;
    const closure = staticClosure(root, graph);
    if ([...closure].some((id) => isHeavy(id, graph))) continue;
    paths.set(root, closure);
    for (const id of closure) pending.push(...(graph.getModuleInfo(id)?.dynamicallyImportedIds ?? []));
  }
  return paths;
}

/**
 * Node 20 pays about half a millisecond of CPU for each ES module it loads, however small, and
 * about as much for every 10 KB of code: a relayed `vigil` command that loaded 22 small chunks
 * spent more on loading than on its work, a one-shot core 65. So the main bundle is split by plan:
 * - `cli-relay`: what `vigil hook`'s short path shares with the commands (the relay client, errors…);
 * - `cli-hook`: the rest of what the hook loads (the agents' event formats), which no command needs;
 * - `cli-base`: the rest of the command table's closure, and what three or more light commands
 *   share (a light command is one whose static imports hold no library);
 * - `cli-<command>`: what one or two light commands use besides (it goes with the first of them),
 *   and that first command's own module, so that it loads one file; any other command module stays
 *   a chunk of its own, so loading it costs no extra file;
 * - `cli-<command>-shared`: what of that a one-shot core may load too, where the command's chunk
 *   also holds code no core loads (the session state `vigil sessions show` renders, beside its turn
 *   view, which imports the restore command's chunk): whole, a one-shot `vigil tool` call loaded
 *   both commands' code for the session state. A command whose chunk holds only its own module
 *   beside code the core loads (`vigil tool`, `vigil write`) keeps one chunk: one file a call;
 * - `cli-worker-shared`: what one or two light commands share with the hashing worker (the
 *   bookkeeping-file rule): in a command's chunk, each worker loaded that chunk and all it imports
 *   (the relay client, node:net; ~5 ms more of a cold worker's start, which a walk waits for);
 * - `hash-worker-base`: the hashing worker's static closure, claimed before the core's: rolldown
 *   pulls a group's dependencies into it, so without its own chunk the worker's modules landed in
 *   `core` and each worker loaded the core's 440 KB (zod included), ~90 ms of CPU per worker;
 * - `spawn-server-base`: the spawn server's static closure, though a light path reaches some of it
 *   (a one-shot terminal call starts the sandbox engine from it): the server loads no command's chunk;
 * - `walk-worker-start`: what `vigil checkpoint DIR` loads to start its walk's first worker thread
 *   (the thread's options, where the stat cache is), a few KB: the thread's start is the longest step
 *   before the walk, so it begins before the head start's ~100 KB of modules are compiled;
 * - `walk-head-start`: what `vigil checkpoint DIR` loads to start its walk before the core (the
 *   store lock, the worker pool), less the worker's modules: in `core`, it would load all of it;
 * - `core`: the one-shot core's static closure (create-core and all it imports, bundled zod
 *   included), less the hashing worker's and the head start's modules;
 * - `checkpoint-engine`: the engine's static closure less the core's (the git store's packs and
 *   collector, the diff library…): once the build takes each module from the face that defines it
 *   (scripts/build/face-imports.ts), the bundler's own splitting cut them into a dozen small
 *   chunks, each a file more for every `vigil checkpoint` to load.
 * Lazy parts (restore, diff, the sandbox, heavy commands) keep the bundler's own splitting. A
 * dynamically imported module that lands in a planned chunk is imported from that chunk, not through a
 * one-line facade (scripts/build/collapse-facades.ts): a relayed checkpoint loads 3 files, a hook 3.
 */
export function planChunks(roots: ChunkPlanRoots, graph: ChunkingContext): ChunkPlan {
  const plan = new Map<string, PlannedChunk>();
  const claim = (ids: Iterable<string>, chunk: PlannedChunk, except?: string): void => {
    for (const id of ids) if (id !== except && !plan.has(id)) plan.set(id, chunk);
  };
  const paths = [...lightPaths(roots, graph)].sort(([a], [b]) => a.localeCompare(b));
  const hook = staticClosure(roots.hook, graph);
  // What the commands load, the hook's own code left out (the hook command loads it only to run it).
  const commandModules = new Set(paths.flatMap(([root, closure]) => (hook.has(root) ? [] : [...closure])));
  claim(
    [...hook].filter((id) => commandModules.has(id)),
    { name: 'cli-relay', tier: tiers.relay },
    roots.hook,
  );
  // The two path roots go into their chunks too: the facade rolldown emits for each is collapsed
  // (collapse-facades.ts), so the executable imports the chunk itself, one file less per call.
  claim(hook, { name: 'cli-hook', tier: tiers.hook });
  claim(staticClosure(roots.commands, graph), { name: 'cli-base', tier: tiers.base });
  const sharers = new Map<string, string[]>();
  for (const [root, closure] of paths) {
    if (root === roots.hook || root === roots.commands) continue;
    for (const id of closure) if (id !== root) sharers.set(id, [...(sharers.get(id) ?? []), root]);
  }
  const worker = staticClosure(roots.worker, graph);
  // The spawn server's modules stay in its chunk, whichever light path also reaches them (a one-shot terminal call's engine head start).
  const spawnServer = roots.spawnServer === undefined ? new Set<string>() : staticClosure(roots.spawnServer, graph);
  const coreSide = fullClosure(roots.core, graph);
  const ownChunk = (id: string, sharing: readonly string[]): boolean =>
    sharing.length < baseShare && !worker.has(id) && !plan.has(id);
  // The commands whose chunk would hold code a one-shot core never loads beside code it does: theirs is split in two.
  const split = new Set<string>();
  for (const [id, sharing] of sharers)
    if (ownChunk(id, sharing) && sharing[0] !== undefined && !coreSide.has(id)) split.add(sharing[0]);
  const withOwnChunk = new Map<string, PlannedChunk>();
  for (const [id, [first, ...others]] of sharers) {
    if (first === undefined || spawnServer.has(id)) continue;
    const command = `cli-${path.basename(first, path.extname(first))}`;
    const chunk =
      others.length + 1 >= baseShare
        ? { name: 'cli-base', tier: tiers.base }
        : worker.has(id)
          ? { name: 'cli-worker-shared', tier: tiers.workerShared }
          : split.has(first) && coreSide.has(id)
            ? { name: `${command}-shared`, tier: tiers.commandShared }
            : { name: command, tier: tiers.command };
    claim([id], chunk);
    if (chunk.name === command) withOwnChunk.set(first, chunk);
  }
  // A command whose chunk holds what it shares goes into that chunk too (its facade is collapsed): one file, not two.
  for (const [root, chunk] of withOwnChunk) claim([root], chunk);
  claim(
    [...worker].filter((id) => graph.getModuleInfo(id)?.isExternal !== true),
    { name: 'hash-worker-base', tier: tiers.worker },
    roots.worker,
  );
  if (roots.spawnServer !== undefined)
    claim(
      [...staticClosure(roots.spawnServer, graph)].filter((id) => graph.getModuleInfo(id)?.isExternal !== true),
      { name: 'spawn-server-base', tier: tiers.worker },
      roots.spawnServer,
    );
  if (roots.walkWorker !== undefined)
    claim(
      [...staticClosure(roots.walkWorker, graph)].filter((id) => graph.getModuleInfo(id)?.isExternal !== true),
      { name: 'walk-worker-start', tier: tiers.walkWorker },
    );
  const headStart = [...staticClosure(roots.headStart, graph)].filter(
    (id) => graph.getModuleInfo(id)?.isExternal !== true,
  );
  claim(headStart, { name: 'walk-head-start', tier: tiers.headStart });
  const core = [...staticClosure(roots.core, graph)].filter(
    (id) => !worker.has(id) && graph.getModuleInfo(id)?.isExternal !== true,
  );
  claim(core, { name: 'core', tier: tiers.core });
  if (roots.engine !== undefined)
    claim(
      [...staticClosure(roots.engine, graph)].filter(
        (id) => !worker.has(id) && graph.getModuleInfo(id)?.isExternal !== true,
      ),
      { name: 'checkpoint-engine', tier: tiers.engine },
    );
  return plan;
}

/** A code-splitting group of rolldown's (`output.codeSplitting.groups`). */
export interface ChunkGroup {
  readonly priority: number;
  readonly name: (id: string, context: ChunkingContext) => string | null;
}

/**
 * The plan as rolldown's code-splitting groups, one per tier (the plan is made once, on the first
 * module rolldown asks about): a module in a higher tier's chunk is not pulled into a lower one's.
 */
export function chunkGroups(roots: ChunkPlanRoots): ChunkGroup[] {
  let plan: ChunkPlan | undefined;
  return Object.values(tiers).map((tier) => ({
    priority: tier,
    name: (id, context) => {
      plan ??= planChunks(roots, context);
      const planned = plan.get(id);
      return planned?.tier === tier ? planned.name : null;
    },
  }));
}
