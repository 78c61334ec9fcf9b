import { describe, expect, it } from 'vitest';
import { desktopContentSecurityPolicy, rendererMetaContentSecurityPolicy } from './content-security-policy';

function directives(policy: string): Map<string, string> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')];
    }),
  );
}

describe('the renderer’s Content-Security-Policy', () => {
  it('allows only the app’s own scripts and styles, no inline code, no eval, no plugins', () => {
    for (const policy of [desktopContentSecurityPolicy, rendererMetaContentSecurityPolicy]) {
      const parsed = directives(policy);
      expect(parsed.get('default-src')).toBe("'none'");
      expect(parsed.get('script-src')).toBe("'self'");
      expect(parsed.get('style-src')).toBe("'self'");
      expect(parsed.get('object-src')).toBe("'none'");
      expect(parsed.get('base-uri')).toBe("'none'");
      expect(parsed.get('form-action')).toBe("'none'");
      expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*|http:|https:/);
    }
  });

  it('lets the desktop page open no connection and no frame embed it', () => {
    const parsed = directives(desktopContentSecurityPolicy);
    expect(parsed.get('connect-src')).toBe("'none'");
    expect(parsed.get('frame-ancestors')).toBe("'none'");
  });

  it('keeps the meta policy valid in a meta tag and limited to the page’s own origin', () => {
    const parsed = directives(rendererMetaContentSecurityPolicy);
    expect(parsed.get('connect-src')).toBe("'self'");
    expect(parsed.has('frame-ancestors')).toBe(false);
  });
});
