import type { MemoryDirectoryInfo } from '../../../shared/contract/memory-contract';
import { AdoptionDialog } from './adoption-dialog';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { MemoryChangeItem } from './memory-change-item';
import { MemoryFileCard } from './memory-file-card';
import { useNow } from '../../components/use-now';
import { idle } from '../../model/load-state';
import { memoryFileKey, memoryTargets } from '../../model/memory-files';
import { useAppStore } from '../../stores/store-context';
import { escapeControls } from '../../../shared/text/control-characters';

/** Why there is no directory to show: it failed to load (with a retry), is loading, or none is configured. */
function NoMemoryDirectories() {
  const load = useAppStore((state) => state.memoryLoad);
  const loadMemory = useAppStore((state) => state.loadMemory);
  if (load.kind === 'failed') {
    return (
      <div className="screen screen-scroll">
        <ErrorNotice error={load.error} onRetry={() => void loadMemory()} />
      </div>
    );
  }
  return (
    <EmptyState title={load.kind === 'ready' ? 'No memory directories' : 'Loading memory…'} testId="memory-empty">
      <p>MEMORY.md and USER.md of each memory directory appear here, with edits from outside Vigil as they happen.</p>
      <p>
        Vigil watches <code>$VIGIL_HOME/memories</code>, <code>~/.hermes/memories</code> when it exists, and the
        directories listed under <code>memory.directories</code> in <code>config.json</code>.
      </p>
    </EmptyState>
  );
}

/** The screen's title, the directory picker (when there are several), the directory's path and whether it is watched. */
function MemoryHeader({
  directories,
  directory,
}: {
  readonly directories: readonly MemoryDirectoryInfo[];
  readonly directory: MemoryDirectoryInfo;
}) {
  const navigate = useAppStore((state) => state.navigate);
  return (
    <div className="screen-header">
      <h2>Memory</h2>
      {directories.length > 1 && (
        <div className="segmented" role="group" aria-label="Memory directory">
          {directories.map((candidate) => (
            <button
              key={candidate.id}
              type="button"
              aria-pressed={candidate.id === directory.id}
              title={candidate.path}
              onClick={() => navigate({ screen: 'memory', dirId: candidate.id })}
            >
              {candidate.label}
            </button>
          ))}
        </div>
      )}
      <span className="mono subtle" title={`Source: ${directory.source}`}>
        {escapeControls(directory.path)}
      </span>
      <span className="spacer" />
      <span className="badge" data-kind={directory.isWatched ? 'running' : 'drift'} data-testid="memory-watched">
        {directory.isWatched ? 'watching for edits' : directory.exists ? 'not watched' : 'folder missing'}
      </span>
    </div>
  );
}

/** One card per memory file of the directory. */
function MemoryFiles({ dir }: { readonly dir: string }) {
  const files = useAppStore((state) => state.memoryFiles);
  const backups = useAppStore((state) => state.memoryBackups);
  const navigate = useAppStore((state) => state.navigate);
  const refreshMemoryFile = useAppStore((state) => state.refreshMemoryFile);
  const proposeAdoption = useAppStore((state) => state.proposeAdoption);
  const keepAppended = useAppStore((state) => state.keepAppended);
  const rejectExternalEdit = useAppStore((state) => state.rejectExternalEdit);
  const now = useNow(5000);
  return (
    <div className="memory-files" data-main-list="" tabIndex={-1} aria-label="Memory files">
      {memoryTargets.map(([target, name]) => {
        const key = memoryFileKey(dir, target);
        const file = files[key];
        return (
          <MemoryFileCard
            key={key}
            name={name}
            testId={`memory-file-${target}`}
            load={file?.load ?? idle}
            view={file?.view}
            backupPath={backups[key]}
            now={now}
            onAdopt={() => void proposeAdoption(dir, target)}
            onKeepAppended={() => void keepAppended(dir, target)}
            onReject={() => void rejectExternalEdit(dir, target)}
            onShowHistory={() => navigate({ screen: 'timeline', dir })}
            onRetry={() => void refreshMemoryFile(dir, target)}
          />
        );
      })}
    </div>
  );
}

/** The directory's memory changes seen since the window opened, newest first. */
function MemoryChanges({ dir }: { readonly dir: string }) {
  const changes = useAppStore((state) => state.memoryChanges);
  const directoryChanges = changes.filter((change) => change.dir === dir);
  return (
    <section className="memory-changes" aria-label="Recent changes">
      <h3>Changes since this window opened</h3>
      {directoryChanges.length === 0 ? (
        <p className="muted">
          None yet. Edits by agents through Vigil and by anything else (an editor, another session,{' '}
          <code>cat &gt;&gt;</code>) show here as they happen.
        </p>
      ) : (
        <ul className="memory-change-list" data-testid="memory-changes">
          {directoryChanges.map((change) => (
            <MemoryChangeItem
              key={`${change.at}:${change.target}:${change.current.sha256 ?? 'none'}`}
              change={change}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/** The adoption dialog, while an adoption of one of the directory's files is under way. */
function MemoryAdoption({ dir }: { readonly dir: string }) {
  const adoption = useAppStore((state) => state.adoption);
  const chooseAdoptionStrategy = useAppStore((state) => state.chooseAdoptionStrategy);
  const editAdoptionEntries = useAppStore((state) => state.editAdoptionEntries);
  const adoptMemory = useAppStore((state) => state.adoptMemory);
  const cancelAdoption = useAppStore((state) => state.cancelAdoption);
  if (adoption === undefined || adoption.dir !== dir) return null;
  const adoptionName = memoryTargets.find(([target]) => target === adoption.target)?.[1] ?? '';
  return (
    <AdoptionDialog
      fileName={adoptionName}
      phase={adoption.phase}
      plan={adoption.plan}
      strategy={adoption.strategy}
      entries={adoption.entries}
      error={adoption.error}
      onChoose={chooseAdoptionStrategy}
      onEdit={editAdoptionEntries}
      onAdopt={() => void adoptMemory()}
      onCancel={cancelAdoption}
    />
  );
}

/** The agents' memory files: entries, usage against the limit, external edits as they happen, drift and adoption. */
export function MemoryScreen() {
  const directories = useAppStore((state) => state.memoryDirectories);
  const route = useAppStore((state) => state.route);
  if (directories.length === 0) return <NoMemoryDirectories />;

  const selectedId = route.screen === 'memory' ? route.dirId : undefined;
  const directory = directories.find((candidate) => candidate.id === selectedId) ?? directories[0];
  if (directory === undefined) return null;

  return (
    <div className="screen" data-testid="memory-screen">
      <MemoryHeader directories={directories} directory={directory} />
      <div className="screen-scroll">
        <MemoryFiles dir={directory.path} />
        <MemoryChanges dir={directory.path} />
      </div>
      <MemoryAdoption dir={directory.path} />
    </div>
  );
}
