import type { MemoryChange } from '../../../shared/contract/memory-contract';
import { baseName, formatClock } from '../../model/format';
import { EntryDiffView } from './entry-diff';
import { escapeControls } from '../../../shared/text/control-characters';

/** One change of a memory file in the live feed: when, which file, by whom, and the entries it changed. */
export function MemoryChangeItem({ change }: { readonly change: MemoryChange }) {
  const isExternal = change.source === 'external';
  return (
    <li className="memory-change" data-testid="memory-change" data-source={change.source} data-target={change.target}>
      <div className="memory-change-head">
        <time dateTime={change.at}>{formatClock(change.at)}</time>
        <span className="mono">{escapeControls(baseName(change.file))}</span>
        <span className="badge" data-kind={isExternal ? 'waiting-approval' : 'idle'}>
          {isExternal ? 'edited outside Vigil' : 'written by Vigil'}
        </span>
        {!change.current.exists && (
          <span className="badge" data-kind="deleted">
            file removed
          </span>
        )}
        {change.drift.isDrifted && (
          <span className="badge" data-kind="drift">
            drift
          </span>
        )}
        {change.notifications > 1 && (
          <span className="subtle" title="Several writes came too fast to read each one; the diff covers them all">
            {change.notifications} writes folded
          </span>
        )}
      </div>
      <EntryDiffView diff={change.diff} />
    </li>
  );
}
