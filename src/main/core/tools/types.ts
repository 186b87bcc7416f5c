// The contract every tool implements. The agent loop runs the steps in this
// order for a live call: validate -> decide (policy) -> inspect -> ask/allow ->
// execute (which rechecks). Replay of a saved session runs validate only.
import type { z } from 'zod';
import type { Confirmation, ToolDisplay, ToolKind, ToolResult } from '../../../shared/domain';
import type { ReviewSubject } from '../../../shared/review';
import type { Skill } from '../skills/discoverSkills';

import type { PlannedTemporaryFile } from '../fs/atomicWrite';
import type { ProjectPath } from '../fs/projectPath';

// Owned by fs, the lowest layer that uses it; named here too since every tool speaks it.
export type { ProjectPath };

export interface ToolContext {
  /** Absolute, real path of the project directory. */
  projectDir: string;
  /** The person's home directory (where `.mino` lives). Tests point it at a temp dir. */
  homeDir: string;
  /** Aborted when the person stops the turn. */
  signal?: AbortSignal;
  /**
   * The globs of the person's `protect` rules for this project (core/rules),
   * read for this call: a tool that walks the project (the search tools, the
   * sandbox's walk) refuses what they cover as it refuses a built-in protected path.
   */
  protectGlobs?: readonly string[];
  /** The skills the session offers (found at its start or last reload); skill_view reads only these. */
  skills?: readonly Skill[];
  /**
   * Keeps what `p` holds now, and what the write will leave there, so the
   * person can undo the change. Called under the file's lock, after the
   * recheck, before the write; a write whose pre-image cannot be kept is not made.
   * The same port records what a bash command changed (`recordCommand`), so
   * every change of a call is kept under its call id.
   */
  keepPreImage?: KeepPreImage;
  /**
   * Output of a running command as it arrives (bash), for a window to show
   * live. Display-only: what the call returns is its result.
   */
  onOutput?: (chunk: string) => void;
}

/** What a write leaves at its path: text (with its permission bits; none: as the umask makes them), or a directory. */
export type WriteOutcome = { kind: 'file'; content: string; mode?: number } | { kind: 'directory' };

export interface KeepPreImage {
  (p: ProjectPath, after: WriteOutcome): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** bash: records a command's captured changes (or that they could not be captured) under the call. Absent where nothing is kept. */
  recordCommand?: RecordCommand;
}

/** What a path held, as the capture of a command's changes saw it (before the command, or after it). */
export type SeenImage =
  | { kind: 'absent' }
  | { kind: 'file'; content: Buffer; mode: number }
  | { kind: 'directory'; mode: number }
  | { kind: 'symlink'; target: string };

/** One change a command made to a project path: what it held before the command, and what it holds after. */
export interface SeenChange {
  path: ProjectPath;
  before: SeenImage;
  after: SeenImage;
}

/** What a sandboxed command changed in the project, as far as it could be captured. */
export type CapturedCommand =
  | {
      captured: true;
      /** In order: a folder is made before what goes in it and emptied before it goes, so undo takes them back last first. */
      changes: SeenChange[];
      /** Paths the command changed whose change could not be captured, each with why ("big.iso: over 4 MiB"). */
      missed: string[];
      /** Paths .gitignore ignores that the command changed: never captured, only counted and named. */
      ignored: string[];
    }
  | { captured: false; reason: string };

/** Saves a command's captured changes under its call (their contents kept for undo); returns the line its result ends with. */
export type RecordCommand = (capture: CapturedCommand) => Promise<string>;

/**
 * Watches projects so that what a sandboxed command changes can be captured
 * (checkpoints/commandCapture.ts). `begin` is called before the command
 * starts and never throws; the watch it gives is finished once every process
 * of the command has ended (or abandoned when it did not run).
 */
export interface ChangeTracking {
  begin(projectDir: string): Promise<CommandWatch>;
}

export interface CommandWatch {
  /** What the command changed since `begin`; never throws. */
  finish(): Promise<CapturedCommand>;
  /** The command did not run. */
  abandon(): void;
}

export type Validation<Args> = { ok: true; args: Args } | { ok: false; reason: string };

/** Facts a tool gives the policy about one validated call: its normalized target, if it has one. */
export interface ToolTarget {
  path?: ProjectPath;
  /**
   * What `path` names: read_file, write_file and edit_file say 'file'. Left
   * out, the policy assumes it may be a directory and judges it more strictly.
   */
  pathIs?: 'file' | 'directory';
  /** bash: the validated call asked to run outside the sandbox (`"sandbox": false`). */
  outsideSandbox?: true;
}

export type Inspection<State> =
  | {
      ok: true;
      state: State;
      confirmation: Confirmation;
      /**
       * bash: no sandbox is available, so the call will run with the person's
       * rights. The call is decided again with this fact (a mode may run
       * sandboxed commands only), and runs as this inspection planned.
       */
      noSandbox?: true;
      /** write_file, edit_file: the change by hunk, which the person may review (reject hunks, rewrite the text) before approving. */
      review?: ReviewSubject;
      /** The file the call will change, watched while it is asked, so a change on disk is said before the person can approve. */
      watch?: WatchedTarget;
    }
  | { ok: false; result: ToolResult };

/** A call's target as an open ask watches it: its folder and name, and whether it still holds what inspection saw. */
export interface WatchedTarget {
  path: ProjectPath;
  dir: string;
  name: string;
  /** True while the file is as inspected (the same digest, or still absent for a create): the recheck's question, asked early. */
  isCurrent(): boolean;
}

/** What the person approved instead of the proposal: the exact content, and its SHA-256 computed by main. */
export interface ApprovedContent {
  content: string;
  sha256: string;
}

export interface Tool<Args = unknown, State = unknown> {
  /** Model-facing name, e.g. "edit_file". Part of the model contract. */
  readonly name: string;
  /** Model-facing description. */
  readonly description: string;
  readonly kind: ToolKind;
  /** Argument schema; also converted to the JSON schema sent to the model. */
  readonly argsSchema: z.ZodType<Args>;
  /**
   * The JSON schema declared to the model, when it does not come from
   * argsSchema (MCP tools: the server's own input schema). Overrides the conversion.
   */
  readonly jsonSchema?: Record<string, unknown>;
  /** Pure: arguments only, no filesystem. Also run on every recorded tool start when a session loads. */
  validate(raw: unknown): Validation<Args>;
  /** Program-established facts for the decision (file tools: the normalized path). Pure. */
  target(args: Args): ToolTarget;
  /** Live only: reads current state, builds the confirmation, records what it saw. Never run on replay. */
  inspect(args: Args, ctx: ToolContext): Promise<Inspection<State>>;
  /**
   * Temporary files `execute` may create, chosen by inspection. They are saved
   * with the tool start, before execution, so that after a crash the leftovers
   * of this call (and only those) can be found and removed.
   */
  temporaryFiles?(state: State): readonly PlannedTemporaryFile[];
  /**
   * bash: the mark every process of the command will carry, chosen by
   * inspection and saved with the tool start, so processes that outlive a
   * crash can be found and ended when the session is resumed.
   */
  processMark?(state: State): string | undefined;
  /**
   * The state that writes `approved` (the person's review of `review`) instead
   * of the proposal, bound to its digest. Only tools whose inspection offers a review.
   */
  revise?(args: Args, state: State, approved: ApprovedContent): State;
  /** Runs the call. Writes recheck `state` first and refuse if the target changed. */
  execute(args: Args, state: State, ctx: ToolContext): Promise<ToolResult>;
  /** Result text when the person denies an ask. */
  readonly denialMessage: string;
  /** Whether a window starts this tool's output folded; by default, reads fold (see displayOf). */
  readonly foldsOutput?: boolean;
}

/** What a window is told to show a tool's card: its kind, and whether its output folds. */
export function displayOf(tool: Pick<Tool, 'kind' | 'foldsOutput'>): ToolDisplay {
  return { kind: tool.kind, foldsOutput: tool.foldsOutput ?? tool.kind === 'restricted_read' };
}

/** A tool with its type parameters erased, for registries. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any, any>;
