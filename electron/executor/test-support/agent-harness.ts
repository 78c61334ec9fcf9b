import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EventName } from '../../../shared/contract';
import {
  type CheckpointService,
  loadCheckpointService,
  loadRestoreService,
  loadWriteLedger,
  type RestoreService,
  type WriteLedger,
} from '../../checkpoints';
import { dirHash } from '../../git-store';
import { restorePortOf } from '../../sessions/session-rewinder';
import { EventHub } from '../../lib/event-hub';
import { vigilPaths } from '../../lib/vigil-home';
import { silentLogger } from '../../logging/logger';
import { defaultMemoryLimits, loadMemoryService, memoryDirectoryId, type MemoryService } from '../../memory';
import { makeTempDir } from '../../test-support/temp-dir';
import { createAgentServices, type AgentServices } from '../create-agent-services';

const { CheckpointService: CheckpointEngine } = await loadCheckpointService();
const { restoreServiceFor, writeLedgerFile } = await loadRestoreService();
const { createWriteLedger, createWriteRecorder, recordingWrites } = await loadWriteLedger();

/** The environment git's CLI runs with in tests: no user or system config leaks in. */
export const gitEnv: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

/** One checkpoint commit as git's own CLI reads it from the store. */
export interface LoggedCheckpoint {
  readonly id: string;
  readonly subject: string;
  readonly session: string;
  readonly turn: number;
  readonly tool: string;
}

/** A real core's agent services on a temporary VIGIL_HOME, workspace and home, with a real checkpoint store. */
export interface AgentHarness extends AgentServices {
  readonly base: string;
  readonly home: string;
  readonly workspace: string;
  readonly checkpoints: CheckpointService;
  /** Diff, plan and restore on the same store and write ledger as the agents. */
  readonly restoring: RestoreService;
  readonly events: EventHub;
  /** Every event emitted, in order. */
  readonly emitted: { readonly name: EventName; readonly payload: unknown }[];
  /** Writes config.json. */
  configure(config: unknown): void;
  /** The checkpoints of a directory, newest first, read with `git log` from the store. */
  gitLog(directory: string): LoggedCheckpoint[];
  /** `git ls-tree -r --name-only` of a checkpoint. */
  filesOf(checkpointId: string): string[];
  /** `git show <checkpoint>:<path>`. */
  contentOf(checkpointId: string, relativePath: string): string;
  git(args: readonly string[]): string;
  close(): Promise<void>;
}

/** What `createAgentHarness` builds besides the core's agent services. */
interface AgentHarnessOptions {
  readonly files?: Readonly<Record<string, string>>;
  readonly withMemory?: boolean;
  /** Also manage `<base>/hermes/memories` as Hermes's memory folder. */
  readonly withHermesMemory?: boolean;
  /** The environment agent commands start from, with the harness's home as HOME (default: this process's). */
  readonly commandEnv?: (paths: { readonly home: string; readonly vigilHome: string }) => NodeJS.ProcessEnv;
}

/** Makes the home, VIGIL_HOME and workspace folders under `base`, and lays `files` down in the workspace. */
function layOutFolders(
  base: string,
  files: Readonly<Record<string, string>>,
): { home: string; vigilHome: string; workspace: string } {
  const home = path.join(base, 'home');
  const vigilHome = path.join(base, 'vigil');
  const workspace = path.join(base, 'ws');
  for (const folder of [home, vigilHome, workspace]) mkdirSync(folder, { recursive: true });
  for (const [relative, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(workspace, relative)), { recursive: true });
    writeFileSync(path.join(workspace, relative), content);
  }
  return { home, vigilHome, workspace };
}

/** The memory service over Vigil's memories folder (and Hermes's, when asked), its writes checkpointed. */
async function createHarnessMemory(
  memories: string,
  hermesMemories: string | undefined,
  checkpoints: CheckpointService,
  ledger: WriteLedger,
): Promise<MemoryService> {
  return (await loadMemoryService()).createMemoryService({
    directories: [
      {
        id: memoryDirectoryId(memories),
        path: memories,
        label: 'Vigil memories',
        source: 'vigil',
        limits: defaultMemoryLimits,
      },
      ...(hermesMemories !== undefined
        ? [
            {
              id: memoryDirectoryId(hermesMemories),
              path: hermesMemories,
              label: 'Hermes memories',
              source: 'hermes' as const,
              limits: defaultMemoryLimits,
            },
          ]
        : []),
    ],
    logger: silentLogger,
    checkpoints: recordingWrites(checkpoints, ledger),
  });
}

/** Reads of the checkpoint store through git's own CLI. */
type GitReaders = Pick<AgentHarness, 'gitLog' | 'filesOf' | 'contentOf' | 'git'>;

/** `git log`, `ls-tree` and `show` on the store at `gitdir`, as an independent reader of what Vigil wrote. */
function gitReaders(gitdir: string): GitReaders {
  const git = (args: readonly string[]): string =>
    execFileSync('git', [`--git-dir=${gitdir}`, ...args], {
      env: gitEnv,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    }).trim();
  return {
    gitLog(directory) {
      const ref = `refs/vigil/${dirHash(directory)}`;
      if (!existsSync(gitdir)) return [];
      const exists =
        execFileSync('git', [`--git-dir=${gitdir}`, 'for-each-ref', ref], {
          env: gitEnv,
          encoding: 'utf8',
        }).trim() !== '';
      if (!exists) return [];
      const format =
        '%H%x1f%s%x1f%(trailers:key=Vigil-Session,valueonly,separator=)%x1f%(trailers:key=Vigil-Turn,valueonly,separator=)%x1f%(trailers:key=Vigil-Tool,valueonly,separator=)%x1e';
      return git(['log', `--format=${format}`, ref])
        .split('\x1e')
        .map((record) => record.trim())
        .filter((record) => record !== '')
        .map((record) => {
          const [id = '', subject = '', session = '', turn = '', tool = ''] = record.split('\x1f');
          return { id, subject, session: session.trim(), turn: Number(turn.trim()), tool: tool.trim() };
        });
    },
    filesOf: (checkpointId) =>
      git(['ls-tree', '-r', '--name-only', checkpointId])
        .split('\n')
        .filter((line) => line !== ''),
    contentOf: (checkpointId, relativePath) =>
      execFileSync('git', [`--git-dir=${gitdir}`, 'show', `${checkpointId}:${relativePath}`], {
        env: gitEnv,
        encoding: 'utf8',
      }),
    git,
  };
}

/** Builds the harness; `files` are laid down in the workspace first. */
export async function createAgentHarness(options: AgentHarnessOptions = {}): Promise<AgentHarness> {
  const { dir: base, remove } = await makeTempDir('vigil-exec-');
  const { home, vigilHome, workspace } = layOutFolders(base, options.files ?? {});
  const paths = vigilPaths(vigilHome);
  const hermesMemories = path.join(base, 'hermes', 'memories');
  if (options.withHermesMemory === true) mkdirSync(hermesMemories, { recursive: true });
  const events = new EventHub();
  const emitted: { name: EventName; payload: unknown }[] = [];
  events.onAny((name, payload) => emitted.push({ name, payload }));
  const checkpoints = new CheckpointEngine({
    root: paths.checkpoints,
    logger: silentLogger,
    watch: false,
    workers: 1,
    retention: { maxSnapshots: 10_000 },
  });
  const ledger = createWriteLedger(writeLedgerFile(paths.checkpoints));
  const restoring = restoreServiceFor(checkpoints, paths.checkpoints, silentLogger, events, { ledger });
  const memory =
    options.withMemory === true
      ? await createHarnessMemory(
          paths.memories,
          options.withHermesMemory === true ? hermesMemories : undefined,
          checkpoints,
          ledger,
        )
      : undefined;
  const services = await createAgentServices({
    paths,
    logger: silentLogger,
    events,
    home,
    checkpoints: recordingWrites(checkpoints, ledger),
    writes: createWriteRecorder(checkpoints, ledger),
    restore: restorePortOf(restoring),
    memory,
    env: options.commandEnv?.({ home, vigilHome }),
  });
  return {
    ...services,
    base,
    home,
    workspace,
    checkpoints,
    restoring,
    events,
    emitted,
    configure: (config) => writeFileSync(paths.config, JSON.stringify(config)),
    ...gitReaders(checkpoints.gitdir),
    async close() {
      await services.dispose();
      await memory?.dispose();
      await checkpoints.dispose();
      await remove();
    },
  };
}
