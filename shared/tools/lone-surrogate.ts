/**
 * The index of the first lone UTF-16 surrogate in a string, or -1 when the string is well-formed.
 * A lone surrogate has no UTF-8 form: encoding it silently turns it into U+FFFD (mojibake), so
 * text that contains one is refused instead of written.
 */
export function findLoneSurrogate(text: string): number {
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        index += 1;
        continue;
      }
    }
    return index;
  }
  return -1;
}
