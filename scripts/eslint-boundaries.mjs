// @ts-check
/**
 * Vigil's own ESLint rules for the house style's import boundaries.
 *
 * These rules replace eslint-plugin-import-x, whose native resolver (unrs-resolver) ships
 * per-platform binaries that the registry mirror CI installs from does not carry: with it the
 * lock file could never satisfy `npm ci`. The boundaries are folder prefixes, so resolving a
 * relative specifier with path.resolve is all they need; no module resolution is involved.
 * `public-face` adds what import-x has no rule for: faces by convention, each folder reached only through its index
 * (and its lazy.ts, which holds only `load…()` functions).
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * @typedef {{ target: string, from: string | string[], except?: string[], message: string }} Zone
 *   `target` and `from` are folders relative to ESLint's working directory (the project root);
 *   `except` are folders relative to `from` that stay allowed.
 */

/** @param {string} child @param {string} parent */
const isInside = (child, parent) => child === parent || child.startsWith(parent + path.sep);

/**
 * Every module specifier a file names: static imports, re-exports and dynamic imports.
 * @param {(node: import('estree').Literal, source: string) => void} check
 */
const specifierVisitors = (check) => {
  /** @param {import('estree').Node | null | undefined} source */
  const visit = (source) => {
    if (source?.type === 'Literal' && typeof source.value === 'string') check(source, source.value);
  };
  return {
    /** @param {import('estree').ImportDeclaration} node */
    ImportDeclaration: (node) => {
      visit(node.source);
    },
    /** @param {import('estree').ExportNamedDeclaration} node */
    ExportNamedDeclaration: (node) => {
      visit(node.source);
    },
    /** @param {import('estree').ExportAllDeclaration} node */
    ExportAllDeclaration: (node) => {
      visit(node.source);
    },
    /** @param {import('estree').ImportExpression} node */
    ImportExpression: (node) => {
      visit(node.source);
    },
  };
};

/** @type {import('eslint').Rule.RuleModule} */
const restrictedPaths = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid relative imports that cross a folder boundary of the house style.' },
    schema: [
      {
        type: 'object',
        properties: { zones: { type: 'array' } },
        required: ['zones'],
        additionalProperties: false,
      },
    ],
    messages: { crossed: '{{message}} ({{specifier}})' },
  },
  create(context) {
    const zones = /** @type {{ zones: Zone[] }} */ (context.options[0]).zones.map((zone) => ({
      target: path.resolve(context.cwd, zone.target),
      from: (Array.isArray(zone.from) ? zone.from : [zone.from]).map((folder) => path.resolve(context.cwd, folder)),
      except: zone.except ?? [],
      message: zone.message,
    }));
    const file = context.filename;
    const applicable = zones.filter((zone) => isInside(file, zone.target));
    if (applicable.length === 0) return {};
    return specifierVisitors((node, specifier) => {
      if (!specifier.startsWith('.')) return;
      const imported = path.resolve(path.dirname(file), specifier);
      for (const zone of applicable) {
        const from = zone.from.find((folder) => isInside(imported, folder));
        if (from === undefined) continue;
        if (zone.except.some((folder) => isInside(imported, path.resolve(from, folder)))) continue;
        context.report({ node, messageId: 'crossed', data: { message: zone.message, specifier } });
        return;
      }
    });
  },
};

/** Whether a file is a test or test support, which may reach past any face. */
const isTestFile = (/** @type {string} */ file) =>
  /\.test\.tsx?$/.test(file) || file.split(path.sep).includes('test-support');

/** Whether `folder` shows a face of its own: an index.ts. Cached: a lint run asks about the same folders often. */
const hasIndex = (() => {
  /** @type {Map<string, boolean>} */
  const known = new Map();
  return (/** @type {string} */ folder) => {
    let answer = known.get(folder);
    if (answer === undefined) {
      answer = fs.existsSync(path.join(folder, 'index.ts'));
      known.set(folder, answer);
    }
    return answer;
  };
})();

/**
 * The faces an import into `imported` passes, outermost first: the top folder under `root` it lies in
 * (its face by convention, whether or not the index exists yet), then each folder below that has an index.ts.
 * @param {string} root @param {string} imported
 */
const facesOf = (root, imported) => {
  const parts = path.relative(root, imported).split(path.sep);
  if (parts.length < 2 || parts[0] === '..' || parts[0] === '') return [];
  const faces = [path.join(root, parts[0])];
  for (let depth = 2; depth < parts.length; depth += 1) {
    const folder = path.join(root, ...parts.slice(0, depth));
    if (hasIndex(folder)) faces.push(folder);
  }
  return faces;
};

/**
 * A folder's lazy face, lazy.ts, beside its index.ts: only `load…()` functions, each an import() of one
 * module, so a small command that takes one loader loads nothing else (the chunk plan follows every
 * static import of a barrel). Type-only imports are erased and allowed.
 * @param {import('eslint').Rule.RuleContext} context
 */
const lazyFace = (context) => {
  /** @param {import('estree').ImportDeclaration | import('estree').ExportNamedDeclaration | import('estree').ExportAllDeclaration} node */
  const check = (node) => {
    const kind = /** @type {{ importKind?: string, exportKind?: string }} */ (node);
    if (node.source === null || node.source === undefined || kind.importKind === 'type' || kind.exportKind === 'type')
      return;
    context.report({ node, messageId: 'lazyStatic', data: { specifier: String(node.source.value) } });
  };
  return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
};

/** @type {import('eslint').Rule.RuleModule} */
const publicFace = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Faces by convention: every folder under `root` (and any folder below with an index.ts) is reached from outside only through its index.ts.',
    },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          skip: { type: 'array', items: { type: 'string' } },
        },
        required: ['root'],
        additionalProperties: false,
      },
    ],
    messages: {
      deep: 'Import {{folder}} through its face, {{folder}}/index.ts: other folders never reach inside it ({{specifier}}).',
      lazyStatic:
        'A lazy face (lazy.ts) holds only `load…()` functions that import() a module: a static import here ({{specifier}}) would load it for every importer. Move it to index.ts.',
    },
  },
  create(context) {
    const file = context.filename;
    if (isTestFile(file)) return {};
    if (path.basename(file) === 'lazy.ts') return lazyFace(context);
    const options = /** @type {{ root: string, skip?: string[] }} */ (context.options[0]);
    const root = path.resolve(context.cwd, options.root);
    const exempt = (options.skip ?? []).map((folder) => path.join(root, folder));
    return specifierVisitors((node, specifier) => {
      if (!specifier.startsWith('.')) return;
      const imported = path.resolve(path.dirname(file), specifier);
      const face = facesOf(root, imported).find((folder) => !isInside(file, folder));
      if (face === undefined || exempt.includes(face)) return;
      const inner = path.relative(face, imported);
      if (inner === '' || /^(index|lazy)(\.[cm]?[jt]s)?$/.test(inner)) return;
      // Benchmarks and scripts, outside the app, may use a folder's test fixtures as its tests do.
      if (!isInside(file, root) && inner.split(path.sep)[0] === 'test-support') return;
      const folder = path.relative(context.cwd, face).split(path.sep).join('/');
      context.report({ node, messageId: 'deep', data: { folder, specifier } });
    });
  },
};

/** @type {import('eslint').Rule.RuleModule} */
const noDefaultExport = {
  meta: {
    type: 'suggestion',
    docs: { description: 'Named exports only.' },
    schema: [],
    messages: { named: 'Use a named export: the house style has no default exports.' },
  },
  create(context) {
    return {
      ExportDefaultDeclaration: (node) => {
        context.report({ node, messageId: 'named' });
      },
      /** @param {import('estree').ExportNamedDeclaration} node */
      ExportNamedDeclaration: (node) => {
        for (const specifier of node.specifiers) {
          const exported = specifier.exported;
          const name = exported.type === 'Identifier' ? exported.name : String(exported.value);
          if (name === 'default') context.report({ node: specifier, messageId: 'named' });
        }
      },
    };
  },
};

/** @type {import('eslint').Rule.RuleModule} */
const noDuplicateImports = {
  meta: {
    type: 'suggestion',
    docs: { description: 'One import declaration per module (type-only imports counted apart).' },
    schema: [],
    messages: { duplicate: "'{{specifier}}' is imported more than once in this file: merge the imports." },
  },
  create(context) {
    /** @type {Set<string>} */
    const seen = new Set();
    return {
      /** @param {import('estree').ImportDeclaration & { importKind?: string }} node */
      ImportDeclaration: (node) => {
        const specifier = String(node.source.value);
        const key = `${node.importKind === 'type' ? 'type' : 'value'}\0${specifier}`;
        if (seen.has(key)) context.report({ node, messageId: 'duplicate', data: { specifier } });
        seen.add(key);
      },
    };
  },
};

/** The plugin object ESLint's flat config takes under `plugins`. */
export const vigilBoundaries = {
  meta: { name: 'vigil-boundaries' },
  rules: {
    'restricted-paths': restrictedPaths,
    'public-face': publicFace,
    'no-default-export': noDefaultExport,
    'no-duplicate-imports': noDuplicateImports,
  },
};
