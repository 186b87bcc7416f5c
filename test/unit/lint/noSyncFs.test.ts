import rule from '../../../eslint-rules/no-sync-fs.mjs';
import { ruleTester } from './ruleTester';

const sync = (name: string) => ({ messageId: 'sync', data: { name } });

ruleTester.run('mino/no-sync-fs', rule, {
  valid: [
    "import * as fs from 'node:fs/promises';\nexport const read = (file: string) => fs.readFile(file, 'utf8');",
    "import { readFile } from 'node:fs/promises';\nexport const read = (file: string) => readFile(file, 'utf8');",
    // The rest of fs: streams, constants, the promise API through it.
    "import * as fs from 'node:fs';\nexport const stream = (file: string) => fs.createReadStream(file);\nexport const mode = fs.constants.R_OK;\nexport const read = (file: string) => fs.promises.readFile(file);",
    "import { createWriteStream } from 'fs';\nexport const out = createWriteStream('x');",
    // A *Sync name from elsewhere is not fs.
    "import { parseSync } from 'some-parser';\nexport const tree = parseSync('x');",
    "import type { Stats } from 'node:fs';\nexport type S = Stats;",
  ],
  invalid: [
    { code: "import { readFileSync } from 'node:fs';\nexport const text = readFileSync('x', 'utf8');", errors: [sync('readFileSync')] },
    { code: "import { writeFileSync } from 'fs';\nwriteFileSync('x', 'y');", errors: [sync('writeFileSync')] },
    { code: "import { existsSync as exists } from 'node:fs';\nexport const there = exists('x');", errors: [sync('existsSync')] },
    { code: "import * as fs from 'node:fs';\nexport const info = fs.statSync('x');", errors: [sync('fs.statSync')] },
    { code: "import fs from 'fs';\nexport const names = fs.readdirSync('.');", errors: [sync('fs.readdirSync')] },
    { code: "import * as fs from 'node:fs';\nexport const there = fs['existsSync']('x');", errors: [sync('fs.existsSync')] },
    { code: "import * as fs from 'node:fs';\nfs.mkdirSync('x');\nfs.rmSync('y');", errors: [sync('fs.mkdirSync'), sync('fs.rmSync')] },
  ],
});
