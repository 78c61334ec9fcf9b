import { describe, expect, it } from 'vitest';
import { isTrustedSender, type SenderFrame } from './trusted-sender';

function frame(url: string, parent: SenderFrame['parent'] = null): SenderFrame {
  return { url, parent };
}

describe('isTrustedSender', () => {
  it('trusts the top frame of Vigil’s own page, on any of its paths', () => {
    expect(isTrustedSender(frame('app://vigil/index.html'))).toBe(true);
    expect(isTrustedSender(frame('app://vigil/#/timeline'))).toBe(true);
  });

  it('refuses subframes, other origins, and frames that are gone', () => {
    const top = frame('app://vigil/index.html') as unknown as NonNullable<SenderFrame['parent']>;
    expect(isTrustedSender(frame('app://vigil/index.html', top))).toBe(false);
    for (const url of [
      'app://vigil.evil.example/index.html',
      'app://evil/index.html',
      'https://vigil/index.html',
      'file:///index.html',
      'http://127.0.0.1:7420/',
      'about:blank',
      'devtools://devtools/x',
      '',
    ]) {
      expect(isTrustedSender(frame(url)), url).toBe(false);
    }
    expect(isTrustedSender(null)).toBe(false);
    expect(isTrustedSender(undefined)).toBe(false);
  });
});
