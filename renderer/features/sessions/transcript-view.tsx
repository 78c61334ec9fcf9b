import type { HistoryToolCall, HistoryTurn, SessionHistory } from '../../../shared/contract/sessions-contract';
import { maskSecretValues } from '../../../shared/secrets/mask-secret-values';
import { baseName, formatClock, shortId } from '../../model/format';
import { summarizeArguments } from '../../model/tool-call-summary';
import { changesWords, turnChanges } from '../../../shared/sessions/turn-changes';
import { escapeControls } from '../../../shared/text/control-characters';
import { CallCollisionNotes, type RestoreTheirs } from './call-collision-notes';
import { OverwriteNotes } from './overwrite-notes';

/** A call's collisions both ways: what it overwrote of another session's, and what another session's call overwrote of its change. */
function CallCollisionRows({
  call,
  onRestoreTheirs,
}: {
  readonly call: HistoryToolCall;
  readonly onRestoreTheirs?: RestoreTheirs | undefined;
}) {
  return (
    <>
      {call.collisions !== undefined && (
        <CallCollisionNotes
          collisions={call.collisions}
          ranAt={Date.parse(call.at)}
          onRestoreTheirs={onRestoreTheirs}
        />
      )}
      {call.overwrittenBy !== undefined && (
        <OverwriteNotes notices={call.overwrittenBy} onRestoreMine={onRestoreTheirs} />
      )}
    </>
  );
}

function ToolCallEntry({
  call,
  onOpenCheckpoint,
  onRestoreTheirs,
}: {
  readonly call: HistoryToolCall;
  readonly onOpenCheckpoint: (dir: string, id: string) => void;
  readonly onRestoreTheirs?: RestoreTheirs | undefined;
}) {
  const ran = call.decision === 'allowed' || call.decision === 'asked-allowed';
  return (
    <li
      className="transcript-call"
      data-testid="transcript-call"
      data-decision={call.decision}
      data-ok={call.result.ok ? 'true' : 'false'}
    >
      <div className="transcript-call-head">
        <span className="session-tool">{call.name}</span>
        <span className="mono transcript-args" title={summarizeArguments(call.name, call.arguments)}>
          {summarizeArguments(call.name, call.arguments)}
        </span>
        <span className="badge" data-kind={call.result.ok || !ran ? call.decision : 'failed'}>
          {call.result.ok || !ran ? call.decision : 'failed'}
        </span>
        {call.durationMs !== undefined && <span className="subtle">{Math.round(call.durationMs)} ms</span>}
      </div>
      {call.reason !== undefined && (
        <div className="transcript-note">{escapeControls(maskSecretValues(call.reason), { keepLineBreaks: true })}</div>
      )}
      <CallCollisionRows call={call} onRestoreTheirs={onRestoreTheirs} />
      {!call.result.ok && (
        <div className="transcript-error">
          {escapeControls(maskSecretValues(call.result.error.message), { keepLineBreaks: true })}
        </div>
      )}
      {call.isInterrupted && (
        <div className="transcript-error">
          Interrupted: Vigil stopped before this call finished; it may have partly run.
        </div>
      )}
      {call.checkpointProblems.map((problem) => (
        <div key={problem} className="transcript-error">
          No checkpoint: {escapeControls(problem)}
        </div>
      ))}
      {call.checkpoints.some(
        (checkpoint) => checkpoint.kind === 'created' && checkpoint.checkpointId !== undefined,
      ) && (
        <div className="transcript-checkpoints">
          {call.checkpoints.map((checkpoint) =>
            checkpoint.kind === 'created' && checkpoint.checkpointId !== undefined ? (
              <button
                key={checkpoint.checkpointId}
                type="button"
                className="chip"
                title={`Checkpoint of ${escapeControls(checkpoint.directory)} taken before this call`}
                onClick={() => onOpenCheckpoint(checkpoint.directory, checkpoint.checkpointId ?? '')}
              >
                checkpoint {shortId(checkpoint.checkpointId)} · {escapeControls(baseName(checkpoint.directory))}
              </button>
            ) : null,
          )}
        </div>
      )}
      {[...new Set(call.checkpoints.flatMap((checkpoint) => checkpoint.notCovered ?? []))].map((gap) => (
        <div key={gap} className="transcript-note" data-testid="checkpoint-not-covered">
          Not covered by the checkpoint, so it cannot be undone: {gap}
        </div>
      ))}
    </li>
  );
}

/** The turn's own changeset, as its timeline rows and `vigil sessions show --turn` count it. */
function TurnChangesLine({ turn }: { readonly turn: HistoryTurn }) {
  const changes = turnChanges(turn.entries.flatMap((entry) => (entry.kind === 'tool-call' ? [entry] : [])));
  if (changes.counts.files === 0) return null;
  return (
    <span
      className="subtle"
      data-testid="transcript-turn-changes"
      data-files={changes.counts.files}
      data-insertions={changes.counts.insertions}
      data-deletions={changes.counts.deletions}
      title={changes.files.map((file) => escapeControls(file.path)).join('\n')}
    >
      {changesWords(changes)}
    </span>
  );
}

function TurnBlock({
  turn,
  onRewind,
  onOpenCheckpoint,
  onRestoreTheirs,
}: {
  readonly turn: HistoryTurn;
  readonly onRewind: (turn: number) => void;
  readonly onOpenCheckpoint: (dir: string, id: string) => void;
  readonly onRestoreTheirs?: RestoreTheirs | undefined;
}) {
  return (
    <section
      className="transcript-turn"
      data-testid="transcript-turn"
      data-turn={turn.turn}
      data-rewound={turn.isRewound ? 'true' : 'false'}
    >
      <header className="transcript-turn-head">
        <h4>Turn {turn.turn}</h4>
        <time className="subtle" dateTime={turn.startedAt}>
          {formatClock(turn.startedAt)}
        </time>
        {turn.isRewound && (
          <span className="badge" data-kind="restore-point">
            rewound
          </span>
        )}
        <TurnChangesLine turn={turn} />
        <span className="spacer" />
        {!turn.isRewound && (
          <button
            type="button"
            className="button button-small"
            data-testid="rewind-here"
            onClick={() => onRewind(turn.turn)}
            title="Undo this turn and every later one: the code, the conversation or both. Shows what will change first."
          >
            Rewind to here
          </button>
        )}
      </header>
      <ol className="transcript-entries">
        {turn.entries.map((entry, index) =>
          entry.kind === 'message' ? (
            <li key={index} className="transcript-message" data-role={entry.role} data-testid="transcript-message">
              <span className="transcript-role">{entry.role === 'user' ? 'User' : 'Agent'}</span>
              <span className="transcript-text">
                {escapeControls(maskSecretValues(entry.text), { keepLineBreaks: true })}
              </span>
            </li>
          ) : (
            <ToolCallEntry
              key={entry.callId}
              call={entry}
              onOpenCheckpoint={onOpenCheckpoint}
              onRestoreTheirs={onRestoreTheirs}
            />
          ),
        )}
        {turn.entries.length === 0 && <li className="subtle">Nothing yet in this turn.</li>}
      </ol>
    </section>
  );
}

/** A session's transcript: turns, newest last, with messages, tool calls, decisions and the checkpoints taken. */
export function TranscriptView({
  history,
  onRewind,
  onOpenCheckpoint,
  onRestoreTheirs,
}: {
  readonly history: SessionHistory;
  readonly onRewind: (turn: number) => void;
  readonly onOpenCheckpoint: (dir: string, id: string) => void;
  /** Restores one file from a checkpoint: the other session's version a call overwrote (its row's collision), or this session's version another session's call overwrote. */
  readonly onRestoreTheirs?: RestoreTheirs | undefined;
}) {
  if (history.turns.length === 0)
    return <p className="muted">No turns yet: the agent has connected and done nothing so far.</p>;
  return (
    <div className="transcript" data-testid="transcript" data-turns={history.turns.length}>
      {history.turns.map((turn) => (
        <TurnBlock
          key={turn.turn}
          turn={turn}
          onRewind={onRewind}
          onOpenCheckpoint={onOpenCheckpoint}
          onRestoreTheirs={onRestoreTheirs}
        />
      ))}
    </div>
  );
}
