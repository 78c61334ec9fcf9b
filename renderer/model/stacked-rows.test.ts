import { describe, expect, it } from 'vitest';
import { headerIndexes, stackedRows, type StackedFile } from './stacked-rows';

const ready = { kind: 'ready' } as const;
const text = (path: string, extra: Partial<StackedFile> = {}): StackedFile => ({
  path,
  status: 'modified',
  kind: 'text',
  oldMode: '100644',
  newMode: '100644',
  additions: 1,
  deletions: 1,
  ...extra,
});

describe('stacked rows', () => {
  it('stacks each file under its header, and gives binary, oversize, link and mode changes a one-line notice', () => {
    const files = [
      text('a.txt'),
      text('b.png', { kind: 'binary' }),
      text('big.log', { kind: 'too-large' }),
      text('run.sh', { newMode: '100755', additions: 0, deletions: 0 }),
      text('link', { kind: 'symlink', oldMode: '120000', newMode: '120000', linkTargets: { old: 'x', new: 'y' } }),
      text('later.txt'),
    ];
    const diffs = new Map([
      [
        'a.txt',
        {
          load: ready,
          diff: {
            kind: 'text',
            hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-old', '+new'] }],
            omittedLines: 0,
          },
        },
      ],
      [
        'b.png',
        {
          load: ready,
          diff: {
            kind: 'binary',
            hunks: [],
            omittedLines: 0,
            oldSize: 1200,
            newSize: 3400,
            images: { old: 'data:image/png;base64,AA==' },
          },
        },
      ],
      [
        'big.log',
        {
          load: ready,
          diff: { kind: 'too-large', hunks: [], omittedLines: 0, oldSize: 3 * 1024 * 1024, newSize: 4 * 1024 * 1024 },
        },
      ],
      ['run.sh', { load: ready, diff: { kind: 'text', hunks: [], omittedLines: 0 } }],
      ['link', { load: ready, diff: { kind: 'symlink', hunks: [], omittedLines: 0 } }],
    ]);
    const rows = stackedRows(files, diffs, [{ path: 'node_modules/', reason: 'excluded' }]);
    const shown = rows
      .filter((row) => row.kind !== 'gap')
      .map((row) =>
        row.kind === 'file'
          ? `# ${row.path}`
          : row.kind === 'line'
            ? row.key
            : row.kind === 'hunk'
              ? 'hunk'
              : row.kind === 'notice' || row.kind === 'skipped'
                ? `${row.path}: ${row.kind === 'notice' ? row.text : row.reason}`
                : row.kind === 'images'
                  ? `${row.path}: images ${row.old ?? 'none'} | ${row.new ?? 'none'}`
                  : row.kind,
      );
    expect(shown).toEqual([
      '# a.txt',
      'hunk',
      'o1',
      'n1',
      '# b.png',
      'b.png: images data:image/png;base64,AA== | none',
      'b.png: Binary, 1,200 → 3,400 bytes. Not shown as text (binary, or not UTF-8): its bytes differ, and its lines cannot be picked. Restore the whole file to bring it back.',
      '# big.log',
      'big.log: Too large to show line by line (3.0 MiB → 4.0 MiB). Restore the whole file to bring it back.',
      '# run.sh',
      'run.sh: mode 644 → 755',
      '# link',
      'link: link: x → y',
      '# later.txt',
      'later.txt: Loading the diff…',
      'node_modules/: excluded (dependencies, build output, secrets, media): not stored, so it cannot be shown or restored',
    ]);
    expect(headerIndexes(rows).get('b.png')).toBe(rows.findIndex((row) => row.kind === 'file' && row.path === 'b.png'));
  });
});
