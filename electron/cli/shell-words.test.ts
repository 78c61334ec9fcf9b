import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { quoteShellWords } from './shell-words';

const run = promisify(execFile);

/** Words with every kind of character a path, a checkpoint number or an argument may hold. */
const words = [
  'vigil',
  '',
  'plain-word_1.txt',
  '/home/ann/My Project',
  'tab\there',
  'new\nline',
  "it's",
  "it's here!",
  'wow!',
  'say "hi"',
  'back\\slash',
  'both \' and "',
  '$HOME',
  '`date`',
  'semi;colon',
  'a&b|c',
  '(sub)',
  '<in>out',
  '#hash',
  '~tilde',
  'star*',
  'q?',
  '[x]',
  '{a,b}',
  'C:\\Users\\ann',
  'c:relative',
  'x:y',
  'caret^',
  'at@host',
  'équipe/naïve',
  '日本語 ファイル',
  '"$x" \'$y\' `z`',
];

describe('quoteShellWords', () => {
  it('quotes plain strings exactly as shell-quote does', () => {
    for (const word of words) expect(quoteShellWords([word])).toBe(quote([word]));
    expect(quoteShellWords(words)).toBe(quote(words));
  });

  it('gives back the same words when a POSIX shell reads the line', async () => {
    const line = quoteShellWords(words.slice(1));
    const { stdout } = await run('sh', ['-c', `printf '%s\\0' ${line}`]);
    expect(stdout.split('\0').slice(0, -1)).toEqual(words.slice(1));
  });
});
