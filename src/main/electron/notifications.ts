// An OS notification when a session waits for an approval and its window is
// not in front, so an ask is never left waiting unseen. Clicking it brings
// the window forward; the answer itself is only ever given in the dialog.
//
// A notification is held here until it is clicked, closed or has failed, or a
// newer one for the same window replaces it: a local the garbage collector may
// take would take its click handler with it, and `close` is not always emitted,
// so one per window bounds what is held.
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
  /** Notifications shown and not yet clicked, closed, failed or replaced: at most one per client. */
  readonly pending: ReadonlyMap<ClientId, Notification>;
}

export function createApprovalNotifier(deps: NotifierDeps): ApprovalNotifier {
  const pending = new Map<ClientId, Notification>();
  const release = (client: ClientId, notification: Notification) => {
    if (pending.get(client) === notification) pending.delete(client);
  };
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
    // The older ask's notification says less than this one; it goes.
    pending.get(client)?.close();
    pending.set(client, notification);
    notification.on('click', () => {
      release(client, notification);
      deps.focus(client);
    });
    notification.on('close', () => release(client, notification));
    notification.on('failed', (_event, error) => {
      release(client, notification);
      log.warn('notification.failed', { error });
      deps.requestAttention(client);
    });
    notification.show();
  };
  return { notify, pending };
}
