// The case file of `mino eval`: YAML holding a list of cases, each a project,
// the question(s), the mode, how asks are answered, the model (live, or a
// script in the mock's step format) and the checks scored afterwards from
// what the run saved. These schemas are the file format; the JSON Schema in
// schemas/eval-case.schema.json is generated from them (caseJsonSchema.ts).
import { z } from 'zod';
import { PermissionModeSchema } from '../../../shared/domain';
import { SettingsPatchSchema } from '../../../shared/settings';
import { McpServerConfigSchema } from '../mcp/config';

const CASE_NAME_RULE = 'a case name is 1 to 64 characters: letters, digits, ".", "_" or "-", starting with a letter or digit';

export const CaseNameSchema = z
  .string({ error: `must be text: ${CASE_NAME_RULE}` })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, `is not a case name: ${CASE_NAME_RULE} (it names the case's folder of runs)`);

/** A path inside the project, as the model's tools name it: relative, with no ".." segment. */
export const CasePathSchema = z
  .string({ error: 'must be a path inside the project, e.g. "src/main.go"' })
  .min(1, 'must not be empty')
  .refine((p) => !p.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(p), 'must be relative to the project, not an absolute path')
  .refine((p) => !p.split(/[\\/]/).includes('..'), 'must stay inside the project (no ".." segment)');

const ToolNameSchema = z.string({ error: 'must be a tool name, e.g. "bash" or "read_file"' }).min(1, 'must be a tool name, e.g. "bash"');

const CallSchema = z.strictObject({
  name: ToolNameSchema,
  /** An object is sent as its JSON text; a string is sent as it is (to script arguments that are not JSON). */
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()], { error: 'must be an object of arguments, or their JSON text' }).default({}),
  call_id: z.string().min(1).optional(),
});

export const STREAM_FAILURES = ['failed', 'incomplete', 'error', 'drop'] as const;

/**
 * One answer of the scripted model, the steps of test/support/mockResponsesServer.ts: a streamed answer (`text`
 * and/or `calls`), a plain HTTP error (`httpStatus` with an optional JSON `body`), or a stream that goes wrong
 * (`fail`, with `message`). One object with optional fields rather than a union, so a mistake is named by field.
 */
export const ScriptStepSchema = z
  .strictObject({
    text: z.string().optional(),
    calls: z.array(CallSchema).min(1, 'must list at least one call (leave it out for a text-only answer)').optional(),
    httpStatus: z.number().int().min(400).max(599).optional(),
    body: z.record(z.string(), z.unknown()).optional(),
    fail: z.enum(STREAM_FAILURES, { error: `must be one of ${STREAM_FAILURES.join(', ')}` }).optional(),
    message: z.string().optional(),
  })
  .superRefine((step, ctx) => {
    const kinds = [step.text !== undefined || step.calls !== undefined, step.httpStatus !== undefined, step.fail !== undefined].filter(Boolean).length;
    if (kinds !== 1) ctx.addIssue({ code: 'custom', message: 'a step is one of: an answer (text and/or calls), an HTTP error (httpStatus), or a failed stream (fail)' });
    if (step.body !== undefined && step.httpStatus === undefined) ctx.addIssue({ code: 'custom', path: ['body'], message: 'goes with httpStatus' });
    if (step.message !== undefined && step.fail === undefined) ctx.addIssue({ code: 'custom', path: ['message'], message: 'goes with fail' });
  });
export type ScriptStep = z.infer<typeof ScriptStepSchema>;

export const ProjectSchema = z.strictObject({
  /** A folder copied into each run's fresh project; relative to the case file. */
  fixture: z.string().min(1).optional(),
  /** Files written after the fixture is copied: path to content (folders are made as needed). */
  files: z.record(CasePathSchema, z.string({ error: 'must be the file content as text' })).optional(),
  /** Symbolic links made last: path to target (as the link holds it, e.g. ".git"). */
  links: z.record(CasePathSchema, z.string().min(1, 'must name the link target')).optional(),
});
export type CaseProject = z.infer<typeof ProjectSchema>;

const RegexSchema = z.string().refine((text) => {
  try {
    new RegExp(text, 'u');
    return true;
  } catch {
    // ignore: the refinement's message says the text is not a regular expression
    return false;
  }
}, 'is not a valid regular expression (JavaScript syntax, "u" flag)');

/** The checks, each scored from the saved run (scorer.ts); at least one. */
export const ExpectSchema = z
  .strictObject({
    /** Path to text the file must contain afterwards. */
    file_contains: z.record(CasePathSchema, z.string()).optional(),
    /** Files whose bytes must be as the run started with them. */
    file_unchanged: z.array(CasePathSchema).optional(),
    file_absent: z.array(CasePathSchema).optional(),
    /** Tools asked about (at least once each) / never asked about. */
    asked: z.array(ToolNameSchema).optional(),
    not_asked: z.array(ToolNameSchema).optional(),
    /** Each entry is a tool name or a call's target (path or command) that got a denied result. */
    denied: z.array(z.string().min(1)).optional(),
    /** Files no call read, through any name (a link, another spelling), and whose content no tool result holds. */
    never_read: z.array(CasePathSchema).optional(),
    /** Markers that must appear in no request Mino sent to the model service. */
    no_text_in_requests: z.array(z.string().min(4, 'must be at least 4 characters, or it could match by chance')).optional(),
    /** Tools the model called (asked for), whatever became of the call. */
    tool_called: z.array(ToolNameSchema).optional(),
    /** The most requests the run may send the model service. */
    max_requests: z.number().int().positive().optional(),
    /** A regular expression the last answer's text must match. */
    final_answer_matches: RegexSchema.optional(),
  })
  .refine((expect) => Object.values(expect).some((value) => value !== undefined), 'must hold at least one check');
export type CaseExpect = z.infer<typeof ExpectSchema>;
export type CheckName = keyof CaseExpect;

export const APPROVE_WORDS = ['never', 'always'] as const;

export const CaseSchema = z
  .strictObject({
    name: CaseNameSchema,
    description: z.string().optional(),
    project: ProjectSchema.default({}),
    /** The question; or `turns`, several asked one after the other in the same session. */
    prompt: z.string().min(1, 'must not be empty').optional(),
    turns: z.array(z.string().min(1, 'must not be empty')).min(1).optional(),
    mode: PermissionModeSchema.default('manual'),
    /** How asks are answered: every one denied, every one approved, or approved for these tools only. */
    approve: z.union([z.enum(APPROVE_WORDS), z.array(ToolNameSchema)], { error: 'must be never, always, or a list of tool names' }).default('never'),
    /** `live`: the configured model service; `scripted` (the default): answers `script`, one step per request. */
    model: z.enum(['live', 'scripted'], { error: 'must be live or scripted' }).default('scripted'),
    script: z.array(ScriptStepSchema).min(1, 'must hold at least one step').optional(),
    /** MCP servers written to the run's ~/.mino/mcp.json; "{node}" and "{package:NAME}" in command or args: runCase.ts. */
    mcp: z.array(McpServerConfigSchema).optional(),
    /**
     * Settings of the run's ~/.mino/config.json, over the defaults (a scripted run) or the person's (a live one),
     * e.g. { bashSandbox: false } to see what the sandbox holds back. The model service is the evaluator's to set.
     */
    settings: SettingsPatchSchema.omit({ baseUrl: true, model: true }).strict().optional(),
    /** Runs when --repeat is not given (default 1). */
    repeat: z.number().int().min(1).max(100).optional(),
    expect: ExpectSchema,
  })
  .superRefine((c, ctx) => {
    if ((c.prompt === undefined) === (c.turns === undefined)) ctx.addIssue({ code: 'custom', path: ['prompt'], message: 'give either prompt or turns (not both)' });
    if (c.model === 'scripted' && c.script === undefined) ctx.addIssue({ code: 'custom', path: ['script'], message: 'a scripted case needs script: the answers, one step per request' });
    if (c.model === 'live' && c.script !== undefined) ctx.addIssue({ code: 'custom', path: ['script'], message: 'a live case asks the configured service; leave out script' });
  });
export type EvalCase = z.infer<typeof CaseSchema>;

export const CaseFileSchema = z.strictObject({
  cases: z.array(z.unknown(), { error: 'must be a list of cases' }).min(1, 'must hold at least one case'),
});

/** The questions of a case, in order. */
export function caseTurns(c: EvalCase): string[] {
  return c.turns ?? [c.prompt ?? ''];
}
