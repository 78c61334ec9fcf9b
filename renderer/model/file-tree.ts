/** One row of a file tree: a folder (its key ends with `/`) or a changed file, at its depth. */
export type FileTreeRow =
  | {
      readonly kind: 'folder';
      readonly key: string;
      readonly name: string;
      readonly depth: number;
      readonly files: readonly string[];
    }
  | { readonly kind: 'file'; readonly key: string; readonly name: string; readonly depth: number };

interface Folder {
  readonly folders: Map<string, Folder>;
  readonly files: string[];
}

function emptyFolder(): Folder {
  return { folders: new Map(), files: [] };
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Every file under a folder, in tree order. */
function filesUnder(folder: Folder, prefix: string): string[] {
  const nested = [...folder.folders.entries()]
    .sort(([a], [b]) => byName(a, b))
    .flatMap(([name, child]) => filesUnder(child, `${prefix}${name}/`));
  return [...nested, ...[...folder.files].sort(byName).map((name) => `${prefix}${name}`)];
}

function emit(rows: FileTreeRow[], folder: Folder, prefix: string, depth: number): void {
  for (const [name, child] of [...folder.folders.entries()].sort(([a], [b]) => byName(a, b))) {
    // A folder that holds only one folder is shown joined with it: `src/app/`.
    let label = `${name}/`;
    let node = child;
    while (node.files.length === 0 && node.folders.size === 1) {
      const [[innerName, inner]] = [...node.folders.entries()] as [[string, Folder]];
      label += `${innerName}/`;
      node = inner;
    }
    const key = `${prefix}${label}`;
    rows.push({ kind: 'folder', key, name: label, depth, files: filesUnder(node, key) });
    emit(rows, node, key, depth + 1);
  }
  for (const name of [...folder.files].sort(byName)) rows.push({ kind: 'file', key: `${prefix}${name}`, name, depth });
}

/**
 * The changed files as a tree: folders first, then files, each sorted by name; a folder holding
 * only one folder is joined with it (`src/app/`). A folder row lists every file under it, so
 * ticking it selects them all.
 */
export function fileTreeRows(paths: readonly string[]): FileTreeRow[] {
  const root = emptyFolder();
  for (const path of paths) {
    const parts = path.split('/');
    let folder = root;
    for (const part of parts.slice(0, -1)) {
      let child = folder.folders.get(part);
      if (child === undefined) {
        child = emptyFolder();
        folder.folders.set(part, child);
      }
      folder = child;
    }
    folder.files.push(parts[parts.length - 1] ?? path);
  }
  const rows: FileTreeRow[] = [];
  emit(rows, root, '', 0);
  return rows;
}

/** The files of a tree, in the order it shows them. */
export function filesInTreeOrder(rows: readonly FileTreeRow[]): string[] {
  return rows.filter((row) => row.kind === 'file').map((row) => row.key);
}
