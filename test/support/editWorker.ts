// A separate Mino process for the lost-update tests: it inspects one
// edit_file call (binding the approval to the file as it is now), says
// "ready", waits for "go" on stdin so every worker executes at once, then
// prints its result as one JSON line.
import { editFileTool } from '../../src/main/core/tools/editFile';

async function main(): Promise<void> {
  const [projectDir, homeDir, filePath, oldString, newString] = process.argv.slice(2);
  const ctx = { projectDir: projectDir!, homeDir: homeDir! };
  const validation = editFileTool.validate({ path: filePath, old_string: oldString, new_string: newString });
  if (!validation.ok) throw new Error(validation.reason);
  const inspection = await editFileTool.inspect(validation.args, ctx);
  if (!inspection.ok) throw new Error(inspection.result.output);
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  const result = await editFileTool.execute(validation.args, inspection.state, ctx);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
