import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { unexpectedMessage } from '../../shared/result';
import { createFileLogger } from '../logging/logger';
import type { CallHandlers } from './call-handlers';
import { createContractRouter } from './contract-router';

const info = { name: 'vigil' as const, version: '1', home: '/h', platform: 'linux', pid: 1, startedAt: 'now' };
const context = { transport: 'test' as const, clientId: 't' };

async function routerWith(handler: CallHandlers['app:info']) {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'vigil-router-'));
  const logger = createFileLogger({ directory });
  const handlers = { 'app:info': handler } as CallHandlers;
  return { router: createContractRouter(handlers, logger), logger, logFile: path.join(directory, 'vigil.log') };
}

describe('contract router', () => {
  it('answers a valid call with its value', async () => {
    const { router } = await routerWith(() => Promise.resolve(info));
    expect(await router.dispatch('app:info', {}, context)).toEqual({ ok: true, value: info });
  });

  it('names an unknown channel', async () => {
    const { router } = await routerWith(() => Promise.resolve(info));
    const result = await router.dispatch('files:teleport', {}, context);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'unknown_call', details: { channel: 'files:teleport' } },
    });
  });

  it('refuses a request that fails its schema, naming the field', async () => {
    const { router } = await routerWith(() => Promise.resolve(info));
    const result = await router.dispatch('app:info', { surprise: true }, context);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('invalid_request');
      expect(result.error.message).toContain('app:info');
    }
  });

  it('passes an AppError through with its code, message and details', async () => {
    const { router } = await routerWith(() => Promise.reject(new AppError('not_found', 'No such thing.', { id: 'x' })));
    expect(await router.dispatch('app:info', {}, context)).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'No such thing.', details: { id: 'x' } },
    });
  });

  it('turns a bug into `unexpected` with a safe message and logs its stack', async () => {
    const { router, logger, logFile } = await routerWith(() =>
      Promise.reject(new TypeError('secret internals at /root/x')),
    );
    const result = await router.dispatch('app:info', {}, context);
    expect(result).toEqual({ ok: false, error: { code: 'unexpected', message: unexpectedMessage } });
    await logger.flush();
    const log = await readFile(logFile, 'utf8');
    expect(log).toContain('secret internals at /root/x');
    expect(log).toContain('"stack"');
  });

  it('refuses a handler response that breaks the contract, as a bug', async () => {
    const { router } = await routerWith(() => Promise.resolve({ ...info, pid: 'one' } as unknown as typeof info));
    expect(await router.dispatch('app:info', {}, context)).toMatchObject({ ok: false, error: { code: 'unexpected' } });
  });
});
