// The one temporary home and project every test that touches disk starts
// from: a real directory under the system's temp folder (its real path, so
// symbolic-link checks see what the code sees), holding `home` (HOME, where
// ~/.mino goes) and `project` side by side, removed by `cleanup`.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

export interface TempHome {
  /** Holds home/ and project/; tests may add siblings (an "outside" folder). */
  root: string;
  home: string;
  project: string;
  /** A path inside the project. */
  file(rel: string): string;
  /** Writes a project file, making its folders; returns its path. */
  write(rel: string, content: string | Uint8Array): Promise<string>;
  cleanup(): Promise<void>;
}

export interface TempHomeOptions {
  /** Names the temp folder, to tell tests apart in a listing. */
  prefix?: string;
  /** Project files to write, by project-relative path. */
  files?: Record<string, string>;
  /** Also create ~/.mino (as a first run would). */
  withMinoDir?: boolean;
}

export async function makeTempHome(options: TempHomeOptions = {}): Promise<TempHome> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `mino-${options.prefix ?? 'test'}-`)));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  await fs.mkdir(options.withMinoDir ? path.join(home, '.mino') : home, { recursive: true, mode: 0o700 });
  await fs.mkdir(project);
  const file = (rel: string) => path.join(project, rel);
  const write = async (rel: string, content: string | Uint8Array) => {
    await fs.mkdir(path.dirname(file(rel)), { recursive: true });
    await fs.writeFile(file(rel), content);
    return file(rel);
  };
  for (const [rel, content] of Object.entries(options.files ?? {})) await write(rel, content);
  return { root, home, project, file, write, cleanup: () => fs.rm(root, { recursive: true, force: true }) };
}
