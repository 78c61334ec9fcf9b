import type { AppErrorData, ErrorCode } from '../../shared/errors';

/** What the UI says about an error: a headline for its code and the way forward. */
export interface ErrorGuidance {
  readonly title: string;
  /** What the user can do next. */
  readonly remedy: string;
  /** Whether trying the same thing again can succeed without changing anything else. */
  readonly isRetryable: boolean;
}

/** The headline and the way forward for each error code; the table is a full `Record`, so a new code must be given its own. */
const guidance: Readonly<Record<ErrorCode, ErrorGuidance>> = {
  invalid_request: {
    title: 'The request was refused as malformed',
    remedy: 'The field it names is wrong. Correct it and try again; if the UI sent it, reload the page and report it.',
    isRetryable: false,
  },
  unknown_call: {
    title: 'The core does not know this request',
    remedy: 'The UI and the core come from different Vigil versions. Restart Vigil (or vigil serve) from one checkout.',
    isRetryable: false,
  },
  unauthorized: {
    title: 'Not allowed in',
    remedy:
      'The access token is missing or old. Open the URL that vigil serve printed again (serve.json holds only the command line’s token, which cannot approve).',
    isRetryable: false,
  },
  outside_workspace: {
    title: 'Outside the session’s workspace',
    remedy:
      'The path resolves outside every workspace root of the session. Use a path inside a root, or add the root to the session.',
    isRetryable: false,
  },
  forbidden_path: {
    title: 'A protected path',
    remedy: 'Vigil never writes credentials or system folders. Pick another path.',
    isRetryable: false,
  },
  not_found: {
    title: 'Not found',
    remedy: 'It may have been deleted, pruned or renamed since the list was loaded. Refresh and pick it again.',
    isRetryable: false,
  },
  wrong_kind: {
    title: 'Not what was expected there',
    remedy: 'A directory stands where a file was expected, or the other way round. Check the path.',
    isRetryable: false,
  },
  conflict: {
    title: 'Something changed in the meantime',
    remedy: 'Nothing was written. Review the fresh state (a new plan, the current file) and confirm again.',
    isRetryable: false,
  },
  limit_exceeded: {
    title: 'Over the limit',
    remedy: 'Make room first: remove or shorten entries, or choose fewer items.',
    isRetryable: false,
  },
  no_match: {
    title: 'Nothing matched',
    remedy: 'The text to find is not there (any more). Check the current content and try a substring it contains.',
    isRetryable: false,
  },
  ambiguous_match: {
    title: 'More than one match',
    remedy: 'Use a longer substring that appears in exactly one place.',
    isRetryable: false,
  },
  busy: {
    title: 'Busy',
    remedy: 'Another Vigil process holds the lock. Try again in a moment.',
    isRetryable: true,
  },
  timeout: {
    title: 'It took too long',
    remedy: 'Nothing more will happen for this request. Try again; if it keeps timing out, check the log.',
    isRetryable: true,
  },
  collision: {
    title: 'Another session changed this file',
    remedy:
      'Nothing was written. Read the file again to see the other session’s change, then make this change on top of it.',
    isRetryable: false,
  },
  denied: {
    title: 'Denied',
    remedy: 'Policy or a person refused it. Change the rule in config.json if it should be allowed.',
    isRetryable: false,
  },
  io_error: {
    title: 'The disk refused',
    remedy: 'Check the permissions of the folder and that the disk is not full, then try again.',
    isRetryable: true,
  },
  unsupported: {
    title: 'Not supported here',
    remedy: 'This platform or configuration cannot do that. The message says what is missing.',
    isRetryable: false,
  },
  cancelled: {
    title: 'Cancelled',
    remedy: 'It stopped before finishing; what was done is listed above. Start it again when ready.',
    isRetryable: true,
  },
  tool_failed: {
    title: 'The agent’s own tool failed',
    remedy:
      'The agent ran this tool itself and reported the failure (its message is above); Vigil only recorded it. The agent usually tries again.',
    isRetryable: false,
  },
  disconnected: {
    title: 'Not connected to Vigil',
    remedy:
      'The message says whether it was sent: if it was, it may have run. Wait for “Connected”, then check the timeline before trying again.',
    isRetryable: true,
  },
  unexpected: {
    title: 'Something went wrong inside Vigil',
    remedy: 'The details are in the log (VIGIL_HOME/logs). Try again; if it repeats, report it with the log.',
    isRetryable: true,
  },
};

/** The headline and the way forward for an error code. */
export function guidanceFor(code: ErrorCode): ErrorGuidance {
  return guidance[code];
}

/** A detail of an error worth showing on its own line (a backup path, the field, the usage). */
export interface ErrorDetailLine {
  readonly label: string;
  readonly value: string;
}

const detailLabels: Readonly<Record<string, string>> = {
  field: 'Field',
  drift_backup: 'Backup of the file',
  backup: 'Backup',
  remediation: 'What to do',
  path: 'Path',
  dir: 'Directory',
  usage: 'Usage',
  limit: 'Limit',
};

/** The error's details that help a person, labelled, in a stable order; other details stay out of the way. */
export function errorDetailLines(error: AppErrorData): ErrorDetailLine[] {
  const details = error.details ?? {};
  const lines: ErrorDetailLine[] = [];
  for (const [key, label] of Object.entries(detailLabels)) {
    const value = details[key];
    if (typeof value === 'string' || typeof value === 'number') lines.push({ label, value: String(value) });
  }
  return lines;
}
