import { describe, expect, it } from 'vitest';
import { combineReports, parseCsv, parseElectronegativityCsv, parseElectronegativitySarif, unparsedFiles, type Finding } from './electronegativity-report';
import { gateFindings, type ReviewedFinding } from './reviewed-findings';

const header = 'issue, severity, confidence, filename, location, sample, description, url';

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

describe('the electronegativity CSV report', () => {
  it('splits quoted fields holding commas, quotes and line breaks', () => {
    expect(parseCsv('a,"b, ""c""",N/A\r\n"multi\nline",x,\n')).toEqual([
      ['a', 'b, "c"', 'N/A'],
      ['multi\nline', 'x', ''],
    ]);
    expect(() => parseCsv('"open')).toThrow(/inside a quoted field/);
  });

  it('reads the rows electronegativity writes', () => {
    const text = [
      header,
      'CSP_GLOBAL_CHECK,"MEDIUM","CERTAIN","N/A","0:0",N/A,"No CSP has been detected in the target application",https://example.invalid',
      'PRELOAD_JS_CHECK,"MEDIUM","FIRM","electron/shell/main-window.ts","38:6","      preload: options.preloadPath,","Review the use of preload scripts",https://example.invalid',
      '',
    ].join('\n');
    expect(parseElectronegativityCsv(text)).toEqual([
      finding({ check: 'CSP_GLOBAL_CHECK', confidence: 'CERTAIN', file: 'N/A', location: '0:0', sample: 'N/A', description: 'No CSP has been detected in the target application' }),
      finding({ check: 'PRELOAD_JS_CHECK', location: '38:6', sample: '      preload: options.preloadPath,', description: 'Review the use of preload scripts' }),
    ]);
  });

  it('refuses anything that is not a complete report', () => {
    expect(() => parseElectronegativityCsv('id,severity\n')).toThrow(/not an electronegativity CSV/);
    expect(() => parseElectronegativityCsv(`${header}\nX,"SEVERE","FIRM","f","1:1",s,"d",u\n`)).toThrow(/unknown severity "SEVERE"/);
    expect(() => parseElectronegativityCsv(`${header}\nX,"HIGH","FIRM"\n`)).toThrow(/has 3 fields/);
  });

  it('takes the review flags from the SARIF report, and refuses reports that disagree', () => {
    const sarif = JSON.stringify({
      runs: [
        {
          results: [
            { ruleId: 'CSP_GLOBAL_CHECK', level: 'warning', locations: [{ physicalLocation: { artifactLocation: { uri: 'file:///' }, region: { startLine: 1, startColumn: 1 } } }] },
            { ruleId: 'PRELOAD_JS_CHECK', level: 'note', locations: [{ physicalLocation: { artifactLocation: { uri: 'electron/shell/main-window.ts' }, region: { startLine: 38, startColumn: 7 } } }] },
          ],
        },
      ],
    });
    const csv = [finding({ check: 'CSP_GLOBAL_CHECK', file: 'N/A', location: '0:0' }), finding({ check: 'PRELOAD_JS_CHECK', location: '38:6' })];
    expect(combineReports(csv, parseElectronegativitySarif(sarif)).map((entry) => entry.isReviewPrompt)).toEqual([false, true]);
    expect(() => combineReports(csv.slice(0, 1), parseElectronegativitySarif(sarif))).toThrow(/CSV lists 1 findings but its SARIF lists 2/);
    expect(() => combineReports([csv[0] ?? finding({}), finding({ check: 'OTHER' })], parseElectronegativitySarif(sarif))).toThrow(/no result for OTHER/);
    expect(() => parseElectronegativitySarif('{"runs":[{}]}')).toThrow(/not a SARIF report/);
  });

  it('names the files it could not parse', () => {
    const output = 'Error parsing /tmp/x/out/main/chunk.js - Unknown node type ClassPrivateProperty.\nTolerable error parsing /tmp/x/y.js - z\n';
    expect(unparsedFiles(output)).toEqual(['/tmp/x/out/main/chunk.js']);
  });
});

describe('the gate', () => {
  const review: ReviewedFinding = { check: 'PRELOAD_JS_CHECK', file: 'electron/shell/main-window.ts', sample: 'preload: options.preloadPath,', conclusion: 'reviewed' };
  const prompt = finding({ check: 'PRELOAD_JS_CHECK', sample: '      preload: options.preloadPath,', isReviewPrompt: true });

  it('fails on high and medium findings, and lets low ones through as notes', () => {
    const high = finding({ check: 'CONTEXT_ISOLATION_JS_CHECK', severity: 'HIGH' });
    const low = finding({ check: 'CSP_GLOBAL_CHECK', severity: 'LOW' });
    const gate = gateFindings([high, low], []);
    expect(gate.failures).toEqual([high]);
    expect(gate.notes).toEqual([low]);
  });

  it('accepts a review prompt only with a review of that exact line', () => {
    expect(gateFindings([prompt], [review])).toEqual({ failures: [], reviewed: [{ finding: prompt, review }], notes: [], staleReviews: [] });
    const moved = { ...prompt, sample: 'preload: somethingElse,' };
    expect(gateFindings([moved], [review]).failures).toEqual([moved]);
    expect(gateFindings([prompt], []).failures).toEqual([prompt]);
  });

  it('never lets a review excuse a detected flaw, and reports reviews that match nothing', () => {
    const flaw = { ...prompt, isReviewPrompt: false };
    expect(gateFindings([flaw], [review])).toEqual({ failures: [flaw], reviewed: [], notes: [], staleReviews: [review] });
  });
});
