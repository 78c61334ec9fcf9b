import { describe, expect, it } from 'vitest';
import { decodeUtf8File, invalidUtf8Offset } from './decode-utf8';

describe('invalidUtf8Offset', () => {
  it('finds the first byte of the first invalid sequence', () => {
    expect(invalidUtf8Offset(Buffer.from('plain ascii and ünïcödé 🎉'))).toBe(-1);
    expect(invalidUtf8Offset(Buffer.from([0xff, 0x41]))).toBe(0);
    expect(invalidUtf8Offset(Buffer.from([0x61, 0x62, 0xe2, 0x82]))).toBe(2);
    expect(invalidUtf8Offset(Buffer.from([0x61, 0xe9, 0x20, 0x62]))).toBe(1);
    expect(invalidUtf8Offset(Buffer.from([0x61, 0xf0, 0x9f, 0x8e, 0x89, 0x80]))).toBe(5);
  });
});

describe('decodeUtf8File', () => {
  it('keeps a BOM in the text, and refuses binary and non-UTF-8 bytes', () => {
    expect(decodeUtf8File(Buffer.from('\uFEFFx'), 'f', 'reading')).toBe('\uFEFFx');
    expect(() => decodeUtf8File(Buffer.from([0x41, 0x00]), 'f', 'reading')).toThrow(/binary/u);
    expect(() => decodeUtf8File(Buffer.from([0x41, 0xc3]), 'f', 'reading')).toThrow(/offset 1/u);
  });
});
