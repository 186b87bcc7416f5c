// What a session needs from whoever hosts it (the desktop service, a `mino`
// command), and what one question asks of it. Assembled from Mino's
// configuration by defaultDeps.ts; tests pass their own.
import type { PermissionMode } from '../../../shared/domain';
import type { ImageRef } from '../../../shared/images';
import type { ReasoningSetting } from '../model/reasoning';
import type { ModelClient, ReasoningEffort } from '../model/types';
import type { TurnLimits } from '../policy/limits';
import type { AnyTool } from '../tools/types';
import type { Approver } from './approver';
import type { TurnEventListener } from './events';

export interface ConversationDeps {
  homeDir: string;
  /** Made per turn, so settings changed between turns apply. May throw a ModelError of kind `config`. */
  model: () => Promise<ModelClient>;
  /** What the person wrote for the model (SOUL.md), sent after Mino's generated part. */
  instructions: () => Promise<string>;
  /** Built-in tools; always available, also for checking a saved session. */
  builtinTools: readonly AnyTool[];
  /** Who opens sessions, as the session lock names it to a second opener: "desktop window", "CLI". */
  owner?: string;
  /** What the person should be told before a turn (that commands are not sandboxed, say); asked per turn. */
  notices?: () => Promise<string[]>;
  /** Tools from external servers, connected lazily; problems are told to the person. */
  externalTools?: (projectDir: string) => Promise<{ tools: AnyTool[]; problems: string[] }>;
  /** The size cap of ~/.mino/checkpoints in bytes (a setting); default 500 MB. */
  checkpointCapBytes?: () => Promise<number>;
  /** The model name, context window and reasoning settings; read per turn, so changes apply from the next one. */
  turnSettings: () => Promise<TurnSettings>;
}

export interface TurnSettings {
  /** As requests name it (the environment's MINO_MODEL wins). */
  model: string;
  contextWindow: number;
  /** Share of the window at which Mino compacts first (0.8 = 80%). */
  compactAt: number;
  reasoning: ReasoningSetting;
  reasoningEffort: ReasoningEffort | 'default';
  /** false: the service's models take no image input ("images": false on the service), so a message with images is refused before it is sent. */
  images?: boolean;
}

export interface AskOptions {
  /** A function is asked before each call (see TurnOptions.mode). */
  mode: PermissionMode | (() => PermissionMode);
  approver: Approver;
  onEvent?: TurnEventListener;
  signal?: AbortSignal;
  /** Overrides the per-turn limits (benchmarks); the defaults are the policy's. */
  limits?: TurnLimits;
  /** The images the message carries, already kept in ~/.mino/images (images/imageStore.ts keepImage). */
  images?: ImageRef[];
  /**
   * Runs the turn again for a message already saved and in the history (Retry after a failed turn): no
   * second user record, so the log, the transcript and the model each hold the message once.
   */
  retry?: boolean;
}
