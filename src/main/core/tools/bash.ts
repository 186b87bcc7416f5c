// The bash tool: one shell command, after the person's approval (or in bypass
// mode). Where the machine allows it the command runs in the kernel sandbox
// (core/sandbox): the project writable except .git/ and its secret files,
// the system's programs read-only, of the home only the folders the person
// allowed, no network and no Unix sockets. A call may ask to run outside it
// (`"sandbox": false`), which the policy always puts to the person. Time
// (the whole process group is killed) and output size are bounded either way.
// After a sandboxed command the git guard undoes what it did to the project's
// git repositories; outside the sandbox the command gets its own process
// namespace where the machine allows, so nothing it started outlives it.
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import type { ConfirmationField, ToolResult } from '../../../shared/domain';
import { sandboxAvailability, type SandboxAvailability } from '../sandbox/availability';
import { sandboxBlockedNote } from '../sandbox/blocked';
import { gitGuardNote, watchGitRepositories, type GitGuardReport, type GitWatch } from '../sandbox/gitGuard';
import { sandboxLaunch, type SandboxLaunch } from '../sandbox/launch';
import { walkProject } from '../sandbox/projectWalk';
import { namespaceProvider, OUTLIVE_WARNING, outsideLaunch, processesField, type TrustedBwrap } from '../sandbox/outside';
import { commandEnvironment } from './commandEnvironment';
import { formatBytes, formatSeconds, resultFor } from './commandResult';
import { runInProcessGroup, type GroupRunOutcome } from './processGroup';
import type { CapturedCommand, ChangeTracking, CommandWatch, Tool, ToolContext, Validation } from './types';
import { issueLines } from '../../../shared/zodIssues';

/** Shown when the command runs with the person's rights because no sandbox is available or it is turned off. */
export const BASH_WARNING = 'Runs with your account permissions; this is not a sandbox.';
/** Shown when the model asked to leave the sandbox: the plainest statement of what approving means. */
export const BASH_OUTSIDE_SANDBOX_WARNING =
  'Runs OUTSIDE the sandbox, with your full rights: it can read your secrets, use the network and change any file you can.';
export const BASH_SANDBOXED_NOTE =
  'Runs in the sandbox: it can change the project (not .git/), sees the system read-only and, of your home, only the toolchain folders you allowed; it cannot read secret files and has no network.';
export const BASH_DENIAL_MESSAGE = 'The user did not approve this command. Do not retry without a new user request.';

export interface BashToolOptions {
  /** Default 30 s. */
  timeoutMs?: number;
  /** Time between SIGTERM and SIGKILL for the process group. Default 2 s. */
  killGraceMs?: number;
  /** Default 64 KiB. */
  maxOutputBytes?: number;
  /**
   * Whether commands may be sandboxed, asked before each call: the machine's
   * ability and the person's setting. Default: the machine's ability alone.
   */
  sandbox?: () => Promise<SandboxAvailability>;
  /** Credentials configured elsewhere (MCP servers), asked before each call; a variable holding one is withheld. */
  credentials?: () => Promise<readonly string[]>;
  /**
   * What the machine can do, whatever the person's sandbox setting: a trusted
   * bwrap gives a command run outside the sandbox its own process namespace.
   * Default: the machine's ability.
   */
  processNamespace?: () => Promise<SandboxAvailability>;
  /** Absolute paths a sandboxed command may read in the homes (the person's setting), asked before each call; default: the sandbox's own list. */
  sandboxReadable?: () => Promise<readonly string[]>;
  /** Captures what a sandboxed command changes, to be reviewed and undone like an edit, where the call keeps changes (keepPreImage.recordCommand). */
  changes?: ChangeTracking;
}

const DEFAULTS = {
  timeoutMs: 30_000,
  killGraceMs: 2_000,
  maxOutputBytes: 64 * 1024,
  sandbox: () => sandboxAvailability(),
  credentials: async (): Promise<readonly string[]> => [],
  processNamespace: () => sandboxAvailability(),
} as const;

type Limits = Required<Omit<BashToolOptions, 'sandboxReadable' | 'changes'>> & Pick<BashToolOptions, 'sandboxReadable' | 'changes'>;

const argsSchema = z.strictObject({
  command: z
    .string()
    .describe('The shell command, run as `bash -c COMMAND` in the project directory.')
    .refine((command) => command.trim() !== '', { message: 'the command is empty' })
    .refine((command) => !command.includes('\0'), { message: 'the command contains a NUL character' }),
  sandbox: z
    .boolean()
    .optional()
    .describe(
      'Leave out to run in the sandbox. false asks the user to run the command outside the sandbox with their full rights; ' +
        'use it only when the sandbox blocked something the task needs (network access, git commit, writing outside the project).',
    ),
});

export type BashArgs = z.infer<typeof argsSchema>;

/** How an approved call will run, settled when it is inspected so the confirmation and the run agree. */
export type BashPlan = (
  | { sandbox: Extract<SandboxAvailability, { available: true }> }
  /** `namespace`: the bwrap that gives the unsandboxed command its own process namespace, or null where none can. */
  | { sandbox: null; why: 'asked' | string; namespace: TrustedBwrap | null }
) & {
  /** The MINO_COMMAND_ID its processes carry (see processGroup.ts), saved with the tool start. */
  mark: string;
};

export function createBashTool(options: BashToolOptions = {}): Tool<BashArgs, BashPlan | null> {
  const limits: Limits = { ...DEFAULTS, ...options };
  const timeoutText = `${formatSeconds(limits.timeoutMs)} s`;
  const capText = formatBytes(limits.maxOutputBytes);

  return {
    name: 'bash',
    description:
      'Run a shell command with `bash -c` in the project directory. Where available it runs in a sandbox: the project is ' +
      'writable except .git/, secret files read as empty, the system\'s programs are read-only, the home holds only toolchain ' +
      'folders (read-only), there is no network and no Unix sockets, a new or moved git repository is undone, ' +
      'and everything it started ends with it. `"sandbox": false` asks the user to run it outside the sandbox instead. ' +
      `The user may be asked to approve it. Standard input is closed, so interactive commands get end-of-file. ` +
      `The command and everything it started are stopped after ${timeoutText}; at most ${capText} of combined ` +
      'stdout and stderr is returned, followed by the exit code. Prefer read_file, list_dir, write_file and ' +
      'edit_file for project files, and search_files and find_files to search them (not grep, rg or find).',
    kind: 'bash',
    argsSchema,
    denialMessage: BASH_DENIAL_MESSAGE,

    validate(raw: unknown): Validation<BashArgs> {
      const parsed = argsSchema.safeParse(raw);
      if (parsed.success) return { ok: true, args: parsed.data };
      const problems = issueLines(parsed.error);
      return {
        ok: false,
        reason:
          `Invalid bash arguments (${problems.join('; ')}). Send exactly {"command": "<non-empty shell command>"}, for example {"command": "ls -la"}, ` +
          'optionally with "sandbox": false to ask to run it outside the sandbox.',
      };
    },

    // A shell string names no target the program could check; the decision uses the kind and whether the call
    // asked to leave the sandbox, both read from the validated arguments.
    target: (args) => (args.sandbox === false ? { outsideSandbox: true } : {}),

    async inspect(args, ctx) {
      const plan = await planFor(args, limits);
      const warning = plan.sandbox ? BASH_SANDBOXED_NOTE : plan.why === 'asked' ? BASH_OUTSIDE_SANDBOX_WARNING : BASH_WARNING;
      return {
        ok: true,
        state: plan,
        // Settled here, once: the decision is made again with it, and the call runs as planned.
        ...(plan.sandbox === null && plan.why !== 'asked' ? { noSandbox: true as const } : {}),
        confirmation: {
          tool: 'bash',
          fields: [
            { label: 'Command', value: args.command },
            { label: 'Working directory', value: ctx.projectDir },
            sandboxField(plan),
            ...(plan.sandbox ? [] : [processesField(plan.namespace !== null, process.getuid?.())]),
          ],
          warning: plan.sandbox || plan.namespace ? warning : `${warning} ${OUTLIVE_WARNING}`,
          // A command in the sandbox reaches only the project; one outside it has the person's full rights.
          warningWeight: plan.sandbox ? 'neutral' : 'strong',
        },
      };
    },

    processMark: (state) => state?.mark,

    execute: (args, state, ctx) => runCommand(args, state, ctx, limits, { timeoutText, capText }),
  };
}

/**
 * Runs an approved command as planned (in the sandbox when the plan says so),
 * its output shown live and returned within the cap, its process group ended
 * at the timeout. A sandboxed command's changes to git repositories are
 * undone before its result is returned, however it ended.
 */
async function runCommand(args: BashArgs, state: BashPlan | null, ctx: ToolContext, limits: Limits, texts: { timeoutText: string; capText: string }): Promise<ToolResult> {
  if (ctx.signal?.aborted) {
    return { status: 'failed', output: 'Not run: the turn was stopped before the command started.' };
  }
  const plan = state ?? (await planFor(args, limits));
  const env = commandEnvironment(process.env, await limits.credentials());
  const prepared = await prepare(plan, args.command, ctx, env, limits);
  if ('notRun' in prepared) return prepared.notRun;
  const { launch, watch, capture } = prepared;
  // Chunks split characters anywhere; the decoder holds a partial one until the rest arrives.
  const decoder = new StringDecoder('utf8');
  const onOutput = ctx.onOutput;
  let outcome: GroupRunOutcome;
  let guarded: GitGuardReport | null = null;
  let captured: CapturedCommand | null = null;
  try {
    outcome = await runInProcessGroup(launch?.file ?? 'bash', launch?.args ?? ['-c', args.command], {
      cwd: ctx.projectDir,
      env: launch?.env ?? env,
      timeoutMs: limits.timeoutMs,
      killGraceMs: limits.killGraceMs,
      maxOutputBytes: limits.maxOutputBytes,
      signal: ctx.signal,
      mark: plan.mark,
      inheritFds: launch?.inheritFds,
      ...(onOutput ? { onOutput: (chunk: Buffer) => emitText(onOutput, decoder.write(chunk)) } : {}),
    });
    if (onOutput) emitText(onOutput, decoder.end());
  } finally {
    // Every process of the command has ended by now (the sandbox's namespace went with it), and nothing else has run.
    guarded = watch ? await watch.undo() : null;
    await launch?.cleanup();
    // After the guard, so what it undid is not taken for the command's change.
    captured = capture ? await capture.finish() : null;
  }
  const result = resultFor(outcome, texts.timeoutText, texts.capText);
  const blocked = plan.sandbox && result.status === 'failed' && outcome.ending === 'exited' ? sandboxBlockedNote(outcome.output) : null;
  const gitNote = guarded ? gitGuardNote(guarded) : null;
  const changesNote = await recordChanges(plan, captured, ctx, limits);
  const notes = [blocked, gitNote, changesNote].filter((note) => note !== null);
  // A guard that could not vouch for the project fails the call, so neither the model nor the person takes it for a clean run.
  const status = guarded && guarded.problems.length > 0 ? 'failed' : result.status;
  return notes.length > 0 ? { status, output: [result.output, ...notes].join('\n') } : result;
}

/**
 * The launch the plan calls for: the sandbox with the git guard watching,
 * the command in its own process namespace, or (null) plain bash. A sandbox
 * or guard that cannot be set up means the command does not run.
 */
async function prepare(
  plan: BashPlan,
  command: string,
  ctx: ToolContext,
  env: NodeJS.ProcessEnv,
  limits: Limits,
): Promise<{ launch: SandboxLaunch | null; watch: GitWatch | null; capture: CommandWatch | null } | { notRun: ToolResult }> {
  if (!plan.sandbox) {
    if (!plan.namespace) return { launch: null, watch: null, capture: null };
    return { launch: { ...outsideLaunch(plan.namespace, ['bash', '-c', command], ctx.projectDir), env, cleanup: async () => undefined }, watch: null, capture: null };
  }
  const readableHome = limits.sandboxReadable ? { readableHome: await limits.sandboxReadable() } : {};
  // The capture of the command's changes brings its record of the project up to date meanwhile; it never throws.
  const capturing = limits.changes && ctx.keepPreImage?.recordCommand ? limits.changes.begin(ctx.projectDir) : null;
  // One walk of the project, begun here, serves both the sandbox's masks and the git guard's record of its
  // repositories; each waits for it. The plan's own refusal (a project that holds a home) still comes first.
  const walk = walkProject(ctx.projectDir, { protectGlobs: ctx.protectGlobs ?? [] });
  const [launch, watch] = await Promise.allSettled([
    sandboxLaunch(plan.sandbox, { command: ['bash', '-c', command], projectDir: ctx.projectDir, homeDirs: homeDirsOf(ctx), env, walk, ...readableHome }),
    watchGitRepositories(ctx.projectDir, { walk }),
  ]);
  const capture = await capturing;
  if (launch.status === 'fulfilled' && watch.status === 'fulfilled') return { launch: launch.value, watch: watch.value, capture };
  capture?.abandon();
  if (launch.status === 'fulfilled') await launch.value.cleanup();
  return { notRun: notSetUp(launch.status === 'rejected' ? launch.reason : (watch as PromiseRejectedResult).reason) };
}

/** Saves what the command changed under its call; the line its result ends with: what was captured, or why not (never outside the sandbox). */
async function recordChanges(plan: BashPlan, captured: CapturedCommand | null, ctx: ToolContext, limits: Limits): Promise<string | null> {
  const record = ctx.keepPreImage?.recordCommand;
  if (!record || !limits.changes) return null;
  const outside = plan.sandbox ? 'the capture was not started' : `the command ran outside the sandbox (${plan.why === 'asked' ? 'as it asked' : plan.why})`;
  return (await record(captured ?? { captured: false, reason: outside })) || null;
}

/** The result of a sandboxed command whose sandbox (or git guard) could not be set up: it did not run. */
function notSetUp(error: unknown): ToolResult {
  return {
    status: 'failed',
    output:
      `Not run: the sandbox could not be set up (${error instanceof Error ? error.message : String(error)}). ` +
      'If the command must run anyway, call bash again with "sandbox": false to ask the user to run it outside the sandbox.',
  };
}

function emitText(onOutput: (chunk: string) => void, text: string): void {
  if (text !== '') onOutput(text);
}

async function planFor(args: BashArgs, limits: Limits): Promise<BashPlan> {
  const mark = randomUUID();
  const available = args.sandbox === false ? null : await limits.sandbox();
  if (available?.available) return { sandbox: available, mark };
  const namespace = namespaceProvider(await limits.processNamespace());
  return { sandbox: null, why: available === null ? 'asked' : available.reason, namespace, mark };
}

function sandboxField(plan: BashPlan): ConfirmationField {
  const value = plan.sandbox
    ? `on (${plan.sandbox.kind === 'bwrap' ? 'Linux bubblewrap' : 'macOS sandbox-exec'})`
    : plan.why === 'asked'
      ? 'off: the model asked to run this command outside the sandbox'
      : `not available: ${plan.why}`;
  return { label: 'Sandbox', value };
}

/** The home Mino uses and the account's own: a test or a script may point HOME elsewhere, the secrets stay where they are. */
function homeDirsOf(ctx: ToolContext): string[] {
  return [...new Set([ctx.homeDir, os.homedir()])];
}


export const bashTool = createBashTool();
