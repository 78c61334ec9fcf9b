import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../test-support/temp-dir';
import { createFileLogger } from './logger';

describe('createFileLogger', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('writes JSON lines with the error’s stack', async () => {
    const temp = await makeTempDir('vigil-logger-');
    cleanup = temp.remove;
    const logger = createFileLogger({ directory: path.join(temp.dir, 'logs'), fileName: 'desktop.log' });
    logger.info('started', { home: '/data' });
    logger.error('failed', { error: new Error('boom') });
    await logger.flush();
    const lines = (await readFile(path.join(temp.dir, 'logs', 'desktop.log'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line['level'], line['message']])).toEqual([
      ['info', 'started'],
      ['error', 'failed'],
    ]);
    expect(lines[0]).toMatchObject({ home: '/data', pid: process.pid });
    expect((lines[1]?.['error'] as { stack: string }).stack).toContain('Error: boom');
    if (process.platform !== 'win32') expect((await stat(path.join(temp.dir, 'logs'))).mode & 0o777).toBe(0o700);
  });

  it('a file where the log folder should be turns the log off with one warning naming it; logging and flush still work', async () => {
    const temp = await makeTempDir('vigil-logger-');
    cleanup = temp.remove;
    const directory = path.join(temp.dir, 'logs');
    await writeFile(directory, 'not a folder');
    const echoed: string[] = [];
    const logger = createFileLogger({ directory, echo: { level: 'error', write: (line) => echoed.push(line) } });
    logger.info('first');
    logger.info('second');
    await expect(logger.flush()).resolves.toBeUndefined();
    expect(echoed).toEqual([
      `vigil: warn: the log is off for this run: ${directory} (or a folder above it) is a file, not a folder. Move that file aside (or fix its permissions) so Vigil can keep its logs there.\n`,
    ]);
    expect(await readFile(directory, 'utf8')).toBe('not a folder');
  });

  it('masks values that look like secrets in the message and in every field, nested ones included', async () => {
    const temp = await makeTempDir('vigil-logger-');
    cleanup = temp.remove;
    const logger = createFileLogger({ directory: path.join(temp.dir, 'logs') });
    const token = `ghp_${'Ab1Cd2Ef3G'.repeat(4)}`;
    logger.info(`pushing with ${token}`, {
      summary: 'curl -H "Authorization: Bearer abcdefghijklmnop1234"',
      nested: { env: ['DB_PASSWORD=hunter2hunter2'] },
      count: 3,
    });
    logger.error('failed', { error: new Error(`bad key ${token}`) });
    await logger.flush();
    const text = await readFile(path.join(temp.dir, 'logs', 'vigil.log'), 'utf8');
    expect(text).not.toContain(token.slice(4));
    expect(text).not.toContain('hunter2hunter2');
    expect(text).not.toContain('abcdefghijklmnop1234');
    const [info] = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(info).toMatchObject({
      message: 'pushing with ghp_[masked]',
      nested: { env: ['DB_PASSWORD=[masked]'] },
      count: 3,
    });
  });

  it('rotates by size and keeps only the newest files, losing no line in the kept ones', async () => {
    const temp = await makeTempDir('vigil-logger-');
    cleanup = temp.remove;
    const directory = path.join(temp.dir, 'logs');
    const logger = createFileLogger({ directory, maxBytes: 4096, keep: 2 });
    for (let index = 0; index < 400; index += 1) logger.info(`line ${index}`, { padding: 'x'.repeat(60) });
    await logger.flush();
    expect((await readdir(directory)).sort()).toEqual(['vigil.log', 'vigil.log.1', 'vigil.log.2']);
    const numbers: number[] = [];
    for (const name of ['vigil.log.2', 'vigil.log.1', 'vigil.log']) {
      const text = await readFile(path.join(directory, name), 'utf8');
      expect(text.length, name).toBeLessThan(4096 + 4096 / 8 + 200);
      for (const line of text.trim().split('\n'))
        numbers.push(Number(/line (\d+)/.exec((JSON.parse(line) as { message: string }).message)?.[1]));
    }
    expect(numbers.at(-1)).toBe(399);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, index) => 400 - numbers.length + index));
  });
});
