// How the `mino` command's zod parses, set before any module builds a schema
// (each object schema reads the setting as it is built): imported first by
// mino.ts.
//
// zod compiles a fast path (a new Function) for each object schema at its
// first parse. A command parses each schema a few times, so compiling costs
// more than it saves. The desktop app's main process, which runs for hours,
// keeps the fast paths.
import { z } from 'zod';

z.config({ jitless: true });
