/**
 * The offset of the first byte that makes `bytes` invalid UTF-8 (overlong forms, surrogates,
 * code points above U+10FFFF and truncated sequences included), or -1 when all of it is valid.
 */
export function findInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const first = bytes[index] ?? 0;
    if (first < 0x80) {
      index += 1;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (first >= 0xc2 && first <= 0xdf) length = 2;
    else if (first >= 0xe0 && first <= 0xef) {
      length = 3;
      if (first === 0xe0) low = 0xa0; // no overlong forms
      if (first === 0xed) high = 0x9f; // no UTF-16 surrogates
    } else if (first >= 0xf0 && first <= 0xf4) {
      length = 4;
      if (first === 0xf0) low = 0x90; // no overlong forms
      if (first === 0xf4) high = 0x8f; // nothing above U+10FFFF
    } else return index;
    if (index + length > bytes.length) return index;
    for (let offset = 1; offset < length; offset += 1) {
      const next = bytes[index + offset] ?? 0;
      const min = offset === 1 ? low : 0x80;
      const max = offset === 1 ? high : 0xbf;
      if (next < min || next > max) return index;
    }
    index += length;
  }
  return -1;
}
