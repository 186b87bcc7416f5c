// mino/no-silent-catch
//
// A caught error is handled, or the code says why not. A `catch` clause
// passes when at least one of these holds:
//
//   1. It leaves: the last statement of its block is a `throw`, or a `return`
//      with a value (`return null`, `return { ok: false, error }`). An `if` as
//      the last statement passes when it has an `else` and both branches end
//      so; a nested block likewise, and a nested `try` whose block and catch
//      both end so. A bare `return;`, `break` or `continue` does not: the
//      error is dropped on the way out.
//   2. It logs: a statement directly in the block (not inside an `if`, a loop
//      or a nested function) calls the project's logger, `log.debug`,
//      `log.info`, `log.warn` or `log.error`, with a string or template as its
//      first argument (the event: the reason, read in the trail). `log` is the
//      `log` export of src/main/core/log/log.ts, under whatever local name it
//      was imported (`import { log as trail }`). The renderer has no logger: it
//      shows the error to the person, which rule 3 covers.
//   3. It hands the error on: a statement directly in the block is a call
//      (awaited, voided or not) with the caught error somewhere in its
//      arguments (`reject(error)`, `onError(error)`,
//      `setMessage(errorMessage(error))`, `failures.push({ path, error })`), or
//      a call of `resolve(...)` or `reject(...)`; or an assignment that keeps
//      the caught error (`lastError = error`). A call of the logger counts
//      only as rule 2 says.
//   4. It says why it ignores the error: a line comment inside the block (not
//      inside a nested function or catch) of exactly this form:
//          // ignore: <the reason>
//      two slashes, one space, `ignore:`, one space, then the reason.
//
// Everything else is flagged: an empty block, one that only sets a flag or
// assigns something other than the error, returns nothing, continues a loop,
// or explains itself in a comment of any other form.
//
// Promise `.catch(...)` callbacks are not checked: only `catch` clauses.

const IGNORE_COMMENT = /^ ignore: \S/;
const LOG_METHODS = new Set(['debug', 'info', 'warn', 'error']);
const SETTLERS = new Set(['resolve', 'reject']);
/** The module that exports the project's logger, however the import spells its path. */
const LOG_MODULE = /(^|\/)log\/log(\.[cm]?[jt]s)?$/;

function isFunction(node) {
  return node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';
}

/** Whether a statement, as the last of a catch block, leaves with the error thrown or a value returned. */
function leaves(statement) {
  switch (statement?.type) {
    case 'ThrowStatement':
      return true;
    case 'ReturnStatement':
      return statement.argument !== null;
    case 'BlockStatement':
      return leaves(statement.body.at(-1));
    case 'IfStatement':
      return statement.alternate !== null && leaves(statement.consequent) && leaves(statement.alternate);
    case 'TryStatement':
      return leaves(statement.block) && (statement.handler === null || leaves(statement.handler.body));
    default:
      return false;
  }
}

/** The call a statement makes, under an optional `await`, `void` or `?.`. */
function statementCall(statement) {
  if (statement.type !== 'ExpressionStatement') return null;
  let expression = statement.expression;
  for (;;) {
    if (expression.type === 'AwaitExpression') expression = expression.argument;
    else if (expression.type === 'UnaryExpression' && expression.operator === 'void') expression = expression.argument;
    else if (expression.type === 'ChainExpression') expression = expression.expression;
    else break;
  }
  return expression.type === 'CallExpression' || expression.type === 'NewExpression' ? expression : null;
}

function within(node, start, end) {
  return node.range[0] >= start && node.range[1] <= end;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'A catch block rethrows, returns, logs or hands on the error, or says why it ignores it with `// ignore: <reason>`.' },
    schema: [],
    messages: {
      empty: 'Empty catch: the error is dropped without a word. Rethrow it, return a value or a typed failure, log it (log.warn(\'event\', { error: errorText(error) })), or write `// ignore: <why>` inside the block.',
      silent: 'This catch drops the error. Rethrow it, return a value or a typed failure, log it through log.*, hand it on, or write `// ignore: <why>` inside the block.',
      unrecognizedComment: 'This catch drops the error, and its comment is not a recognized ignore: write the reason as `// ignore: <why>` (that exact form), or handle the error.',
    },
  },
  create(context) {
    const sourceCode = context.sourceCode;
    /** Local names of the project's logger in this file. */
    const loggers = new Set();

    /** A call of the project's logger, good or not: it counts only as a log line with its event (rule 2). */
    function callsLogger(call) {
      const callee = call.callee;
      return call.type === 'CallExpression' && callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && loggers.has(callee.object.name);
    }

    function isLogCall(call) {
      if (!callsLogger(call)) return false;
      const callee = call.callee;
      if (callee.computed || callee.property.type !== 'Identifier' || !LOG_METHODS.has(callee.property.name)) return false;
      const [event] = call.arguments;
      return (event?.type === 'Literal' && typeof event.value === 'string' && event.value.trim() !== '') || event?.type === 'TemplateLiteral';
    }

    function handsOn(statement, caught) {
      const call = statementCall(statement);
      if (call) {
        if (callsLogger(call)) return false;
        if (call.callee.type === 'Identifier' && SETTLERS.has(call.callee.name)) return true;
        if (call.arguments.length === 0) return false;
        const start = call.arguments[0].range[0];
        const end = call.arguments.at(-1).range[1];
        return caught.some((reference) => within(reference.identifier, start, end));
      }
      if (statement.type === 'ExpressionStatement' && statement.expression.type === 'AssignmentExpression') {
        const right = statement.expression.right;
        return caught.some((reference) => within(reference.identifier, right.range[0], right.range[1]));
      }
      return false;
    }

    /** The ranges inside `block` whose comments belong to something else: nested functions and catch clauses. */
    function nestedRanges(block) {
      const ranges = [];
      const visit = (node) => {
        for (const key of sourceCode.visitorKeys[node.type] ?? []) {
          const value = node[key];
          for (const child of Array.isArray(value) ? value : [value]) {
            if (!child || typeof child.type !== 'string') continue;
            if (isFunction(child) || child.type === 'CatchClause') ranges.push(child.range);
            else visit(child);
          }
        }
      };
      visit(block);
      return ranges;
    }

    return {
      ImportDeclaration(node) {
        if (!LOG_MODULE.test(String(node.source.value))) return;
        for (const specifier of node.specifiers) {
          if (specifier.type !== 'ImportSpecifier') continue;
          const imported = specifier.imported.type === 'Identifier' ? specifier.imported.name : String(specifier.imported.value);
          if (imported === 'log') loggers.add(specifier.local.name);
        }
      },
      CatchClause(node) {
        const block = node.body;
        if (leaves(block.body.at(-1))) return;
        const caught = sourceCode.getDeclaredVariables(node).flatMap((variable) => variable.references);
        for (const statement of block.body) {
          const call = statementCall(statement);
          if ((call && isLogCall(call)) || handsOn(statement, caught)) return;
        }
        const nested = nestedRanges(block);
        const comments = sourceCode.getCommentsInside(block).filter((comment) => !nested.some(([start, end]) => comment.range[0] >= start && comment.range[1] <= end));
        if (comments.some((comment) => comment.type === 'Line' && IGNORE_COMMENT.test(comment.value))) return;
        const messageId = block.body.length === 0 && comments.length === 0 ? 'empty' : comments.length > 0 ? 'unrecognizedComment' : 'silent';
        context.report({ node, messageId });
      },
    };
  },
};
