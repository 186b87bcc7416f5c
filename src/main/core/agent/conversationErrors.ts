// Why a session refuses what it was asked: each error's message is written
// for the person, and front ends tell them apart by class.
import type { UnknownCall } from '../sessions/load';

export class CompactionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CompactionError';
  }
}

export class UnacknowledgedResultsError extends Error {
  constructor(readonly calls: UnknownCall[]) {
    super(
      `This session has ${calls.length === 1 ? 'a tool call' : `${calls.length} tool calls`} whose outcome is unknown ` +
        `(${calls.map((c) => `${c.name} ${c.call_id}`).join(', ')}): Mino stopped while ${calls.length === 1 ? 'it was' : 'they were'} running. ` +
        'Nothing was run again. Check the project, then acknowledge the unknown results before asking another question.',
    );
    this.name = 'UnacknowledgedResultsError';
  }
}

export class TurnInProgressError extends Error {
  constructor() {
    super('A turn is already running in this session. Wait for it to finish or stop it first.');
    this.name = 'TurnInProgressError';
  }
}
