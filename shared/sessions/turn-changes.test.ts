import { describe, expect, it } from 'vitest';
import { changesWords, isInFolder, turnChanges } from './turn-changes';

const project = '/work/project';
const other = '/work/other';

describe("a turn's changeset", () => {
  it('merges a file changed by several calls into one change, its lines summed', () => {
    const changes = turnChanges([
      { effects: [{ path: `${project}/src/app.ts`, change: 'created', added: 3, removed: 0 }] },
      { effects: [{ path: `${project}/src/app.ts`, change: 'modified', added: 2, removed: 1 }] },
      { effects: [{ path: `${project}/README.md`, change: 'modified', added: 1, removed: 1 }] },
    ]);
    expect(changes.files).toEqual([
      { path: `${project}/README.md`, change: 'modified', added: 1, removed: 1, isPartlyCounted: false },
      { path: `${project}/src/app.ts`, change: 'created', added: 5, removed: 1, isPartlyCounted: false },
    ]);
    expect(changes.counts).toEqual({ files: 2, insertions: 6, deletions: 2 });
    expect(changes.isPartlyCounted).toBe(false);
    expect(changesWords(changes)).toBe('2 files, +6 −2');
  });

  it('leaves out a file the turn created and deleted again; a file deleted and written again is changed', () => {
    const changes = turnChanges([
      {
        effects: [
          { path: `${project}/tmp.txt`, change: 'created', added: 1, removed: 0 },
          { path: `${project}/a.txt`, change: 'deleted' },
        ],
      },
      {
        effects: [
          { path: `${project}/tmp.txt`, change: 'deleted' },
          { path: `${project}/a.txt`, change: 'created', added: 2, removed: 0 },
        ],
      },
    ]);
    expect(changes.files.map((file) => [file.path, file.change])).toEqual([[`${project}/a.txt`, 'modified']]);
    expect(changes.counts).toEqual({ files: 1, insertions: 2, deletions: 0 });
  });

  it("counts one folder's changes when asked, and says when a command's changes are not all counted", () => {
    const calls = [
      { effects: [{ path: `${project}/src/app.ts`, change: 'modified' as const, added: 2, removed: 0 }] },
      // A command: the file it modified is not counted in lines, and 3 more files were not recorded.
      { effects: [{ path: `${other}/build.log`, change: 'modified' as const }], effectsOmitted: 3 },
      // A folder whose name starts like the project's is not inside it.
      { effects: [{ path: `${project}-copy/x.ts`, change: 'created' as const, added: 7, removed: 0 }] },
    ];
    const inProject = turnChanges(calls, project);
    expect(inProject.counts).toEqual({ files: 1, insertions: 2, deletions: 0 });
    expect(changesWords(inProject)).toBe('1 file, +2 −0');
    const everywhere = turnChanges(calls);
    expect(everywhere.counts).toEqual({ files: 3, insertions: 9, deletions: 0 });
    expect(everywhere.omitted).toBe(3);
    expect(everywhere.isPartlyCounted).toBe(true);
    expect(changesWords(everywhere)).toBe('at least 3 files, +9 −0');
  });

  it('gives the same numbers when its merged files are counted again (a brief carries them so)', () => {
    const calls = [
      { effects: [{ path: `${project}/a.ts`, change: 'modified' as const, added: 4, removed: 2 }] },
      { effects: [{ path: `${project}/a.ts`, change: 'modified' as const }] },
      { effects: [{ path: `${project}/b.ts`, change: 'created' as const, added: 1, removed: 0 }] },
    ];
    const once = turnChanges(calls);
    const again = turnChanges([{ effects: once.files, effectsOmitted: once.omitted }], project);
    expect(again.counts).toEqual(once.counts);
    expect(again.isPartlyCounted).toBe(true);
    expect(again.files).toEqual(once.files);
  });

  it('tells a path inside a folder on either separator', () => {
    expect(isInFolder('C:\\work\\p\\a.ts', 'C:\\work\\p')).toBe(true);
    expect(isInFolder('/work/p/a.ts', '/work/p/')).toBe(true);
    expect(isInFolder('/work/pa/a.ts', '/work/p')).toBe(false);
  });
});
