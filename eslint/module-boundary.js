// Lint rule: a module under src/modules/ uses another module only through its public files (index.ts, contracts.ts),
// never through its internals; the imports that still do are listed in eslint.config.js as debt, so the list can
// only shrink.
import path from 'node:path';

const PUBLIC = new Set(['index.js', 'contracts.js']);

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'import another module only through its public files (index.ts, contracts.ts)' },
    schema: [{ type: 'object', properties: { allow: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }],
    messages: {
      internal:
        "'{{file}}' is internal to module '{{target}}': import it from '{{target}}/index.ts' (or contracts.ts), or move what it offers there",
      app: 'a module never imports the app that assembles it',
    },
  },
  create(context) {
    const allow = new Set(context.options[0]?.allow ?? []);
    const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    const m = /^src\/modules\/([^/]+)\//.exec(file);
    if (!m || /\.test\.ts$/.test(file)) return {};
    const own = m[1];
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (target === 'src/app.js') return allow.has(`${file} -> ${target}`) ? undefined : context.report({ node, messageId: 'app' });
      const t = /^src\/modules\/([^/]+)\/(.+)$/.exec(target);
      if (!t || t[1] === own || PUBLIC.has(t[2])) return;
      if (allow.has(`${file} -> ${target}`)) return;
      context.report({ node, messageId: 'internal', data: { file: t[2], target: t[1] } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: (n) => check({ ...n, source: n.source }),
    };
  },
};
