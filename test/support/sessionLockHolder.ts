// A process that takes a session's lock as a CLI would, says "locked", and
// waits to be killed: how the tests leave a lock behind a dead holder.
import { lockSession } from '../../src/main/core/locks/sessionLock';

const [homeDir, id] = process.argv.slice(2);
lockSession(homeDir!, id!, 'CLI');
process.stdout.write('locked\n');
setInterval(() => undefined, 60_000);
