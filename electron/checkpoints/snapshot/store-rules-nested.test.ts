import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../test-support/random-file-ops';
import { StoreRules, type StoreRulesData } from './store-rules';

/**
 * A submodule's files follow its own rules (`StoreRulesData.nested`), found by a binary search of the
 * submodules' folders: names that sort around '/' (a space, '-', '.') must not send a path to a
 * neighbour's rules. Checked against the plain definition (the submodule whose folder is the path's
 * start) over random sets of submodules.
 */

function repository(key: string, patterns: string, nested: StoreRulesData['nested'] = []): StoreRulesData {
  return {
    key,
    prefix: '',
    tracked: [],
    sources: patterns === '' ? [] : [{ base: '', patterns, precedence: 2 }],
    isRepository: true,
    nested,
  };
}

const names = ['a', 'a b', 'a-b', 'a.b', 'a0', 'ab', 'b', 'lib', 'lib ', 'lib-2', 'x/y', 'x/y z', 'x/yz'];

describe('the rules of the submodule that holds a path', () => {
  it('are those of the submodule whose folder starts the path, and no other, for random sets of submodules', () => {
    const random = seededRandom(1729);
    for (let round = 0; round < 200; round += 1) {
      const chosen = names.filter(() => random() < 0.5);
      // Submodules of one repository never lie inside one another.
      const submodules = chosen.filter((at) => !chosen.some((other) => other !== at && at.startsWith(`${other}/`)));
      // The outer repository ignores *.tmp and every top folder; each submodule ignores nothing but its own marker.
      const rules = new StoreRules(
        repository(
          `outer-${round}`,
          '*.tmp\n/*/\n',
          submodules.map((at) => ({ at, rules: repository(`inner-${at}`, `${at.replace(/[/ ]/g, '_')}.mark\n`) })),
        ),
      );
      for (const folder of [...names, 'c', 'a b c', 'lib2']) {
        const holder = submodules.find((at) => folder === at || folder.startsWith(`${at}/`));
        const rel = `${folder}/deep/f.tmp`;
        expect(rules.fileExclusion(rel, 'f.tmp'), `${rel} with ${submodules.join(', ')}`).toBe(
          holder === undefined ? 'excluded' : undefined,
        );
        if (holder !== undefined) expect(rules.folderExclusion(holder, holder.split('/').at(-1) ?? '')).toBeUndefined();
      }
    }
  });

  it("leaves a submodule's own ignored files out by its rules, never by the outer ones", () => {
    const rules = new StoreRules(repository('outer', '*.tmp\n', [{ at: 'lib', rules: repository('inner', 'gen/\n') }]));
    expect(rules.fileExclusion('lib/keep.tmp', 'keep.tmp')).toBeUndefined();
    expect(rules.folderExclusion('lib/gen', 'gen')).toBe('excluded');
    expect(rules.fileExclusion('libx/keep.tmp', 'keep.tmp')).toBe('excluded');
    expect(rules.pathExclusion('lib/gen/out.txt', false)).toBe('excluded');
  });
});
