import { describeActor } from '../../shared/contract/actor-model';
import type { RewindMode, RewindPlan, SessionHistory } from '../../shared/contract/sessions-contract';
import type { AppErrorData } from '../../shared/errors';
import { baseName, formatClock } from '../model/format';
import type { PlanFile } from '../model/plan-summary';
import { clip } from '../model/tool-call-summary';
import { ErrorNotice } from './error-notice';
import { PlanConfirmation } from './plan-confirmation';
import { escapeControls } from '../../shared/text/control-characters';

const modes: readonly (readonly [RewindMode, string, string])[] = [
  ['both', 'Code and conversation', 'files go back, and the agent forgets these turns'],
  ['code', 'Code only', 'files go back; the conversation stays'],
  ['conversation', 'Conversation only', 'the agent forgets these turns; files stay'],
];

/** The key of a file among the others' files the person chose to take back. */
function fileKey(directory: string, path: string): string {
  return `${directory}\0${path}`;
}

/** The files the rewind changes: its own, and those of others the person chose to take back too. */
function planFiles(plan: RewindPlan, overwrite: ReadonlySet<string>): PlanFile[] {
  const isSeveral = plan.directories.length > 1;
  return plan.directories.flatMap((directory) =>
    directory.files
      .filter((file) => file.isOthers !== true || overwrite.has(fileKey(directory.directory, file.path)))
      .map((file) => ({
        path: isSeveral ? `${baseName(directory.directory)}/${file.path}` : file.path,
        action: file.action,
        reason: file.reason,
        isChangedOutside: file.isChangedOutside,
        changedBy: file.changedBy === undefined ? undefined : escapeControls(describeActor(file.changedBy)),
      })),
  );
}

/** Who made a file's current version and when, in words. */
function changedWords(file: RewindPlan['directories'][number]['files'][number]): string {
  const who = file.changedBy === undefined ? 'outside Vigil' : escapeControls(describeActor(file.changedBy));
  return file.changedAt === undefined ? `changed by ${who}` : `changed by ${who} at ${formatClock(file.changedAt)}`;
}

/**
 * The files someone else changed after the turn, with who and when: each stays theirs unless the
 * person ticks it, and then it goes back with the rest (the pre-rollback snapshot keeps their version).
 */
function OthersFiles({
  plan,
  overwrite,
  isApplying,
  onToggle,
}: {
  readonly plan: RewindPlan;
  readonly overwrite: ReadonlySet<string>;
  readonly isApplying: boolean;
  readonly onToggle: (directory: string, path: string) => void;
}) {
  const others = plan.directories.flatMap((directory) =>
    directory.files.filter((file) => file.isOthers === true).map((file) => ({ directory: directory.directory, file })),
  );
  if (others.length === 0) return null;
  return (
    <div className="plan-groups">
      <div className="plan-group" data-action="skip" data-testid="rewind-others" data-count={others.length}>
        <div className="plan-group-title">
          <span className="plan-action-mark" aria-hidden="true" />
          Changed by others since: {others.length === 1 ? '1 file' : `${others.length} files`}
          <span className="plan-group-hint">kept as they are unless you tick them</span>
        </div>
        <ul>
          {others.map(({ directory, file }) => {
            const isChosen = overwrite.has(fileKey(directory, file.path));
            return (
              <li
                key={fileKey(directory, file.path)}
                data-testid="rewind-other-file"
                data-path={file.path}
                data-choice={isChosen ? 'overwrite' : 'keep'}
              >
                <label>
                  <input
                    type="checkbox"
                    data-testid="rewind-other-choice"
                    checked={isChosen}
                    disabled={isApplying}
                    onChange={() => onToggle(directory, file.path)}
                  />{' '}
                  <span className="plan-path">{escapeControls(file.path)}</span>
                </label>
                <span className="plan-reason">
                  {changedWords(file)}: {isChosen ? 'goes back too (theirs is lost)' : 'keep theirs'}
                </span>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}

function firstUserMessage(history: SessionHistory | undefined, turn: number): string | undefined {
  const found = history?.turns.find((candidate) => candidate.turn === turn);
  const message = found?.entries.find((entry) => entry.kind === 'message' && entry.role === 'user');
  return message?.kind === 'message' ? escapeControls(clip(message.text, 90)) : undefined;
}

/** Code, conversation or both: one radio button each, off while the rewind runs. */
function RewindModes({
  mode,
  isApplying,
  onChooseMode,
}: {
  readonly mode: RewindMode;
  readonly isApplying: boolean;
  readonly onChooseMode: (mode: RewindMode) => void;
}) {
  return (
    <div className="rewind-modes segmented" role="radiogroup" aria-label="What to rewind">
      {modes.map(([value, name, hint]) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={value === mode}
          aria-pressed={value === mode}
          title={hint}
          data-testid={`rewind-mode-${value}`}
          disabled={isApplying}
          onClick={() => onChooseMode(value)}
        >
          {name}
        </button>
      ))}
    </div>
  );
}

/** The turns the agent would forget, each with its first message. */
function ForgottenTurns({
  turns,
  history,
}: {
  readonly turns: readonly number[];
  readonly history: SessionHistory | undefined;
}) {
  return (
    <div className="plan-groups">
      <div className="plan-group" data-action="delete" data-testid="rewind-turns" data-count={turns.length}>
        <div className="plan-group-title">
          <span className="plan-action-mark" aria-hidden="true" />
          Forget {turns.length === 1 ? '1 turn' : `${turns.length} turns`}
          <span className="plan-group-hint">kept in the log, marked rewound; the agent is told</span>
        </div>
        <ul>
          {turns.map((turn) => (
            <li key={turn}>
              <span className="plan-path">Turn {turn}</span>
              <span className="plan-reason">{firstUserMessage(history, turn) ?? ''}</span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** The rewind a dialog plans and where its choices go. */
export interface RewindDialogProps {
  readonly toTurn: number;
  readonly mode: RewindMode;
  readonly phase: 'planning' | 'confirming' | 'applying';
  readonly plan: RewindPlan | undefined;
  readonly error: AppErrorData | undefined;
  readonly history: SessionHistory | undefined;
  readonly onChooseMode: (mode: RewindMode) => void;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  /** Files others changed after the turn that go back too (`directory\0path`). */
  readonly overwrite?: ReadonlySet<string>;
  readonly onToggleOverwrite: (directory: string, path: string) => void;
}

/**
 * Turn undo: pick code, conversation or both, see exactly which turns are forgotten and which
 * files change, then confirm with one click. Nothing happens before the confirmation.
 */
export function RewindDialog({
  toTurn,
  mode,
  phase,
  plan,
  error,
  history,
  onChooseMode,
  onConfirm,
  onCancel,
  overwrite = new Set<string>(),
  onToggleOverwrite,
}: RewindDialogProps) {
  const files = plan === undefined ? [] : planFiles(plan, overwrite);
  const turns = plan?.turns ?? [];
  const changesSomething = plan !== undefined && (turns.length > 0 || files.some((file) => file.action !== 'skip'));
  const label = modes.find(([value]) => value === mode)?.[1] ?? '';
  return (
    <div className="overlay">
      <PlanConfirmation
        title={`Rewind to the start of turn ${toTurn}`}
        files={files}
        problems={[...(plan?.problems ?? []), ...(plan?.directories.flatMap((directory) => directory.problems) ?? [])]}
        confirmLabel={`Rewind: ${label.toLowerCase()}`}
        isApplying={phase === 'applying'}
        isPlanning={phase === 'planning'}
        canConfirm={phase === 'confirming' && changesSomething}
        nothingMessage={
          phase === 'planning'
            ? 'Working out what would change…'
            : 'Nothing would change: no later turn, no file to put back.'
        }
        onConfirm={onConfirm}
        onCancel={onCancel}
        footnote="Files are snapshotted first, so a code rewind can itself be undone from the timeline."
        testId="rewind-plan"
      >
        <RewindModes mode={mode} isApplying={phase === 'applying'} onChooseMode={onChooseMode} />
        {error !== undefined && (
          <div className="plan-groups">
            <ErrorNotice error={error} />
          </div>
        )}
        {turns.length > 0 && <ForgottenTurns turns={turns} history={history} />}
        {plan !== undefined && (
          <OthersFiles
            plan={plan}
            overwrite={overwrite}
            isApplying={phase === 'applying'}
            onToggle={onToggleOverwrite}
          />
        )}
      </PlanConfirmation>
    </div>
  );
}
