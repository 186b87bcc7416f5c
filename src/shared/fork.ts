// Edit and resend: which of the person's messages a session is continued from
// as a fork. The window names it by its place among the person's messages it
// shows (those since the session was last cleared); main finds it in the log.
import { z } from 'zod';

export const ForkInputSchema = z.strictObject({
  message: z
    .number({ error: 'The message to continue from is a number: its place among your messages shown, from 0.' })
    .int('The message to continue from is a whole number.')
    .nonnegative('The message to continue from is 0 or more: its place among your messages shown.')
    .max(10_000_000, 'The message to continue from is past the end of any session.'),
});
export type ForkInput = z.infer<typeof ForkInputSchema>;
