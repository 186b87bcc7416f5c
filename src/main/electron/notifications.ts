// An OS notification when a session waits for an approval and its window is
// not in front, so an ask is never left waiting unseen. Clicking it brings
// the window forward; the answer itself is only ever given in the dialog.
import type { Notification, NotificationConstructorOptions } from 'electron';
import type { ClientId } from '../service/clients';
import type { ApprovalWaitingNotifier } from '../service/ports';

export interface NotifierDeps {
  Notification: { new (options: NotificationConstructorOptions): Notification; isSupported(): boolean };
  isFocused(client: ClientId): boolean;
  focus(client: ClientId): void;
  /** A short name for the session (its window title). */
  describe(client: ClientId): string;
}

export function createApprovalNotifier(deps: NotifierDeps): ApprovalWaitingNotifier {
  return (client, _sessionId, toolName) => {
    if (deps.isFocused(client) || !deps.Notification.isSupported()) return;
    const notification = new deps.Notification({
      title: 'Mino is waiting for your approval',
      body: `${deps.describe(client)}: ${toolName} needs your answer before the session can go on.`,
      silent: false,
    });
    notification.on('click', () => deps.focus(client));
    notification.show();
  };
}
