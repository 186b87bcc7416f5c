// mino/no-clock-in-pure-module
//
// A pure module (the PURE_MODULES globs in eslint.config.mjs) reads no clock,
// no random source and starts no timer: the time, the randomness or the
// scheduling comes in from its caller, as a required argument or an injected
// function, and only the edge (a React hook or component, the service, the
// CLI) reads the real ones. Then the same inputs always give the same result.
//
// Flagged, wherever they appear (a default parameter value included: it reads
// the clock whenever a caller leaves the argument out):
//   - Date.now, performance.now, Math.random, crypto.randomUUID and
//     crypto.getRandomValues, called or only referenced (`= Date.now`);
//   - new Date() with no argument, and Date() called as a function;
//   - setTimeout, setInterval and setImmediate, called or referenced, also as
//     globalThis.setTimeout (or window., self.);
//   - importing a clock, random source or timer from Node: randomUUID,
//     getRandomValues, randomBytes, randomInt from 'crypto'/'node:crypto',
//     performance from 'perf_hooks'/'node:perf_hooks', anything from
//     'timers'/'timers/promises' (node: spellings too), and the same members
//     read through a namespace or default import of those modules.
// Not flagged: a local variable or parameter that shadows one of these names
// (a parameter called `setTimeout` is the caller's), `new Date(value)`, and
// types (`ReturnType<typeof setTimeout>`).

const CLOCK_MEMBERS = new Map([
  ['Date', new Set(['now'])],
  ['performance', new Set(['now'])],
  ['Math', new Set(['random'])],
  ['crypto', new Set(['randomUUID', 'getRandomValues'])],
]);
const TIMERS = new Set(['setTimeout', 'setInterval', 'setImmediate']);
const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self']);

/** What each Node module offers that is a clock, a random source or a timer; `*`: all of it. */
const NODE_SOURCES = new Map([
  ['crypto', new Set(['randomUUID', 'getRandomValues', 'randomBytes', 'randomInt', 'randomFillSync', 'randomFill'])],
  ['perf_hooks', new Set(['performance'])],
  ['timers', '*'],
  ['timers/promises', '*'],
]);

function nodeModuleName(source) {
  return source.startsWith('node:') ? source.slice('node:'.length) : source;
}

/** Whether `node` sits in a type (`ReturnType<typeof setTimeout>`), where no clock is read. */
function inType(node) {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type === 'TSTypeQuery' || parent.type === 'TSTypeReference' || parent.type === 'TSTypeAnnotation') return true;
    if (/Statement|Declaration|Function|Program/.test(parent.type)) return false;
  }
  return false;
}

function memberName(node) {
  if (node.type !== 'MemberExpression') return null;
  if (!node.computed && node.property.type === 'Identifier') return node.property.name;
  if (node.computed && node.property.type === 'Literal' && typeof node.property.value === 'string') return node.property.value;
  return null;
}

/** The function whose default parameter value holds `node`, if any. */
function inDefaultParameter(node) {
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === 'AssignmentPattern' && parent.right === child) {
      const owner = parent.parent;
      if (owner && /Function/.test(owner.type) && owner.params.includes(parent)) return true;
      if (owner?.type === 'TSParameterProperty') return true;
    }
    if (/Function|Program/.test(parent.type)) return false;
  }
  return false;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'A pure module reads no clock, random source or timer: its caller passes the time in.' },
    schema: [],
    messages: {
      clock: '{{what}} in a pure module: take the time (or the randomness) as a required argument or an injected function, and read the real one at the edge (a hook, a component, the service).',
      defaultClock: '{{what}} as a default parameter value still reads it whenever a caller leaves the argument out: make the parameter required and read the real one at the edge (a hook, a component, the service).',
      timer: '{{what}} in a pure module: a pure module schedules nothing; the edge (a hook, a component, the service) owns timers.',
      nodeImport: "Importing {{what}} from '{{source}}' brings a clock, random source or timer into a pure module: pass it in from the edge instead.",
    },
  },
  create(context) {
    const sourceCode = context.sourceCode;

    function report(node, what, timer = false) {
      const messageId = inDefaultParameter(node) ? 'defaultClock' : timer ? 'timer' : 'clock';
      context.report({ node, messageId, data: { what } });
    }

    /** A use of a global object or function, `identifier` being its name in the code. */
    function checkGlobalUse(identifier) {
      const name = identifier.name;
      const parent = identifier.parent;
      if (TIMERS.has(name)) {
        report(identifier, name, true);
        return;
      }
      if (name === 'Date') {
        if (parent.type === 'NewExpression' && parent.callee === identifier && parent.arguments.length === 0) report(parent, 'new Date()');
        else if (parent.type === 'CallExpression' && parent.callee === identifier) report(parent, 'Date()');
      }
      if (GLOBAL_OBJECTS.has(name) && parent.type === 'MemberExpression' && parent.object === identifier) {
        const member = memberName(parent);
        if (member && TIMERS.has(member)) report(parent, `${name}.${member}`, true);
        // globalThis.Date.now() and the like: one level further down.
        else if (member && CLOCK_MEMBERS.has(member) && parent.parent?.type === 'MemberExpression' && parent.parent.object === parent) {
          const inner = memberName(parent.parent);
          if (inner && CLOCK_MEMBERS.get(member).has(inner)) report(parent.parent, `${name}.${member}.${inner}`);
        }
        return;
      }
      const members = CLOCK_MEMBERS.get(name);
      if (members && parent.type === 'MemberExpression' && parent.object === identifier) {
        const member = memberName(parent);
        if (member && members.has(member)) report(parent, `${name}.${member}`);
      }
    }

    /** A namespace or default import of a Node module: flag the members that are clocks, random sources or timers. */
    function checkNamespaceUses(variable, offered, source) {
      for (const reference of variable.references) {
        const parent = reference.identifier.parent;
        if (parent.type !== 'MemberExpression' || parent.object !== reference.identifier) continue;
        const member = memberName(parent);
        if (member && (offered === '*' || offered.has(member))) report(parent, `${reference.identifier.name}.${member} (from '${source}')`, offered === '*');
      }
    }

    return {
      ImportDeclaration(node) {
        const source = String(node.source.value);
        const offered = NODE_SOURCES.get(nodeModuleName(source));
        if (!offered || node.importKind === 'type') return;
        for (const specifier of node.specifiers) {
          if (specifier.type === 'ImportSpecifier') {
            if (specifier.importKind === 'type') continue;
            const imported = specifier.imported.type === 'Identifier' ? specifier.imported.name : String(specifier.imported.value);
            if (offered === '*' || offered.has(imported)) context.report({ node: specifier, messageId: 'nodeImport', data: { what: imported, source } });
          } else {
            const [variable] = sourceCode.getDeclaredVariables(specifier);
            if (variable) checkNamespaceUses(variable, offered, source);
          }
        }
      },
      'Program:exit'(program) {
        const globalScope = sourceCode.getScope(program);
        // References that no declaration in the file answers are the globals; so are those to declared globals.
        const references = new Set(globalScope.through);
        for (const variable of globalScope.variables) if (variable.defs.length === 0) for (const reference of variable.references) references.add(reference);
        for (const reference of references) {
          // A type (`typeof setTimeout`) reads no clock.
          if (reference.isValueReference === false || inType(reference.identifier)) continue;
          checkGlobalUse(reference.identifier);
        }
      },
    };
  },
};
