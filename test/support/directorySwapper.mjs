// The confinement race as a local attacker runs it: rename a project
// directory away, put a link to an outside directory in its place, then put
// the real one back, over and over. Bounded by a count and a time, so a
// test can never leave it running. Prints "swapping" once it has started.
import * as fs from 'node:fs';

const [dir, outside, maxRounds, maxMs] = process.argv.slice(2);
const away = `${dir}.away`;
const deadline = Date.now() + Number(maxMs);
process.stdout.write('swapping\n');
let rounds = 0;
for (; rounds < Number(maxRounds) && Date.now() < deadline; rounds++) {
  fs.renameSync(dir, away);
  fs.symlinkSync(outside, dir);
  fs.unlinkSync(dir);
  fs.renameSync(away, dir);
  // Leaves the real directory in place for a random moment, so the tools pass their checks often enough to be caught mid-step.
  const until = process.hrtime.bigint() + BigInt(Math.floor(Math.random() * 200_000));
  while (process.hrtime.bigint() < until);
}
process.stdout.write(`${rounds}\n`);
