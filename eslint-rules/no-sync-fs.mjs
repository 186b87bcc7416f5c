// mino/no-sync-fs
//
// The service and the Electron adapter run on main's one thread, which every
// window's requests and events share: a synchronous file call there stalls all
// of them for as long as the disk takes. They use fs/promises instead.
//
// Flagged: any export of 'fs' or 'node:fs' whose name ends in `Sync`
// (readFileSync, writeFileSync, existsSync, statSync, ...), whether imported by
// name (`import { existsSync } from 'node:fs'`, under any local name) or read
// through a namespace or default import (`fs.readFileSync`, `fs['statSync']`).
// 'fs/promises' and the rest of 'fs' (streams, constants) are allowed.

const FS_MODULES = new Set(['fs', 'node:fs']);
const SYNC_NAME = /Sync$/;

function memberName(node) {
  if (!node.computed && node.property.type === 'Identifier') return node.property.name;
  if (node.computed && node.property.type === 'Literal' && typeof node.property.value === 'string') return node.property.value;
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'No synchronous fs calls on the main thread of the service and the Electron adapter.' },
    schema: [],
    messages: {
      sync: "{{name}} blocks main's thread, and every window with it, until the disk answers: use the promise form from 'node:fs/promises'.",
    },
  },
  create(context) {
    const sourceCode = context.sourceCode;
    return {
      ImportDeclaration(node) {
        if (!FS_MODULES.has(String(node.source.value)) || node.importKind === 'type') return;
        for (const specifier of node.specifiers) {
          if (specifier.type === 'ImportSpecifier') {
            const imported = specifier.imported.type === 'Identifier' ? specifier.imported.name : String(specifier.imported.value);
            if (specifier.importKind !== 'type' && SYNC_NAME.test(imported)) context.report({ node: specifier, messageId: 'sync', data: { name: imported } });
            continue;
          }
          // A namespace or default import: check what is read through it.
          for (const variable of sourceCode.getDeclaredVariables(specifier)) {
            for (const reference of variable.references) {
              const parent = reference.identifier.parent;
              if (parent.type !== 'MemberExpression' || parent.object !== reference.identifier) continue;
              const name = memberName(parent);
              if (name && SYNC_NAME.test(name)) context.report({ node: parent, messageId: 'sync', data: { name: `${reference.identifier.name}.${name}` } });
            }
          }
        }
      },
    };
  },
};
