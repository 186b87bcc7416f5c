// Per-turn limits. They apply in every mode and count denied calls too, so a
// model that keeps retrying a refused call still stops.
export interface TurnLimits {
  modelRequests: number;
  toolCalls: number;
}

export const TURN_LIMITS: Readonly<TurnLimits> = { modelRequests: 8, toolCalls: 16 };

/** What a person is told when a turn stops at a limit, and what a call not run because of it returns. */
export function limitMessages(limits: TurnLimits = TURN_LIMITS) {
  return {
    modelRequests:
      `This turn stopped after ${limits.modelRequests} model requests, the most one turn may make. ` +
      'Nothing more runs in it; send a message (for example "continue") to carry on from here.',
    toolCalls:
      `This turn stopped after ${limits.toolCalls} tool calls, the most one turn may make (refused calls count too). ` +
      'Nothing more runs in it; send a message (for example "continue") to carry on from here.',
    notRunAfterLimit:
      'Not run: this turn reached its limit of tool calls. The user can send a new message to continue; do not repeat calls that were already answered.',
  } as const;
}

export const LIMIT_MESSAGES = limitMessages();
