// The project's own lint rules, as an ESLint plugin under the `mino` prefix.
// Plain JavaScript, so eslint.config.mjs imports it without a build. Each
// rule's file says exactly what it flags.
import noClockInPureModule from './no-clock-in-pure-module.mjs';
import noSilentCatch from './no-silent-catch.mjs';
import noSyncFs from './no-sync-fs.mjs';

export default {
  meta: { name: 'mino' },
  rules: {
    'no-clock-in-pure-module': noClockInPureModule,
    'no-silent-catch': noSilentCatch,
    'no-sync-fs': noSyncFs,
  },
};
