import type { Finding } from './electronegativity-report';

/**
 * A finding electronegativity raises as a prompt to review the code (not as a detected flaw), with
 * the review's conclusion. It matches one exact finding (check, file, flagged line); when the code
 * changes, the finding no longer matches and fails the gate until it is reviewed again.
 */
export interface ReviewedFinding {
  readonly check: string;
  readonly file: string;
  /** The flagged line, trimmed. */
  readonly sample: string;
  /** What was reviewed and why it is right; points at docs/security.md. */
  readonly conclusion: string;
}

/** Review prompts that have been reviewed (docs/security.md, "electronegativity"). */
export const reviewedFindings: readonly ReviewedFinding[] = [
  {
    check: 'PRELOAD_JS_CHECK',
    file: 'electron/shell/main-window.ts',
    sample: 'preload: options.preloadPath,',
    conclusion:
      'The only preload, electron/preload.ts, exposes call(channel, payload) for contract channels and onEvent through contextBridge; ' +
      'no ipcRenderer, no Node, no Electron object crosses into the page (docs/security.md, item 20).',
  },
];

/** How the gate judged a scan. */
export interface GateResult {
  /** High or medium findings that are flaws, or review prompts nobody has reviewed. */
  readonly failures: readonly Finding[];
  /** Review prompts matched by a recorded review. */
  readonly reviewed: readonly { readonly finding: Finding; readonly review: ReviewedFinding }[];
  /** Low and informational findings, shown but not failing. */
  readonly notes: readonly Finding[];
  /** Recorded reviews that match nothing any more: the list must stay honest, so these fail too. */
  readonly staleReviews: readonly ReviewedFinding[];
}

/** Applies the gate: any high or medium finding fails unless it is a review prompt with a recorded review. */
export function gateFindings(findings: readonly Finding[], reviews: readonly ReviewedFinding[]): GateResult {
  const failures: Finding[] = [];
  const reviewed: { finding: Finding; review: ReviewedFinding }[] = [];
  const notes: Finding[] = [];
  const used = new Set<ReviewedFinding>();
  for (const finding of findings) {
    if (finding.severity !== 'HIGH' && finding.severity !== 'MEDIUM') {
      notes.push(finding);
      continue;
    }
    const review = finding.isReviewPrompt
      ? reviews.find(
          (candidate) =>
            candidate.check === finding.check &&
            candidate.file === finding.file &&
            candidate.sample === finding.sample.trim(),
        )
      : undefined;
    if (review === undefined) {
      failures.push(finding);
    } else {
      used.add(review);
      reviewed.push({ finding, review });
    }
  }
  return { failures, reviewed, notes, staleReviews: reviews.filter((review) => !used.has(review)) };
}
