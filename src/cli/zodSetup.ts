// How the `mino` command's zod parses, set before any module builds a schema
// (each object schema reads the setting as it is built): imported first by
// mino.ts, which relies on the bundle keeping that order.
//
// zod compiles a fast path (a new Function) for each object schema at its
// first parse. A one-turn `mino exec` parses each schema a few times, so there
// compiling costs more than it saves (1% of the run's instructions). Where a
// command parses thousands of records (`mino audit` of a long-used project,
// a long session resumed) the fast path would win, but little: 20,000 ledger
// entries parse in 50-58 ms without it, 43-49 ms with it. The desktop app's
// main process, which runs for hours, keeps the fast paths.
import { z } from 'zod';

z.config({ jitless: true });
