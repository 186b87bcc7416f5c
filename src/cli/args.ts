// Parsing `mino exec` arguments. Everything here is typed by the person at the
// command line, so `--mode` needs no further confirmation.
import { parseArgs } from 'node:util';
import { MODE_LIST, PERMISSION_MODES, PermissionModeSchema, SESSION_ID_RULE, SessionIdSchema, type PermissionMode, type SessionId } from '../shared/domain';
import { INITIAL_MODE } from '../main/core/policy/modeTable';
import { MessageTextSchema } from '../shared/messageText';
import { SERVICE_NAME_RULE, ServiceNameSchema } from '../shared/modelServices';
import { ModelNameSchema } from '../shared/settings';
import { MAX_IMAGES_PER_MESSAGE, TOO_MANY_IMAGES } from '../shared/images';

export const USAGE = `Usage:
  mino exec [--project DIR] [--mode ${PERMISSION_MODES.join('|')}] [--approve never|always]
            [--session ID] [--service NAME] [--model ID] [--image FILE]... [--acknowledge] [--json] [--verbose] PROMPT
  mino compact --session ID [--json]

Runs one turn of a new session (or of session ID) in DIR (default: the current directory).
  --mode         permission mode for this run (default: ${INITIAL_MODE})
  --approve      how asks are answered (default: never, so every ask is denied)
  --session      continue a saved session
  --service      the model service to use, by its name in ~/.mino/config.json (default: the session's own,
                 else the configured default service)
  --model        the model to ask (default: the session's own on its service, else the service's model)
  --image        attach an image to the message (PNG, JPEG, WebP or GIF, at most 5 MB); repeat for more, up to 8
  --acknowledge  accept unknown results left by an interrupted run, then continue
  --json         print one JSON object per line
  --verbose      also write the diagnostic trail (ignored errors, MCP servers, log repairs) to stderr

mino compact summarizes the earlier turns of session ID now, as Mino does by itself near the context window.

Exit codes: 0 completed, 1 the turn failed, 2 usage or configuration error, 3 unacknowledged unknown results.`;

export interface ExecArgs {
  /** As typed; undefined means the current directory, or the session's own project with --session. */
  projectDir?: string;
  mode: PermissionMode;
  approve: 'never' | 'always';
  sessionId?: SessionId;
  /** --service: a configured service's name (checked against the settings when they are read). */
  service?: string;
  /** --model: the model to ask for. */
  model?: string;
  /** --image, as typed (relative to the current directory), in order; checked and kept when the run starts. */
  images: string[];
  acknowledge: boolean;
  json: boolean;
  /** The diagnostic trail goes to stderr. */
  verbose: boolean;
  prompt: string;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function parseExecArgs(argv: string[]): ExecArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        project: { type: 'string' },
        mode: { type: 'string' },
        approve: { type: 'string' },
        session: { type: 'string' },
        service: { type: 'string' },
        model: { type: 'string' },
        image: { type: 'string', multiple: true },
        acknowledge: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;

  const mode = PermissionModeSchema.safeParse(values.mode ?? INITIAL_MODE);
  if (!mode.success) throw new UsageError(`Unknown permission mode "${values.mode}". Use ${MODE_LIST}.`);

  const approve = values.approve ?? 'never';
  if (approve !== 'never' && approve !== 'always') throw new UsageError(`--approve takes never or always, not "${approve}".`);

  let sessionId: SessionId | undefined;
  if (values.session !== undefined) {
    const id = SessionIdSchema.safeParse(values.session);
    if (!id.success) throw new UsageError(`"${values.session}" is not a session id: ${SESSION_ID_RULE}.`);
    sessionId = id.data;
  }

  if (values.service !== undefined && !ServiceNameSchema.safeParse(values.service).success) {
    throw new UsageError(`"${values.service}" is not a service name: ${SERVICE_NAME_RULE}.`);
  }
  const model = values.model === undefined ? undefined : ModelNameSchema.safeParse(values.model);
  if (model && !model.success) throw new UsageError(`--model: ${model.error.issues[0]?.message ?? 'not a model name.'}`);

  const images = values.image ?? [];
  if (images.length > MAX_IMAGES_PER_MESSAGE) throw new UsageError(`${images.length} images given: ${TOO_MANY_IMAGES}`);
  if (images.some((file) => file.trim() === '')) throw new UsageError('--image needs the path of an image file.');

  const prompt = positionals.join(' ').trim();
  if (!prompt) throw new UsageError('No prompt given: put what you want Mino to do after the options.');
  // The desktop's limit too: one rule for a message, whichever front end sends it.
  const message = MessageTextSchema.safeParse(prompt);
  if (!message.success) throw new UsageError(message.error.issues[0]?.message ?? 'The prompt cannot be sent.');

  return {
    projectDir: values.project,
    mode: mode.data,
    approve,
    sessionId,
    ...(values.service === undefined ? {} : { service: values.service }),
    ...(model ? { model: model.data } : {}),
    images,
    acknowledge: values.acknowledge,
    json: values.json,
    verbose: values.verbose,
    prompt,
  };
}

export interface CompactArgs {
  sessionId: SessionId;
  json: boolean;
}

export function parseCompactArgs(argv: string[]): CompactArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: false, strict: true, options: { session: { type: 'string' }, json: { type: 'boolean', default: false } } });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  if (values.session === undefined) throw new UsageError('mino compact needs --session ID: the session to compact.');
  const id = SessionIdSchema.safeParse(values.session);
  if (!id.success) throw new UsageError(`"${values.session}" is not a session id: a session id is 32 lowercase hex characters.`);
  return { sessionId: id.data, json: values.json };
}
