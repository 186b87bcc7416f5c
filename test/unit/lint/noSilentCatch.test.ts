import rule from '../../../eslint-rules/no-silent-catch.mjs';
import { ruleTester } from './ruleTester';

const LOG = "import { errorText, log } from '../log/log';\n";
const wrap = (body: string, binding = '(error)') => `export async function f(work: () => Promise<unknown>, keep: (e: unknown) => void) {\n  try {\n    await work();\n  } catch ${binding} {\n${body}\n  }\n  return 1;\n}`;
const logged = (body: string, binding = '(error)') => LOG + wrap(body, binding);

ruleTester.run('mino/no-silent-catch', rule, {
  valid: [
    // Rethrows.
    wrap('    throw error;'),
    wrap("    throw new Error('could not work', { cause: error });"),
    // Returns a value or a typed failure.
    wrap('    return null;', ''),
    wrap("    return { ok: false, reason: String(error) };"),
    wrap("    if ((error as { code?: string }).code === 'ENOENT') return null;\n    throw error;"),
    wrap('    if (error instanceof TypeError) {\n      return 0;\n    } else {\n      throw error;\n    }'),
    wrap('    try {\n      return await work();\n    } catch {\n      return null;\n    }', ''),
    // Logs through the project's logger, with the event as its reason.
    logged("    log.warn('work.failed', { error: errorText(error) });"),
    logged("    log.debug(`work.${'failed'}`);", ''),
    "import { log as trail } from '../../core/log/log';\n" + wrap("    trail.error('work.failed');", ''),
    // Hands the error on.
    wrap('    keep(error);'),
    wrap('    await Promise.resolve(keep(error));'),
    wrap('    void keep({ error });'),
    wrap("    keep(new Error('wrapped', { cause: error }));"),
    'export function p(run: () => void) {\n  return new Promise((resolve, reject) => {\n    try {\n      run();\n      resolve(1);\n    } catch (error) {\n      reject(error);\n    }\n  });\n}',
    'export function p(run: () => void) {\n  return new Promise((resolve) => {\n    try {\n      run();\n    } catch {\n      resolve(null);\n    }\n  });\n}',
    'let lastError: unknown;\nexport function f(run: () => void) {\n  try {\n    run();\n  } catch (error) {\n    lastError = error;\n  }\n}\nexport const last = () => lastError;',
    // Says why it ignores the error, in the one recognized form.
    wrap('    // ignore: a missing file is the first run', ''),
    wrap('    // The cache is only a speed-up.\n    // ignore: a stale cache is rebuilt on the next start\n    cached = null;', ''),
  ],
  invalid: [
    // Empty.
    { code: wrap('', ''), errors: [{ messageId: 'empty' }] },
    { code: wrap(''), errors: [{ messageId: 'empty' }] },
    // A comment that is not the recognized form.
    { code: wrap('    // Gone already.', ''), errors: [{ messageId: 'unrecognizedComment' }] },
    { code: wrap('    /* ignore: in a block comment */', ''), errors: [{ messageId: 'unrecognizedComment' }] },
    { code: wrap('    // ignore:no space before the reason', ''), errors: [{ messageId: 'unrecognizedComment' }] },
    { code: wrap('    // ignore: ', ''), errors: [{ messageId: 'unrecognizedComment' }] },
    { code: wrap('    // Ignore: capitalised', ''), errors: [{ messageId: 'unrecognizedComment' }] },
    // Only assigns, or sets a flag.
    { code: 'let failed = false;\nexport function f(run: () => void) {\n  try {\n    run();\n  } catch {\n    failed = true;\n  }\n  return failed;\n}', errors: [{ messageId: 'silent' }] },
    { code: 'let message = "";\nexport function f(run: () => void) {\n  try {\n    run();\n  } catch (error) {\n    message = "it failed";\n    void error;\n  }\n  return message;\n}', errors: [{ messageId: 'silent' }] },
    // Leaves without the error: a bare return, continue, or a return on one path only.
    { code: wrap('    return;'), errors: [{ messageId: 'silent' }] },
    { code: 'export function f(items: Array<() => void>) {\n  for (const run of items) {\n    try {\n      run();\n    } catch {\n      continue;\n    }\n  }\n}', errors: [{ messageId: 'silent' }] },
    { code: wrap("    if ((error as { code?: string }).code !== 'ENOENT') throw error;"), errors: [{ messageId: 'silent' }] },
    { code: wrap('    if (error instanceof TypeError) return 0;'), errors: [{ messageId: 'silent' }] },
    // The inner catch hands its error on but does not leave, so the outer one still drops its own.
    { code: wrap('    try {\n      return await work();\n    } catch (inner) {\n      keep(inner);\n    }', ''), errors: [{ messageId: 'silent' }] },
    // Uses the error where nothing receives it.
    { code: wrap('    const text = String(error);\n    void text;'), errors: [{ messageId: 'silent' }] },
    // A log inside a branch covers only that branch; a logger not imported from log/log is not the project's.
    { code: logged("    if (error instanceof TypeError) log.warn('work.failed');"), errors: [{ messageId: 'silent' }] },
    { code: "const log = { warn: (_e: string) => undefined };\n" + wrap("    log.warn('work.failed');"), errors: [{ messageId: 'silent' }] },
    // A log line with no event gives no reason.
    { code: logged("    log.warn('', { error: errorText(error) });"), errors: [{ messageId: 'silent' }] },
    // A handling in a nested function or catch does not count for this one.
    { code: wrap('    const later = () => keep(error);\n    void later;'), errors: [{ messageId: 'silent' }] },
    { code: wrap('    try {\n      keep(1);\n    } catch (inner) {\n      // ignore: the inner one only\n      void inner;\n    }', ''), errors: [{ messageId: 'silent' }] },
  ],
});
