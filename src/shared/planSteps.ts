// Where a step of the model's plan stands (update_plan): the tool checks it,
// and the window's contract (PlanSchema in sessions.ts) shows it.

export const PLAN_STEP_STATUSES = ['pending', 'in_progress', 'completed'] as const;
