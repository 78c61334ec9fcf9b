// @ts-check
/**
 * Vigil's own ESLint rules for the house style's import boundaries.
 *
 * These rules replace eslint-plugin-import-x, whose native resolver (unrs-resolver) ships
 * per-platform binaries that the registry mirror CI installs from does not carry: with it the
 * lock file could never satisfy `npm ci`. The boundaries are folder prefixes, so resolving a
 * relative specifier with path.resolve is all they need; no module resolution is involved.
 * `public-face` adds what import-x has no rule for: a folder that others reach only through its index.
 */
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

/**
 * @typedef {{ folder: string, message: string }} Face
 *   `folder` (relative to ESLint's working directory) shows one public face: its `index.ts`.
 */

/** Whether a file is a test or test support, which may also reach a face's `test-support/` fixtures. */
const isTestFile = (/** @type {string} */ file) =>
  /\.test\.tsx?$/.test(file) || file.split(path.sep).includes('test-support');

/** @type {import('eslint').Rule.RuleModule} */
const publicFace = {
  meta: {
    type: 'problem',
    docs: { description: 'Other folders import a feature folder only through its public face (its index.ts).' },
    schema: [
      {
        type: 'object',
        properties: { faces: { type: 'array' } },
        required: ['faces'],
        additionalProperties: false,
      },
    ],
    messages: { deep: '{{message}} ({{specifier}})' },
  },
  create(context) {
    const file = context.filename;
    const faces = /** @type {{ faces: Face[] }} */ (context.options[0]).faces
      .map((face) => ({ folder: path.resolve(context.cwd, face.folder), message: face.message }))
      .filter((face) => !isInside(file, face.folder));
    if (faces.length === 0) return {};
    const mayUseFixtures = isTestFile(file);
    return specifierVisitors((node, specifier) => {
      if (!specifier.startsWith('.')) return;
      const imported = path.resolve(path.dirname(file), specifier);
      for (const face of faces) {
        if (!isInside(imported, face.folder)) continue;
        const inner = path.relative(face.folder, imported);
        if (inner === '' || /^index(\.[cm]?[jt]s)?$/.test(inner)) continue;
        if (mayUseFixtures && inner.split(path.sep)[0] === 'test-support') continue;
        context.report({ node, messageId: 'deep', data: { message: face.message, specifier } });
        return;
      }
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
