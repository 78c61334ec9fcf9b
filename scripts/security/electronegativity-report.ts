/** Severities electronegativity assigns, most severe first. */
export const severities = ['HIGH', 'MEDIUM', 'LOW', 'INFORMATIONAL'] as const;

/** One electronegativity severity. */
export type Severity = (typeof severities)[number];

/** One finding of an electronegativity run. */
export interface Finding {
  readonly check: string;
  readonly severity: Severity;
  readonly confidence: string;
  readonly file: string;
  /** `line:column`, or `0:0` for whole-app checks. */
  readonly location: string;
  readonly sample: string;
  readonly description: string;
  /** electronegativity marks this a prompt to review the code, not a detected flaw (SARIF level "note"). */
  readonly isReviewPrompt: boolean;
}

/** Splits RFC 4180 CSV (quoted fields may hold commas, quotes and line breaks) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let isQuoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charAt(index);
    if (isQuoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') {
        isQuoted = false;
      } else {
        field += char;
      }
    } else if (char === '"') {
      isQuoted = true;
    } else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else {
      field += char;
    }
  }
  if (isQuoted) throw new Error('the CSV ends inside a quoted field');
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

const expectedHeader = ['issue', 'severity', 'confidence', 'filename', 'location', 'sample', 'description', 'url'];

/** Reads electronegativity's CSV report (`-o report.csv`); throws if it is not one. */
export function parseElectronegativityCsv(text: string): readonly Finding[] {
  const [header, ...rows] = parseCsv(text);
  if (header?.map((name) => name.trim()).join(',') !== expectedHeader.join(',')) {
    throw new Error(`not an electronegativity CSV report (header: ${JSON.stringify(header)})`);
  }
  return rows.map((fields, index) => {
    if (fields.length !== expectedHeader.length) throw new Error(`row ${index + 2} has ${fields.length} fields, expected ${expectedHeader.length}`);
    const [check = '', severity = '', confidence = '', file = '', location = '', sample = '', description = ''] = fields;
    if (!(severities as readonly string[]).includes(severity)) throw new Error(`row ${index + 2} has the unknown severity ${JSON.stringify(severity)}`);
    return { check, severity: severity as Severity, confidence, file, location, sample, description, isReviewPrompt: false };
  });
}

/** One result of electronegativity's SARIF report. */
export interface SarifResult {
  readonly check: string;
  readonly file: string;
  /** `line:column` as the CSV writes it (SARIF adds 1 to the column, and turns line 0 into 1). */
  readonly location: string;
  readonly isReviewPrompt: boolean;
}

interface RawSarifResult {
  readonly ruleId?: string;
  readonly level?: string;
  readonly locations?: readonly { physicalLocation?: { artifactLocation?: { uri?: string }; region?: { startLine?: number; startColumn?: number } } }[];
}

/** Reads electronegativity's SARIF report (`-o report.sarif`). */
export function parseElectronegativitySarif(text: string): readonly SarifResult[] {
  const report = JSON.parse(text) as { runs?: { results?: RawSarifResult[] }[] };
  const results = report.runs?.[0]?.results;
  if (!Array.isArray(results)) throw new Error('not a SARIF report: runs[0].results is missing');
  return results.map((result) => {
    const location = result.locations?.[0]?.physicalLocation;
    const uri = location?.artifactLocation?.uri ?? '';
    return {
      check: result.ruleId ?? '',
      file: uri === 'file:///' ? 'N/A' : uri,
      location: `${location?.region?.startLine ?? 0}:${(location?.region?.startColumn ?? 1) - 1}`,
      isReviewPrompt: result.level === 'note',
    };
  });
}

/**
 * The CSV findings (which carry severities) with the review flag from the SARIF report (which
 * carries it). Throws unless the two reports list the same findings: electronegativity writes its
 * CSV with two unsynchronised writes, so a lost row must not pass for a clean run.
 */
export function combineReports(csv: readonly Finding[], sarif: readonly SarifResult[]): readonly Finding[] {
  if (csv.length !== sarif.length) {
    throw new Error(`electronegativity's CSV lists ${csv.length} findings but its SARIF lists ${sarif.length}; a report write was lost, run it again.`);
  }
  const unmatched = [...sarif];
  return csv.map((finding) => {
    const sameLine = (result: SarifResult): boolean => result.check === finding.check && result.file === finding.file;
    const exact = unmatched.findIndex((result) => sameLine(result) && (result.location === finding.location || finding.location.startsWith('0:')));
    if (exact === -1) throw new Error(`the SARIF report has no result for ${finding.check} at ${finding.file}:${finding.location}`);
    const [match] = unmatched.splice(exact, 1);
    return { ...finding, isReviewPrompt: match?.isReviewPrompt ?? false };
  });
}

/** The files electronegativity could not parse (it skips them and still exits 0), from its console output. */
export function unparsedFiles(output: string): readonly string[] {
  return [...output.matchAll(/Error parsing (.+?) - /g)].map((match) => match[1] ?? '');
}

/** One line per finding, for the console. */
export function formatFinding(finding: Finding): string {
  return `${finding.severity} ${finding.check} ${finding.file}:${finding.location} ${finding.description}${finding.sample === '' || finding.sample === 'N/A' ? '' : `\n      ${finding.sample.trim()}`}`;
}
