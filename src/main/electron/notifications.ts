// An OS notification when a session waits for an approval and its window is
// not in front, so an ask is never left waiting unseen. Clicking it brings
// the window forward; the answer itself is only ever given in the dialog.
//
// A notification is held here until it is clicked, closed or has failed: a
// local the garbage collector may take would take its click handler with it.
// Where notifications are unsupported, or one fails (macOS reports `failed`
// for an unsigned app since Electron 42), the window asks for attention
// instead (a flashing taskbar entry, a bouncing Dock icon).
import type { Notification, NotificationConstructorOptions } from 'electron';
import { log } from '../core/log/log';
import type { ClientId } from '../service/clients';
import type { ApprovalWaitingNotifier } from '../service/ports';

export interface NotifierDeps {
  Notification: { new (options: NotificationConstructorOptions): Notification; isSupported(): boolean };
  isFocused(client: ClientId): boolean;
  focus(client: ClientId): void;
  /** Makes the client's window ask for attention without stealing focus. */
  requestAttention(client: ClientId): void;
  /** A short name for the session (its window title). */
  describe(client: ClientId): string;
}

export interface ApprovalNotifier {
  notify: ApprovalWaitingNotifier;
  /** Notifications shown and not yet clicked, closed or failed. */
  readonly pending: ReadonlySet<Notification>;
}

export function createApprovalNotifier(deps: NotifierDeps): ApprovalNotifier {
  const pending = new Set<Notification>();
  const notify: ApprovalWaitingNotifier = (client, _sessionId, toolName) => {
    if (deps.isFocused(client)) return;
    if (!deps.Notification.isSupported()) {
      deps.requestAttention(client);
      return;
    }
    const notification = new deps.Notification({
      title: 'Mino is waiting for your approval',
      body: `${deps.describe(client)}: ${toolName} needs your answer before the session can go on.`,
      silent: false,
    });
    pending.add(notification);
    notification.on('click', () => {
      pending.delete(notification);
      deps.focus(client);
    });
    notification.on('close', () => pending.delete(notification));
    notification.on('failed', (_event, error) => {
      pending.delete(notification);
      log.warn('notification.failed', { error });
      deps.requestAttention(client);
    });
    notification.show();
  };
  return { notify, pending };
}
