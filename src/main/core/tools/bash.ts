// The bash tool: one shell command, run with the person's account
// permissions after their approval (or in bypass mode). It is not a sandbox;
// what it bounds is time (the whole process group is killed) and output size.
import { z } from 'zod';
import type { ToolResult } from '../../../shared/domain';
import { runInProcessGroup, type GroupRunOutcome } from './processGroup';
import type { Tool, Validation } from './types';

export const BASH_WARNING = 'Runs with your account permissions; this is not a sandbox.';
export const BASH_DENIAL_MESSAGE = 'The user did not approve this command. Do not retry without a new user request.';

export interface BashToolOptions {
  /** Default 30 s. */
  timeoutMs?: number;
  /** Time between SIGTERM and SIGKILL for the process group. Default 2 s. */
  killGraceMs?: number;
  /** Default 64 KiB. */
  maxOutputBytes?: number;
}

const DEFAULTS = { timeoutMs: 30_000, killGraceMs: 2_000, maxOutputBytes: 64 * 1024 } as const;

const argsSchema = z.strictObject({
  command: z
    .string()
    .describe('The shell command, run as `bash -c COMMAND` in the project directory.')
    .refine((command) => command.trim() !== '', { message: 'the command is empty' })
    .refine((command) => !command.includes('\0'), { message: 'the command contains a NUL character' }),
});

export type BashArgs = z.infer<typeof argsSchema>;

export function createBashTool(options: BashToolOptions = {}): Tool<BashArgs, null> {
  const limits = { ...DEFAULTS, ...options };
  const timeoutText = `${formatSeconds(limits.timeoutMs)} s`;
  const capText = formatBytes(limits.maxOutputBytes);

  return {
    name: 'bash',
    description:
      'Run a shell command with `bash -c` in the project directory, with the user\'s account permissions. ' +
      `The user may be asked to approve it. Standard input is closed, so interactive commands get end-of-file. ` +
      `The command and everything it started are stopped after ${timeoutText}; at most ${capText} of combined ` +
      'stdout and stderr is returned, followed by the exit code. Prefer read_file, list_dir, write_file and ' +
      'edit_file for project files.',
    kind: 'bash',
    argsSchema,
    denialMessage: BASH_DENIAL_MESSAGE,

    validate(raw: unknown): Validation<BashArgs> {
      const parsed = argsSchema.safeParse(raw);
      if (parsed.success) return { ok: true, args: parsed.data };
      const problems = parsed.error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ` : '') + issue.message);
      return {
        ok: false,
        reason: `Invalid bash arguments (${problems.join('; ')}). Send exactly {"command": "<non-empty shell command>"}, for example {"command": "ls -la"}.`,
      };
    },

    // A shell string names no target the program could check; the decision uses the kind alone.
    target: () => ({}),

    async inspect(args, ctx) {
      return {
        ok: true,
        state: null,
        confirmation: {
          tool: 'bash',
          fields: [
            { label: 'Command', value: args.command },
            { label: 'Working directory', value: ctx.projectDir },
          ],
          warning: BASH_WARNING,
        },
      };
    },

    async execute(args, _state, ctx): Promise<ToolResult> {
      if (ctx.signal?.aborted) {
        return { status: 'failed', output: 'Not run: the turn was stopped before the command started.' };
      }
      const outcome = await runInProcessGroup('bash', ['-c', args.command], {
        cwd: ctx.projectDir,
        env: commandEnvironment(process.env),
        timeoutMs: limits.timeoutMs,
        killGraceMs: limits.killGraceMs,
        maxOutputBytes: limits.maxOutputBytes,
        signal: ctx.signal,
      });
      return resultFor(outcome, timeoutText, capText);
    },
  };
}

export const bashTool = createBashTool();

/** Variables a command never sees: the model service key would otherwise be one `env` away from the model. */
export const WITHHELD_VARIABLES = ['OPENAI_API_KEY'] as const;

/** The person's environment, less the variables Mino keeps to itself. */
export function commandEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of WITHHELD_VARIABLES) delete copy[name];
  return copy;
}

function resultFor(outcome: GroupRunOutcome, timeoutText: string, capText: string): ToolResult {
  if (outcome.startError) {
    return {
      status: 'failed',
      output: `The command could not be started: ${outcome.startError.message}. Check that bash is installed and the project directory exists.`,
    };
  }
  const lines = [outcome.output === '' ? '(no output)' : outcome.output.replace(/\n$/, '')];
  if (outcome.cutBytes > 0) {
    lines.push(`[Output cut: ${outcome.cutBytes} more bytes were not returned; only the first ${capText} is kept. Narrow the command's output, e.g. with head, tail or grep.]`);
  }
  switch (outcome.ending) {
    case 'timed_out':
      lines.push(`Timed out after ${timeoutText}; the command's process group was killed.`);
      return { status: 'failed', output: lines.join('\n') };
    case 'aborted':
      lines.push('Stopped by the user before it finished; the command\'s process group was killed.');
      return { status: 'failed', output: lines.join('\n') };
    case 'exited':
      if (outcome.exitCode !== null) {
        lines.push(`Exit code: ${outcome.exitCode}`);
        return { status: outcome.exitCode === 0 ? 'completed' : 'failed', output: lines.join('\n') };
      }
      lines.push(`Killed by signal ${outcome.exitSignal ?? 'unknown'}`);
      return { status: 'failed', output: lines.join('\n') };
  }
}

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

function formatBytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
