// "Send now": a queued message handed to the running turn of the window's
// session, which sends it before its next model request. The contract's input
// and answer; the service's handler is src/main/service/features/steering.ts.
import { z } from 'zod';
import { MessageTextSchema } from './messageText';

/** The message, checked as a message sent with Send is. */
export const SteerInputSchema = z.strictObject({ text: MessageTextSchema });

/**
 * `steered: true`: the running turn took it and sends it before its next
 * request (a `steered_message` event says when). `false`: no turn takes
 * messages now (none runs, or it has made its last request); `reason` says so,
 * and the window keeps the message queued, to go as the next turn.
 */
export const SteerResultSchema = z.discriminatedUnion('steered', [
  z.object({ steered: z.literal(true) }),
  z.object({ steered: z.literal(false), reason: z.string() }),
]);
export type SteerResult = z.infer<typeof SteerResultSchema>;
