import { describe, expect, it } from 'vitest';
import { formatFinding, scanSchema, type Finding } from './electronegativity-report';
import { gateFindings, type ReviewedFinding } from './reviewed-findings';

function finding(overrides: Partial<Finding>): Finding {
  return {
    check: 'SANDBOX_JS_CHECK',
    severity: 'MEDIUM',
    confidence: 'FIRM',
    file: 'electron/shell/main-window.ts',
    location: '13:17',
    sample: 'const window = new BrowserWindow({',
    description: 'Use sandbox for untrusted origins',
    isReviewPrompt: false,
    ...overrides,
  };
}

describe('the scan report', () => {
  it('accepts what the child process prints, and nothing else', () => {
    const scan = { checksRun: 42, findings: [finding({})], unparsed: ['/tmp/x/out/main/chunk.js'] };
    expect(scanSchema.parse(JSON.parse(JSON.stringify(scan)))).toEqual(scan);
    expect(() => scanSchema.parse({ ...scan, findings: [{ ...finding({}), severity: 'SEVERE' }] })).toThrow();
    expect(() => scanSchema.parse({ checksRun: 42, findings: [] })).toThrow();
  });

  it('prints a finding with its flagged line', () => {
    expect(formatFinding(finding({ sample: '    const window = new BrowserWindow({' }))).toBe(
      'MEDIUM SANDBOX_JS_CHECK electron/shell/main-window.ts:13:17 Use sandbox for untrusted origins\n      const window = new BrowserWindow({',
    );
    expect(formatFinding(finding({ file: 'N/A', location: '0:0', sample: '' }))).toBe(
      'MEDIUM SANDBOX_JS_CHECK N/A:0:0 Use sandbox for untrusted origins',
    );
  });
});

describe('the gate', () => {
  const review: ReviewedFinding = {
    check: 'PRELOAD_JS_CHECK',
    file: 'electron/shell/main-window.ts',
    sample: 'preload: options.preloadPath,',
    conclusion: 'reviewed',
  };
  const prompt = finding({
    check: 'PRELOAD_JS_CHECK',
    sample: '      preload: options.preloadPath,',
    isReviewPrompt: true,
  });

  it('fails on high and medium findings, and lets low ones through as notes', () => {
    const high = finding({ check: 'CONTEXT_ISOLATION_JS_CHECK', severity: 'HIGH' });
    const low = finding({ check: 'CSP_GLOBAL_CHECK', severity: 'LOW' });
    const gate = gateFindings([high, low], []);
    expect(gate.failures).toEqual([high]);
    expect(gate.notes).toEqual([low]);
  });

  it('accepts a review prompt only with a review of that exact line', () => {
    expect(gateFindings([prompt], [review])).toEqual({
      failures: [],
      reviewed: [{ finding: prompt, review }],
      notes: [],
      staleReviews: [],
    });
    const moved = { ...prompt, sample: 'preload: somethingElse,' };
    expect(gateFindings([moved], [review]).failures).toEqual([moved]);
    expect(gateFindings([prompt], []).failures).toEqual([prompt]);
  });

  it('never lets a review excuse a detected flaw, and reports reviews that match nothing', () => {
    const flaw = { ...prompt, isReviewPrompt: false };
    expect(gateFindings([flaw], [review])).toEqual({
      failures: [flaw],
      reviewed: [],
      notes: [],
      staleReviews: [review],
    });
  });
});
