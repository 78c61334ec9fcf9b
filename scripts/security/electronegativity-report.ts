import { z } from 'zod';

/** Severities electronegativity assigns, most severe first. */
export const severities = ['HIGH', 'MEDIUM', 'LOW', 'INFORMATIONAL'] as const;

/** One finding of an electronegativity scan. */
export const findingSchema = z.object({
  check: z.string(),
  severity: z.enum(severities),
  confidence: z.string(),
  file: z.string(),
  /** `line:column`, or `0:0` for whole-app checks. */
  location: z.string(),
  sample: z.string(),
  description: z.string(),
  /** electronegativity marks this a prompt to review the code, not a detected flaw. */
  isReviewPrompt: z.boolean(),
});

/** One finding of an electronegativity scan. */
export type Finding = z.infer<typeof findingSchema>;

/** What one scan reports: its findings, the files it could not parse, and how many checks ran. */
export const scanSchema = z.object({
  checksRun: z.number().int(),
  findings: z.array(findingSchema),
  /** Files it skipped because it could not parse them: unscanned code, so the gate treats them as failures. */
  unparsed: z.array(z.string()),
});

/** What one scan reports. */
export type ElectronegativityScan = z.infer<typeof scanSchema>;

/** One line per finding, for the console. */
export function formatFinding(finding: Finding): string {
  const sample = finding.sample.trim();
  return `${finding.severity} ${finding.check} ${finding.file}:${finding.location} ${finding.description}${sample === '' ? '' : `\n      ${sample}`}`;
}
