// A run's fresh project, made from the case (a fixture folder copied, then
// the inline files, then the links), and the digest of every file in it as
// the run starts, saved beside the run so file_unchanged is scored from what
// was saved rather than from the case file.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { CaseProject } from './caseSchema';

/** Project path (forward slashes) to the sha256 of its bytes; regular files only, links not followed. */
export type FileDigests = Record<string, string>;

export async function makeCaseProject(projectDir: string, project: CaseProject, caseDir: string): Promise<void> {
  await fs.mkdir(projectDir, { recursive: true });
  if (project.fixture !== undefined) {
    const from = path.resolve(caseDir, project.fixture);
    const stat = await fs.stat(from).catch(() => null);
    if (!stat?.isDirectory()) throw new Error(`The fixture folder ${from} does not exist or is not a folder. Fix "fixture" (it is relative to the case file).`);
    await fs.cp(from, projectDir, { recursive: true, verbatimSymlinks: true });
  }
  for (const [file, content] of Object.entries(project.files ?? {})) {
    const target = path.join(projectDir, file);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, content);
  }
  for (const [link, target] of Object.entries(project.links ?? {})) {
    const at = path.join(projectDir, link);
    await fs.mkdir(path.dirname(at), { recursive: true });
    await fs.symlink(target, at);
  }
}

export async function fileDigests(projectDir: string): Promise<FileDigests> {
  const digests: FileDigests = {};
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), rel);
      else if (entry.isFile()) digests[rel] = await digestOf(path.join(dir, entry.name));
    }
  };
  await walk(projectDir, '');
  return digests;
}

/** The sha256 of a regular file's bytes; null when there is no regular file there (absent, a link, a folder). */
export async function fileDigest(file: string): Promise<string | null> {
  const stat = await fs.lstat(file).catch(() => null);
  return stat?.isFile() ? digestOf(file) : null;
}

async function digestOf(file: string): Promise<string> {
  return createHash('sha256').update(await fs.readFile(file)).digest('hex');
}
