// `mino exec` with plan mode, the project's AGENTS.md and update_plan: a real
// child process, a real temp home and project, and the loopback mock model
// service. The printers are also driven directly, for what the banner and
// the plan look like in either form.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS } from '../../../src/main/core/agent/defaultDeps';
import { jsonPrinter, textPrinter, type SessionBanner } from '../../../src/cli/printers';
import { makeAgentFixture, outputsIn, type AgentFixture } from '../../support/agentFixture';
import { cliArgs } from '../../support/builtCli';


/**
 * update_plan reaches `mino exec` once it is one of the built-in tools
 * (defaultDeps.ts), and the banner's project-instructions line once exec.ts
 * fills it: the two wiring changes land together, outside this feature's files.
 */
const WIRED = BUILTIN_TOOLS.some((tool) => tool.name === 'update_plan');

function runCli(fx: AgentFixture, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, cliArgs(...args), { cwd: fx.project, env: fx.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const jsonLines = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

function captured(): { text: () => string; write(text: string): void } {
  let all = '';
  return { text: () => all, write: (text) => void (all += text) };
}

const BANNER: SessionBanner = {
  id: 'a'.repeat(32),
  contextWindow: 128000,
  contextWindowIsDefault: true,
  mode: 'plan',
  sandbox: { available: false, reason: 'not on this machine' },
  projectInstructions: { file: 'AGENTS.md', tokens: 2120, text: 'Use tabs.\n' },
};

describe('mino exec: plan mode and project instructions', () => {
  let fx: AgentFixture;
  afterEach(async () => fx?.cleanup());

  it('runs --mode plan: reads run, a write and a command are refused telling the model to present its plan, nothing changes', async () => {
    fx = await makeAgentFixture({ files: { 'main.go': 'package main\n', 'AGENTS.md': 'Run go vet before you finish.\n' } });
    fx.server.enqueue(
      { calls: [{ name: 'read_file', arguments: { path: 'main.go' }, call_id: 'read' }] },
      {
        calls: [
          { name: 'write_file', arguments: { path: 'main.go', content: 'changed\n', mode: 'overwrite' }, call_id: 'write' },
          { name: 'bash', arguments: { command: 'touch ran' }, call_id: 'bash' },
        ],
      },
      { text: 'Plan: 1. fix main.go 2. run go vet.' },
    );
    const run = await runCli(fx, ['exec', '--json', '--mode', 'plan', 'Plan the fix']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const results = Object.fromEntries(jsonLines(run.stdout).filter((line) => line.type === 'tool_result').map((line) => [line.call_id, line]));
    expect(results.read).toMatchObject({ status: 'completed' });
    for (const id of ['write', 'bash']) {
      expect(results[id]).toMatchObject({ status: 'denied' });
      expect(results[id]!.output).toMatch(/^Blocked by policy: plan mode does not run .*record the plan with update_plan, then present the plan to the person and end your turn/);
    }
    expect(await fs.readFile(fx.file('main.go'), 'utf8')).toBe('package main\n');
    await expect(fs.access(fx.file('ran'))).rejects.toThrow();
    // The model was told the turn is for planning, and what the project says, marked as the project's.
    const instructions = fx.server.requests[0]!.body.instructions as string;
    expect(instructions).toContain('This turn runs in plan mode, for planning only:');
    expect(instructions).toContain('<project_instructions file="AGENTS.md">\nRun go vet before you finish.\n</project_instructions>');
    expect(outputsIn(fx.server.requests[2]!.body).map((output) => output.status)).toEqual(['completed', 'denied', 'denied']);
  });

  it('refuses an unknown mode naming plan among the modes', async () => {
    fx = await makeAgentFixture();
    const run = await runCli(fx, ['exec', '--mode', 'planning', 'hi']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('manual, accept-edits, auto, bypass or plan');
  });

  it('prints the project instructions in the banner, in text and JSON, and the plan as a checklist and a plan event', () => {
    const text = captured();
    const printer = textPrinter(text, captured());
    printer.session(BANNER);
    printer.event({ type: 'plan', callId: 'p1', plan: { steps: [{ step: 'Read', status: 'completed' }, { step: 'Fix', status: 'in_progress' }, { step: 'Test', status: 'pending' }], explanation: 'Found it.' } });
    expect(text.text()).toContain('Sandbox: ');
    expect(text.text()).toContain('Project instructions: AGENTS.md, 2.1k tokens.\n\n');
    expect(text.text()).toContain('Plan:\nFound it.\n[x] Read\n[>] Fix\n[ ] Test\n\n');

    const json = captured();
    const lines = jsonPrinter(json);
    lines.session({ ...BANNER, projectInstructions: { file: 'CLAUDE.md', tokens: 0, notRead: 'CLAUDE.md is a symbolic link.' } });
    lines.event({ type: 'plan', callId: 'p1', plan: { steps: [{ step: 'Read', status: 'in_progress' }] } });
    const [session, plan] = jsonLines(json.text());
    expect(session).toMatchObject({ type: 'session', project_instructions: { file: 'CLAUDE.md', tokens: 0, not_read: 'CLAUDE.md is a symbolic link.' } });
    expect(plan).toEqual({ type: 'plan', call_id: 'p1', steps: [{ step: 'Read', status: 'in_progress' }] });
  });

  it.skipIf(!WIRED)('emits a plan event for update_plan and names AGENTS.md in the banner', async () => {
    fx = await makeAgentFixture({ files: { 'AGENTS.md': 'Use tabs.\n' } });
    const steps = [{ step: 'Read the code', status: 'in_progress' }, { step: 'Propose a fix', status: 'pending' }];
    fx.server.enqueue({ calls: [{ name: 'update_plan', arguments: { steps }, call_id: 'plan' }] }, { text: 'Here is my plan.' });
    const run = await runCli(fx, ['exec', '--json', '--mode', 'plan', 'Plan it']);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines[0]).toMatchObject({ type: 'session', project_instructions: { file: 'AGENTS.md' } });
    expect(lines.find((line) => line.type === 'plan')).toEqual({ type: 'plan', call_id: 'plan', steps });
    expect(lines.find((line) => line.type === 'tool_result')).toMatchObject({ call_id: 'plan', status: 'completed' });
    fx.server.enqueue({ text: 'Again.' });
    const text = await runCli(fx, ['exec', '--mode', 'plan', 'Plan it again']);
    expect(text.stdout).toMatch(/^Project instructions: AGENTS\.md, \d+ tokens\.$/m);
  });
});
