// Runs one sandboxed bash call in this process and prints its result as JSON:
// the sandbox tests start it as a non-root user, as most people run Mino.
import { createBashTool } from '../../../src/main/core/tools/bash';

const [projectDir, homeDir, command] = process.argv.slice(2) as [string, string, string];
const tool = createBashTool();
const validation = tool.validate({ command });
if (!validation.ok) throw new Error(validation.reason);
void tool
  .inspect(validation.args, { projectDir, homeDir })
  .then(async (inspection) => {
    if (!inspection.ok) throw new Error('inspection failed');
    const result = await tool.execute(validation.args, inspection.state, { projectDir, homeDir });
    process.stdout.write(JSON.stringify({ sandbox: inspection.confirmation.fields.find((f) => f.label === 'Sandbox')?.value, ...result }));
  });
