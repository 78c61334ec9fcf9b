import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { AdoptionPlan, AdoptionStrategy } from '../../../shared/contract/memory-contract';
import type { AppErrorData } from '../../../shared/errors';
import { entriesUsage, type EntriesUsage } from '../../model/adoption-entries';
import { AdoptionEntryList, type EntriesEdit } from './adoption-entry-list';
import { ErrorNotice } from '../../components/error-notice';
import { UsageBar } from './usage-bar';

const strategyLabels: Readonly<Record<AdoptionStrategy, string>> = {
  delimiter: 'By § delimiter',
  'blank-lines': 'By blank lines',
  headings: 'By headings',
  lines: 'One per line',
};

/** What the adoption dialog shows and what it reports back. */
export interface AdoptionDialogProps {
  readonly fileName: string;
  readonly phase: AdoptionPhase;
  readonly plan: AdoptionPlan | undefined;
  readonly strategy: AdoptionStrategy | undefined;
  readonly entries: readonly string[];
  readonly error: AppErrorData | undefined;
  readonly onChoose: (strategy: AdoptionStrategy) => void;
  readonly onEdit: (edit: EntriesEdit) => void;
  readonly onAdopt: () => void;
  readonly onCancel: () => void;
}

/** Where an adoption stands: the file is being read, a split is being chosen and edited, or the entries are being written. */
type AdoptionPhase = 'proposing' | 'choosing' | 'adopting';

/** The ways the text can be split, one button each, with its count of entries and whether they fit. */
function StrategyChoice({
  plan,
  strategy,
  phase,
  onChoose,
}: Pick<AdoptionDialogProps, 'strategy' | 'onChoose'> & {
  readonly plan: AdoptionPlan;
  readonly phase: AdoptionPhase;
}) {
  return (
    <div className="adoption-strategies segmented" role="group" aria-label="How to split">
      {plan.proposals.map((candidate) => (
        <button
          key={candidate.strategy}
          type="button"
          aria-pressed={candidate.strategy === strategy}
          onClick={() => onChoose(candidate.strategy)}
          disabled={phase === 'adopting'}
        >
          {strategyLabels[candidate.strategy]} · {candidate.entries.length}
          {candidate.fits ? '' : ' (too long)'}
        </button>
      ))}
    </div>
  );
}

/** The entries of the chosen split, their usage against the limit, and a warning while they do not fit. */
function ProposedEntries({
  entries,
  usage,
  phase,
  onEdit,
}: Pick<AdoptionDialogProps, 'entries' | 'phase' | 'onEdit'> & { readonly usage: EntriesUsage }) {
  return (
    <div className="plan-groups">
      <UsageBar chars={usage.chars} limit={usage.limit} testId="adoption-usage" />
      {!usage.fits && (
        <p className="plan-warning">
          These entries are over the limit. Shorten, merge or remove some, or pick another split; nothing is written
          until they fit.
        </p>
      )}
      <AdoptionEntryList entries={entries} isDisabled={phase !== 'choosing'} onEdit={onEdit} />
    </div>
  );
}

/** The footnote, Cancel, and the button that writes the entries (only when there are some and they fit). */
function AdoptionFooter({
  phase,
  count,
  fits,
  onAdopt,
  onCancel,
}: Pick<AdoptionDialogProps, 'phase' | 'onAdopt' | 'onCancel'> & { readonly count: number; readonly fits: boolean }) {
  return (
    <footer className="plan-footer">
      <span className="plan-footnote">
        Vigil re-reads the file first and refuses if it changed since these proposals.
      </span>
      <button type="button" className="button button-quiet" onClick={onCancel} disabled={phase === 'adopting'}>
        Cancel
      </button>
      <button
        type="button"
        className="button button-primary"
        data-testid="adopt-confirm"
        onClick={onAdopt}
        disabled={phase !== 'choosing' || count === 0 || !fits}
      >
        {phase === 'adopting' ? 'Adopting…' : `Adopt ${count} ${count === 1 ? 'entry' : 'entries'}`}
      </button>
    </footer>
  );
}

/**
 * Adopting a memory file (a drifted one, or any the user wants to reshape): the ways its text can
 * be split into entries, the entries of the chosen one to edit, split, merge or remove by hand,
 * their usage against the limit, and one button to write them (the original is kept as a backup).
 */
export function AdoptionDialog({
  fileName,
  phase,
  plan,
  strategy,
  entries,
  error,
  onChoose,
  onEdit,
  onAdopt,
  onCancel,
}: AdoptionDialogProps) {
  const panelRef = useRef<HTMLDivElement | null>(null);
  const limit = plan?.proposals[0]?.usage.limit ?? 0;
  const usage = entriesUsage(entries, limit);
  const count = entries.length - usage.empty;
  useEffect(() => {
    panelRef.current?.focus();
  }, []);
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    if (event.key === 'Escape' && phase !== 'adopting') {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  }
  return (
    <div className="overlay">
      <div
        ref={panelRef}
        className="plan adoption"
        role="dialog"
        aria-label={`Adopt ${fileName}`}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-testid="adoption"
        data-state={phase}
      >
        <header className="plan-header">
          <h3>Adopt {fileName}</h3>
          <span className="plan-headline">
            Split its text into entries, then edit, split or merge them; the original is kept as a backup.
          </span>
        </header>
        {phase === 'proposing' && <p className="plan-nothing">Reading the file…</p>}
        {error !== undefined && (
          <div className="plan-groups">
            <ErrorNotice error={error} />
          </div>
        )}
        {plan !== undefined && (
          <>
            <StrategyChoice plan={plan} strategy={strategy} phase={phase} onChoose={onChoose} />
            <ProposedEntries entries={entries} usage={usage} phase={phase} onEdit={onEdit} />
          </>
        )}
        <AdoptionFooter phase={phase} count={count} fits={usage.fits} onAdopt={onAdopt} onCancel={onCancel} />
      </div>
    </div>
  );
}
