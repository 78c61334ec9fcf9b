import { AdoptionDialog } from '../../components/adoption-dialog';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { MemoryChangeItem } from '../../components/memory-change-item';
import { MemoryFileCard } from '../../components/memory-file-card';
import { useNow } from '../../components/use-now';
import { idle } from '../../model/load-state';
import { memoryFileKey, memoryTargets } from '../../model/memory-files';
import { useAppStore } from '../../stores/store-context';
import { escapeControls } from '../../../shared/text/control-characters';

/** The agents' memory files: entries, usage against the limit, external edits as they happen, drift and adoption. */
export function MemoryScreen() {
  const directories = useAppStore((state) => state.memoryDirectories);
  const load = useAppStore((state) => state.memoryLoad);
  const files = useAppStore((state) => state.memoryFiles);
  const changes = useAppStore((state) => state.memoryChanges);
  const backups = useAppStore((state) => state.memoryBackups);
  const adoption = useAppStore((state) => state.adoption);
  const route = useAppStore((state) => state.route);
  const navigate = useAppStore((state) => state.navigate);
  const loadMemory = useAppStore((state) => state.loadMemory);
  const refreshMemoryFile = useAppStore((state) => state.refreshMemoryFile);
  const proposeAdoption = useAppStore((state) => state.proposeAdoption);
  const chooseAdoptionStrategy = useAppStore((state) => state.chooseAdoptionStrategy);
  const editAdoptionEntries = useAppStore((state) => state.editAdoptionEntries);
  const keepAppended = useAppStore((state) => state.keepAppended);
  const adoptMemory = useAppStore((state) => state.adoptMemory);
  const cancelAdoption = useAppStore((state) => state.cancelAdoption);
  const now = useNow(5000);

  if (load.kind === 'failed' && directories.length === 0) {
    return (
      <div className="screen screen-scroll">
        <ErrorNotice error={load.error} onRetry={() => void loadMemory()} />
      </div>
    );
  }
  if (directories.length === 0) {
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

  const selectedId = route.screen === 'memory' ? route.dirId : undefined;
  const directory = directories.find((candidate) => candidate.id === selectedId) ?? directories[0];
  if (directory === undefined) return null;
  const directoryChanges = changes.filter((change) => change.dir === directory.path);
  const adoptionName = memoryTargets.find(([target]) => target === adoption?.target)?.[1] ?? '';

  return (
    <div className="screen" data-testid="memory-screen">
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
      <div className="screen-scroll">
        <div className="memory-files" data-main-list="" tabIndex={-1} aria-label="Memory files">
          {memoryTargets.map(([target, name]) => {
            const key = memoryFileKey(directory.path, target);
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
                onAdopt={() => void proposeAdoption(directory.path, target)}
                onKeepAppended={() => void keepAppended(directory.path, target)}
                onShowHistory={() => navigate({ screen: 'timeline', dir: directory.path })}
                onRetry={() => void refreshMemoryFile(directory.path, target)}
              />
            );
          })}
        </div>
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
      </div>
      {adoption !== undefined && adoption.dir === directory.path && (
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
      )}
    </div>
  );
}
