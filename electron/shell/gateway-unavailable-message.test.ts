import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { gatewayUnavailableMessage } from './gateway-unavailable-message';

describe('gatewayUnavailableMessage', () => {
  it('names the other Vigil and what to do, without its token', () => {
    const text = gatewayUnavailableMessage(
      new AppError('busy', 'taken'),
      {
        pid: 4242,
        port: 7420,
        token: 'secret-token',
        url: 'http://127.0.0.1:7420/#token=secret-token',
        version: '0.1.0',
        startedAt: '2026-01-01T10:00:00.000Z',
      },
      '/home/me/.vigil',
    );
    expect(text.message).toBe('Agents connect to another Vigil.');
    expect(text.detail).toContain('pid 4242');
    expect(text.detail).toContain('/home/me/.vigil at http://127.0.0.1:7420/.');
    expect(text.detail).toContain('VIGIL_HOME');
    expect(text.detail).not.toContain('secret-token');
  });

  it('passes on the error when no other Vigil is the reason', () => {
    const text = gatewayUnavailableMessage(new AppError('io_error', 'serve.json is not writable.'), undefined, '/data');
    expect(text.message).toBe('Agents cannot connect to this Vigil.');
    expect(text.detail).toMatch(/^serve.json is not writable. This window works normally/);
  });
});
