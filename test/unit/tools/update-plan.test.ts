// update_plan's contract: a whole plan of at least one step, at most one in
// progress, within its caps; invalid plans are refused saying why; a valid
// one is recorded (nothing on disk) and the model is told so.
import { describe, expect, it } from 'vitest';
import { MAX_PLAN_STEPS, MAX_STEP_CHARS, updatePlanTool } from '../../../src/main/core/tools/updatePlan';
import { decide, factsFor } from '../../../src/main/core/policy/decide';
import { PERMISSION_MODES } from '../../../src/shared/domain';

const step = (text: string, status: string) => ({ step: text, status });

function reasonFor(raw: unknown): string {
  const validation = updatePlanTool.validate(raw);
  if (validation.ok) throw new Error('expected the plan to be refused');
  return validation.reason;
}

describe('update_plan', () => {
  it('takes a plan of steps with at most one in progress, and an optional explanation', () => {
    const plan = { steps: [step('Read the parser', 'completed'), step('Fix the off-by-one', 'in_progress'), step('Run the tests', 'pending')], explanation: 'Found the bug.' };
    expect(updatePlanTool.validate(plan)).toEqual({ ok: true, args: plan });
    expect(updatePlanTool.validate({ steps: [step('Look around', 'pending')] })).toEqual({ ok: true, args: { steps: [step('Look around', 'pending')] } });
  });

  it('refuses an invalid plan saying why', () => {
    expect(reasonFor({ steps: [step('a', 'in_progress'), step('b', 'in_progress')] })).toMatch(/^update_plan: 2 steps are in_progress; at most one step is in progress at a time\./);
    expect(reasonFor({ steps: [] })).toMatch(/^update_plan: the plan has no steps; give at least one \(at steps\)\. Send the whole plan, e\.g\. /);
    expect(reasonFor({ steps: [step('a', 'done')] })).toMatch(/\(at steps\.0\.status\)/);
    expect(reasonFor({ steps: [step('  ', 'pending')] })).toMatch(/a step is empty \(at steps\.0\.step\)/);
    expect(reasonFor({ steps: [step('x'.repeat(MAX_STEP_CHARS + 1), 'pending')] })).toMatch(/a step is longer than 300 characters/);
    expect(reasonFor({ steps: Array.from({ length: MAX_PLAN_STEPS + 1 }, (_, i) => step(`s${i}`, 'pending')) })).toMatch(/more than 30 steps/);
    expect(reasonFor({ steps: [step('a', 'pending')], owner: 'me' })).toMatch(/^update_plan: /);
    expect(reasonFor('not an object')).toMatch(/^update_plan: /);
  });

  it('needs no approval in any mode, plan mode included, and is not shown as an allowed record', () => {
    for (const mode of PERMISSION_MODES) expect(decide(factsFor(updatePlanTool, { steps: [step('a', 'pending')] }), mode)).toMatchObject({ decision: 'allow', shown: false });
  });

  it('tells the model the plan was recorded', async () => {
    const plan = { steps: [{ step: 'Read', status: 'completed' as const }, { step: 'Fix', status: 'in_progress' as const }, { step: 'Test', status: 'pending' as const }] };
    const ctx = { projectDir: '/nonexistent', homeDir: '/nonexistent' };
    expect(await updatePlanTool.execute(plan, null, ctx)).toEqual({ status: 'completed', output: 'Plan recorded (1 of 3 steps completed); the person sees it. In progress: Fix' });
  });
});
