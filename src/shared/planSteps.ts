// The steps of the model's plan (update_plan): the tool checks them, and the
// window's contract (PlanSchema in sessions.ts) shows them. Kept apart from
// that contract, whose schemas the CLI would otherwise build at every start
// without using them.

/** Where a step of the model's plan stands. */
export const PLAN_STEP_STATUSES = ['pending', 'in_progress', 'completed'] as const;
