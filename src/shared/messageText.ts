// The person's message as every front end checks it before a turn: the
// desktop (SendMessageInputSchema in sessions.ts, steering), and `mino exec`.
// Kept apart from the window's contract (sessions.ts), whose schemas the CLI
// would otherwise build at every start without using them.
import { z } from 'zod';
import { withThousands } from './formatNumber';

/** The longest message a person can send, from the desktop or `mino exec`: a question, not a data file. */
export const MAX_MESSAGE_CHARS = 100_000;

/** What a person asks in one turn, in either front end. */
export const MessageTextSchema = z
  .string({ error: 'The message must be text.' })
  .trim()
  .min(1, 'The message is empty: type a question or a request.')
  .max(MAX_MESSAGE_CHARS, `The message is longer than ${withThousands(MAX_MESSAGE_CHARS)} characters: shorten it or put the text in a project file.`);
