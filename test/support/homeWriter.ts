// A Mino process writing in ~/.mino, for the tests of what a killed one
// leaves there. Arguments: what to do, the home, the project.
//   hold-file-lock: takes the write lock of the project's a.txt, says "locked",
//                   and waits to be killed (a holder that dies holding it);
//   lock-temp:      dies just after creating the temp file a lock is linked from;
//   checkpoint:     dies just before a kept file content is renamed into place;
//   config:         dies just before ~/.mino/config.json is renamed into place.
import { ensureMinoHome, writePrivateFile } from '../../src/main/core/config/minoHome';
import { keepContent } from '../../src/main/core/checkpoints/preImageStore';
import { lockFileForWrite } from '../../src/main/core/locks/fileLock';
import type { ProjectPath } from '../../src/main/core/fs/projectPath';
import { killAt } from './killAt';

const [what, homeDir, projectDir] = process.argv.slice(2) as [string, string, string];
const SESSION = '0123456789abcdef0123456789abcdef';

async function main(): Promise<void> {
  switch (what) {
    case 'hold-file-lock': {
      const held = await lockFileForWrite(homeDir, projectDir, 'a.txt' as ProjectPath);
      if (!held.ok) throw new Error(held.reason);
      process.stdout.write('locked\n');
      setInterval(() => undefined, 60_000);
      return;
    }
    case 'lock-temp':
      killAt({ afterOpen: /\/locks\/\.[^/]+\.lock\.[^/]+\.tmp$/ });
      await lockFileForWrite(homeDir, projectDir, 'a.txt' as ProjectPath);
      break;
    case 'checkpoint':
      killAt({ beforePublish: new RegExp(`/checkpoints/${SESSION}/\\.[^/]+\\.tmp$`) });
      await keepContent(homeDir, SESSION, 'x'.repeat(100_000));
      break;
    case 'config':
      killAt({ beforePublish: /\/\.config\.json\.[^/]+\.tmp$/ });
      await writePrivateFile((await ensureMinoHome(homeDir)).config, '{}\n');
      break;
    default:
      throw new Error(`unknown: ${what}`);
  }
  // Not reached: the kill comes first.
  process.stdout.write('finished\n');
}

void main();
