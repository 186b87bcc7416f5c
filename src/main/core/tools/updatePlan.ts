// update_plan: the model keeps a short plan the person can follow (a
// checklist the window pins while the turn runs, a `plan` event in `mino
// exec --json`). It changes nothing on disk and reads nothing, so it needs no
// approval in any mode, plan mode included (its kind, plan_update, is allowed
// in every row of the mode table). The call is saved in the session log as any
// call is, so a replayed session shows each plan where it changed.
import { z } from 'zod';
import { PLAN_STEP_STATUSES } from '../../../shared/planSteps';
import type { Plan } from '../../../shared/sessions';
import type { Tool } from './types';

/** Enough for a real task broken into steps; more is a list of everything, which nobody can follow. */
export const MAX_PLAN_STEPS = 30;
/** One step is one line a person reads at a glance. */
export const MAX_STEP_CHARS = 300;
export const MAX_EXPLANATION_CHARS = 1000;

const argsSchema = z.strictObject({
  steps: z
    .array(
      z.strictObject({
        step: z.string().trim().min(1, 'a step is empty').max(MAX_STEP_CHARS, `a step is longer than ${MAX_STEP_CHARS} characters; say it shorter`).describe('What to do, in one short sentence.'),
        status: z.enum(PLAN_STEP_STATUSES).describe('"pending", "in_progress" (at most one step at a time) or "completed".'),
      }),
    )
    .min(1, 'the plan has no steps; give at least one')
    .max(MAX_PLAN_STEPS, `the plan has more than ${MAX_PLAN_STEPS} steps; group them into fewer`)
    .describe('The whole plan, in order: every step each time, with its status now.'),
  explanation: z.string().trim().max(MAX_EXPLANATION_CHARS, `the explanation is longer than ${MAX_EXPLANATION_CHARS} characters`).optional().describe('Why the plan changed, if it did (optional).'),
});

const EXAMPLE = '{"steps": [{"step": "Read the parser", "status": "completed"}, {"step": "Fix the off-by-one", "status": "in_progress"}, {"step": "Run the tests", "status": "pending"}]}';

function validate(raw: unknown): { ok: true; args: Plan } | { ok: false; reason: string } {
  const parsed = argsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (at ${issue.path.join('.')})` : '';
    return { ok: false, reason: `update_plan: ${issue?.message ?? 'invalid arguments'}${where}. Send the whole plan, e.g. ${EXAMPLE}` };
  }
  const running = parsed.data.steps.filter((step) => step.status === 'in_progress').length;
  if (running > 1) {
    return { ok: false, reason: `update_plan: ${running} steps are in_progress; at most one step is in progress at a time. Mark the others pending or completed and send the plan again.` };
  }
  const { steps, explanation } = parsed.data;
  return { ok: true, args: explanation ? { steps, explanation } : { steps } };
}

export const updatePlanTool: Tool<Plan, null> = {
  name: 'update_plan',
  description:
    'Record your plan for the task as a short checklist the person follows while you work: every step each time, each "pending", "in_progress" ' +
    '(at most one at a time) or "completed". Use it for work of several steps; update it as steps are done or the plan changes. ' +
    'It changes nothing on disk and needs no approval. Optional "explanation": why the plan changed.',
  kind: 'plan_update',
  argsSchema: argsSchema as unknown as z.ZodType<Plan>,
  validate,
  target: () => ({}),
  async inspect(args) {
    return { ok: true, state: null, confirmation: { tool: 'update_plan', fields: [{ label: 'Steps', value: String(args.steps.length) }] } };
  },
  async execute(args) {
    const done = args.steps.filter((step) => step.status === 'completed').length;
    const current = args.steps.find((step) => step.status === 'in_progress');
    const now = current ? ` In progress: ${current.step}` : '';
    return { status: 'completed', output: `Plan recorded (${done} of ${args.steps.length} steps completed); the person sees it.${now}` };
  },
  denialMessage: 'The plan was not recorded. Go on without it, and say your plan in your answer instead.',
};
