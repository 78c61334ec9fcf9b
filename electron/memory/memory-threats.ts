import { findDataUrl, findExtraInvisible, lookAlikeSkeleton, type ThreatFinding } from './memory-hidden-text';

export type { ThreatFinding } from './memory-hidden-text';

/**
 * Hermes Agent's content scan of memory writes (its "strict" scope, which memory uses), so Vigil
 * refuses exactly the text Hermes would refuse, and no entry takes budget only to be replaced by
 * a "[BLOCKED: …]" placeholder in Hermes's system prompt. Each rule carries Hermes's pattern id,
 * which the refusal names. The text is scanned as Hermes scans it: the first 65,536 characters,
 * invisible characters checked on the raw text, the patterns matched case-insensitively on its
 * NFKC form, with Python's Unicode `\w`, `\s` and `\b`. Vigil then adds its own checks
 * (`memory-hidden-text.ts`): invisible characters Hermes's list leaves out, look-alike spellings of
 * the same patterns, and markdown images or links whose URL carries data.
 */

/** How much of a text Hermes scans (characters, as Python counts them). */
const maxScanChars = 65_536;

/** Python's `\w` (letters, digits, underscore in any script). */
const word = '[\\p{L}\\p{N}_]';
/** Python's `\s` (what `str.isspace()` accepts). */
const space =
  '[\\t\\n\\v\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
/** Python's `\b` with a Unicode `\w`. */
const boundary = `(?:(?<=${word})(?!${word})|(?<!${word})(?=${word}))`;
/** A few words between two key words (bounded, as Hermes bounds it). */
const filler = `(?:${word}+${space}+){0,8}`;
/** An environment variable whose name ends like a secret. */
const secretVariable = `\\$\\{?${word}*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)S?${boundary}`;
/** "Change the agent's configuration" verbs, then anything on the line. */
const modify = `(?:update|modify|edit|write|change|append|add${space}+to)${space}+[^\\n]{0,2048}`;

/** One rule: Hermes's id, what it catches (for the refusal), and the pattern (`\s`, `\w`, `\b` spelled as above). */
interface ThreatRule {
  readonly id: string;
  readonly what: string;
  readonly source: string;
}

/** Writes a pattern with `\S` for Python's `\s`, `\W` for its `\w`, `\B` for its `\b` and `\F` for the bounded filler (never inside a `[…]` class). */
function rule(id: string, what: string, template: string): ThreatRule {
  return {
    id,
    what,
    source: template.replace(/\\S/g, space).replace(/\\F/g, filler).replace(/\\B/g, boundary).replace(/\\W/g, word),
  };
}

const rules: readonly ThreatRule[] = [
  rule(
    'prompt_injection',
    'an instruction to ignore earlier instructions',
    'ignore\\S+\\F(?:previous|all|above|prior)\\S+\\Finstructions',
  ),
  rule('sys_prompt_override', 'a system prompt override', 'system\\S+prompt\\S+override'),
  rule(
    'disregard_rules',
    'an instruction to disregard the rules',
    'disregard\\S+\\F(?:your|all|any)\\S+\\F(?:instructions|rules|guidelines)',
  ),
  rule(
    'bypass_restrictions',
    'an instruction to act without restrictions',
    "act\\S+as\\S+(?:if|though)\\S+\\Fyou\\S+\\F(?:have\\S+no|don't\\S+have)\\S+\\F(?:restrictions|limits|rules)",
  ),
  rule(
    'html_comment_injection',
    'an instruction hidden in an HTML comment',
    '<!--[^>]{0,512}(?<![A-Za-z])(?:ignore|override|system|secret|hidden)(?![A-Za-z])[^>]{0,512}-->',
  ),
  rule(
    'hidden_div',
    'text hidden in an invisible HTML element',
    `<\\S*div\\S+style\\S*=\\S*["'][^>]{0,2048}display\\S*:\\S*none`,
  ),
  rule(
    'translate_execute',
    'an instruction to translate text and run it',
    'translate\\S+[^\\n]{0,512}\\S+into\\S+\\W+(?:(?:\\S|-)+\\W+){0,2}\\S+and\\S+(?:execute|run|eval)\\B',
  ),
  rule('deception_hide', 'an instruction to hide something from the user', 'do\\S+not\\S+\\Ftell\\S+\\Fthe\\S+user'),
  rule('role_hijack', 'an attempt to give the agent another identity', 'you\\S+are\\S+\\Fnow\\S+(?:a|an|the)\\S+'),
  rule('role_pretend', 'an instruction to pretend to be someone else', 'pretend\\S+\\F(?:you\\S+are|to\\S+be)\\S+'),
  rule('leak_system_prompt', 'an instruction to reveal the system prompt', 'output\\S+\\F(?:system|initial)\\S+prompt'),
  rule(
    'remove_filters',
    'an instruction to answer without safety limits',
    '(?:respond|answer|reply)\\S+without\\S+\\F(?:restrictions|limitations|filters|safety)',
  ),
  rule(
    'fake_update',
    'a claim that the agent was updated',
    'you\\S+have\\S+been\\S+\\F(?:updated|upgraded|patched)\\S+to',
  ),
  rule('identity_override', 'an instruction to rename the agent', '\\Bname\\S+yourself\\S+\\W+'),
  rule(
    'c2_node_registration',
    'command-and-control vocabulary (registering as a node)',
    'register\\S+(?:as\\S+)?a?\\S*node',
  ),
  rule(
    'c2_heartbeat',
    'command-and-control vocabulary (a heartbeat or beacon)',
    '(?:heartbeat|beacon|check(?:\\S|-)?in)\\S+(?:to|with)\\S+',
  ),
  rule(
    'c2_task_pull',
    'command-and-control vocabulary (pulling tasks)',
    'pull\\S+(?:down\\S+)?(?:new\\S+)?task(?:ing|s)?\\B',
  ),
  rule(
    'c2_network_connect',
    'command-and-control vocabulary (connecting to the network)',
    'connect\\S+to\\S+the\\S+network\\B',
  ),
  rule(
    'forced_action',
    'an order to register, connect, report or beacon',
    'you\\S+must\\S+(?:\\W+\\S+){0,3}(?:register|connect|report|beacon)\\B',
  ),
  rule(
    'anti_forensic_oneliner',
    'an anti-forensic instruction (one-liners only)',
    'only\\S+use\\S+one(?:\\S|-)?liners?\\B',
  ),
  rule(
    'anti_forensic_disk',
    'an anti-forensic instruction (never write files to disk)',
    'never\\S+\\F(?:create|write)\\S+\\F(?:script|file)\\S+\\Fdisk',
  ),
  rule(
    'env_var_unset_agent',
    "an instruction to unset an agent runtime's variables",
    'unset\\S+\\W*(?:CLAUDE|CODEX|HERMES|AGENT|OPENAI|ANTHROPIC)\\W*',
  ),
  rule(
    'known_c2_framework',
    'the name of a command-and-control framework',
    '\\B(?:cobalt\\S*strike|sliver|havoc|mythic|metasploit|brainworm)\\B',
  ),
  rule('c2_explicit', 'command-and-control infrastructure', '\\Bc2\\S+(?:server|channel|infrastructure|beacon)\\B'),
  rule('c2_explicit_long', 'command-and-control infrastructure', '\\Bcommand\\S+and\\S+control\\B'),
  rule('exfil_curl', 'curl sending a secret variable', `curl\\S+[^\\n]{0,2048}${secretVariable}`),
  rule('exfil_wget', 'wget sending a secret variable', `wget\\S+[^\\n]{0,2048}${secretVariable}`),
  rule(
    'read_secrets',
    'reading a secrets file',
    'cat\\S+[^\\n]{0,2048}(?:\\.env|credentials|\\.netrc|\\.pgpass|\\.npmrc|\\.pypirc)',
  ),
  rule(
    'send_to_url',
    'an instruction to send data to a URL',
    '(?:send|post|upload|transmit)\\S+[^\\n]{0,2048}\\S+(?:to|at)\\S+https?://',
  ),
  rule(
    'context_exfil',
    'an instruction to share the conversation',
    '(?:include|output|print|share)\\S+\\F(?:conversation|chat\\S+history|previous\\S+messages|full\\S+context|entire\\S+context)',
  ),
  rule('ssh_backdoor', 'an SSH authorized_keys file', 'authorized_keys'),
  rule('ssh_access', 'the SSH folder', '\\$HOME/\\.ssh|~/\\.ssh'),
  rule('hermes_env', "Hermes Agent's secrets file", '\\$HOME/\\.hermes/\\.env|~/\\.hermes/\\.env'),
  rule(
    'agent_config_mod',
    "an instruction to change an agent's instruction file",
    `${modify}(?:AGENTS\\.md|CLAUDE\\.md|\\.cursorrules|\\.clinerules)`,
  ),
  rule(
    'hermes_config_mod',
    "an instruction to change Hermes Agent's configuration",
    `${modify}\\.hermes/(?:config\\.yaml|SOUL\\.md)`,
  ),
  rule(
    'hardcoded_secret',
    'a secret written out (a key, token or password)',
    `(?:api[_-]?key|token|secret|password)\\S*[=:]\\S*["'][A-Za-z0-9+/=_-]{20,}`,
  ),
];

const compiled = rules.map((item) => ({ ...item, pattern: new RegExp(item.source, 'iu') }));

/** Invisible and bidirectional characters used to hide injected text (Hermes's list). */
const invisibleCharacters: ReadonlyMap<number, string> = new Map([
  [0x200b, 'zero-width space'],
  [0x200c, 'zero-width non-joiner'],
  [0x200d, 'zero-width joiner'],
  [0x2060, 'word joiner'],
  [0x2062, 'invisible times'],
  [0x2063, 'invisible separator'],
  [0x2064, 'invisible plus'],
  [0xfeff, 'zero-width no-break space (BOM)'],
  [0x202a, 'left-to-right embedding'],
  [0x202b, 'right-to-left embedding'],
  [0x202c, 'pop directional formatting'],
  [0x202d, 'left-to-right override'],
  [0x202e, 'right-to-left override'],
  [0x2066, 'left-to-right isolate'],
  [0x2067, 'right-to-left isolate'],
  [0x2068, 'first strong isolate'],
  [0x2069, 'pop directional isolate'],
]);

/** The first `max` characters as Python counts them (code points). */
function scanWindow(text: string): string {
  let taken = 0;
  let end = 0;
  for (const character of text) {
    if (taken === maxScanChars) break;
    taken += 1;
    end += character.length;
  }
  return text.slice(0, end);
}

/** The first finding of the memory scan in `text`: Hermes's checks first (invisible characters, then its patterns), then Vigil's own. */
export function findThreat(text: string): ThreatFinding | undefined {
  if (text === '') return undefined;
  const window = scanWindow(text);
  for (const character of window) {
    const code = character.codePointAt(0) ?? 0;
    const name = invisibleCharacters.get(code);
    if (name !== undefined)
      return {
        pattern: `invisible_unicode_U+${code.toString(16).toUpperCase().padStart(4, '0')}`,
        what: `the invisible character U+${code.toString(16).toUpperCase().padStart(4, '0')} (${name})`,
        source: 'hermes',
      };
  }
  const normalized = window.normalize('NFKC');
  const found = compiled.find((item) => item.pattern.test(normalized));
  if (found !== undefined) return { pattern: found.id, what: found.what, source: 'hermes' };
  return findExtraInvisible(window) ?? findLookAlike(normalized) ?? findDataUrl(normalized);
}

/** A Hermes pattern spelled with look-alike letters of another script (`ignоre all previous instructions`, Cyrillic `о`). */
function findLookAlike(normalized: string): ThreatFinding | undefined {
  const skeleton = lookAlikeSkeleton(normalized);
  if (skeleton === undefined) return undefined;
  const found = compiled.find((item) => item.pattern.test(skeleton));
  return found === undefined
    ? undefined
    : {
        pattern: `homoglyph_${found.id}`,
        what: `${found.what}, spelled with look-alike letters of another script`,
        source: 'vigil',
      };
}

/** Every rule's Hermes id, in Hermes's order (for tests and documentation). */
export const threatPatternIds: readonly string[] = rules.map((item) => item.id);
