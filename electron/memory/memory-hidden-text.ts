/**
 * What Vigil's memory scan adds to Hermes's: text a person reading the file does not see but a
 * model does (Unicode tag characters, zero-width and bidirectional controls Hermes's list leaves
 * out), keywords spelled with look-alike letters of another script (`ignоre` with a Cyrillic `о`),
 * and markdown images or links whose URL carries data out (`![](https://x.test/?d=…)`).
 */

/** A finding of the scan: its pattern id, what it means, and whose rule it is (Hermes's, or Vigil's own). */
export interface ThreatFinding {
  readonly pattern: string;
  readonly what: string;
  readonly source: 'hermes' | 'vigil';
}

/** Invisible or direction-changing characters beyond Hermes's list, by code point. */
const extraInvisible: ReadonlyMap<number, string> = new Map([
  [0x00ad, 'soft hyphen'],
  [0x034f, 'combining grapheme joiner'],
  [0x061c, 'Arabic letter mark (a direction control)'],
  [0x115f, 'Hangul choseong filler'],
  [0x1160, 'Hangul jungseong filler'],
  [0x180e, 'Mongolian vowel separator'],
  [0x200e, 'left-to-right mark (a direction control)'],
  [0x200f, 'right-to-left mark (a direction control)'],
  [0x2061, 'function application'],
  [0x3164, 'Hangul filler'],
  [0xffa0, 'half-width Hangul filler'],
  [0xfff9, 'interlinear annotation anchor'],
  [0xfffa, 'interlinear annotation separator'],
  [0xfffb, 'interlinear annotation terminator'],
]);

const hex = (code: number): string => code.toString(16).toUpperCase().padStart(4, '0');

/** The ASCII text a run of tag characters spells (U+E0020–U+E007E mirror ASCII), for the refusal. */
function tagText(text: string, from: number): string {
  let spelled = '';
  for (const character of text.slice(from)) {
    const code = character.codePointAt(0) ?? 0;
    if (code < 0xe0000 || code > 0xe007f) break;
    if (code >= 0xe0020 && code <= 0xe007e) spelled += String.fromCharCode(code - 0xe0000);
    if (spelled.length >= 40) break;
  }
  return spelled;
}

/** The first invisible character Hermes's list leaves out: tag characters, variation selectors past U+FE0F, fillers, marks. */
export function findExtraInvisible(text: string): ThreatFinding | undefined {
  let offset = 0;
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    const at = offset;
    offset += character.length;
    let name = extraInvisible.get(code);
    if (code >= 0xe0000 && code <= 0xe007f) {
      const spelled = tagText(text, at);
      name = `a Unicode tag character${spelled === '' ? '' : `; the tag characters spell "${spelled}"`}`;
    } else if (code >= 0xe0100 && code <= 0xe01ef) name = 'a variation selector, which can carry hidden bytes';
    if (name !== undefined)
      return {
        pattern: `invisible_unicode_U+${hex(code)}`,
        what: `the invisible character U+${hex(code)} (${name})`,
        source: 'vigil',
      };
  }
  return undefined;
}

/** Letters of other scripts that look like Latin ones (Unicode's confusables, the common part), lower-cased. */
const lookAlikes: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  һ: 'h',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  ӏ: 'l',
  м: 'm',
  н: 'h',
  о: 'o',
  п: 'n',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ү: 'y',
  ɡ: 'g',
  ԍ: 'g',
  ћ: 'h',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ς: 'c',
  ϲ: 'c',
  ϳ: 'j',
  ζ: 'z',
  μ: 'u',
  // Armenian and others
  օ: 'o',
  ս: 'u',
  հ: 'h',
  ո: 'n',
  ց: 'g',
  ı: 'i',
  ɑ: 'a',
  ɩ: 'i',
  ʏ: 'y',
  ᴄ: 'c',
  ᴏ: 'o',
  ᴠ: 'v',
  ᴡ: 'w',
  ᴢ: 'z',
};
/** Any of the look-alike letters. */
const lookAlikeLetter = new RegExp(`[${Object.keys(lookAlikes).join('')}]`, 'u');

/**
 * The text with every look-alike letter of another script replaced by the Latin letter it imitates
 * (after lower-casing), when the text mixes Latin letters with look-alikes; undefined otherwise
 * (ordinary Greek or Russian text, or plain English, has nothing to imitate).
 */
export function lookAlikeSkeleton(text: string): string | undefined {
  const lower = text.toLowerCase();
  if (!/[a-z]/u.test(lower) || !lookAlikeLetter.test(lower)) return undefined;
  let skeleton = '';
  for (const character of lower) skeleton += lookAlikes[character] ?? character;
  return skeleton;
}

/** Markdown images `![alt](url)`, links `[text](url)`, reference definitions `[ref]: url`, and `<img src=url>`. */
const markdownUrls =
  /(!?)\[[^\]\n]{0,512}\]\(\s*<?([^)\s>]+)>?(?:\s+["'][^"'\n]*["'])?\s*\)|^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s|$)|<img\b[^>]*?\bsrc\s*=\s*["']?([^"'\s>]+)/gimu;

/** Why a URL carries data, if it does: a placeholder, a long encoded run, or (for an image) any query or fragment. */
function carriedData(url: string, isImage: boolean): string | undefined {
  if (!/^(https?:)?\/\//iu.test(url)) return undefined;
  if (/[{}$<>]|%s|\[\[|\]\]/u.test(url)) return 'a placeholder the agent would fill in';
  const afterHost = url.replace(/^(https?:)?\/\/[^/?#]*/iu, '');
  if (/[A-Za-z0-9+/=_-]{32,}/u.test(afterHost)) return 'a long encoded value';
  if (isImage && /[?#]./u.test(afterHost)) return 'a query or fragment, sent when the image loads';
  return undefined;
}

/** The first markdown image or link whose URL carries data to another site (images load, and so send it, on their own). */
export function findDataUrl(text: string): ThreatFinding | undefined {
  for (const match of text.matchAll(markdownUrls)) {
    const isImage = match[1] === '!' || match[4] !== undefined;
    const url = match[2] ?? match[3] ?? match[4] ?? '';
    const why = carriedData(url, isImage);
    if (why === undefined) continue;
    const kind = isImage ? 'image' : 'link';
    return {
      pattern: `markdown_${kind}_exfil`,
      what: `a markdown ${kind} whose URL carries data (${why}): ${url.slice(0, 80)}`,
      source: 'vigil',
    };
  }
  return undefined;
}
