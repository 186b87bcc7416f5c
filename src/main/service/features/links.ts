// Opening a link from the transcript in the system browser. The renderer is
// untrusted, and a window-open request can come from anything in the page (a
// middle click, a ctrl-click, a stray target=_blank), so main denies every
// one of those and opens a URL only through this feature: when the person
// asks to open a link, main checks it (https: only), issues a one-time id for
// that exact URL, and shows nothing else; the renderer, once the person
// confirmed, presents the id; main opens the URL it issued the id for, once.
import { randomUUID } from 'node:crypto';
import type { LinkCheck } from '../../../shared/ipc';
import type { ClientId } from '../clients';
import type { ExternalUrlOpener } from '../ports';

/** How long an issued id stays good: long enough to read the URL, not a standing permission. */
export const LINK_ID_TTL_MS = 5 * 60_000;

interface Issued {
  client: ClientId;
  url: string;
  expiresAt: number;
}

export class ExternalLinks {
  private readonly issued = new Map<string, Issued>();

  constructor(
    private readonly openExternal: ExternalUrlOpener | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks a link the person asked to open and issues the id that opening it will take. */
  check(client: ClientId, raw: string): LinkCheck {
    const url = parseHttpsUrl(raw);
    if (url === null) throw new Error(`Only https: links open in the browser; this one was not opened: ${raw}`);
    this.dropExpired();
    const id = randomUUID();
    this.issued.set(id, { client, url, expiresAt: this.now() + LINK_ID_TTL_MS });
    return { id, url };
  }

  /** Opens the URL `id` was issued for, if this client was issued it and it is unused and fresh. */
  async open(client: ClientId, id: string): Promise<{ opened: true }> {
    const issued = this.issued.get(id);
    if (issued === undefined || issued.client !== client || issued.expiresAt < this.now()) {
      throw new Error('That link confirmation is unknown, used or expired, so nothing was opened. Click the link again to open it.');
    }
    this.issued.delete(id);
    if (this.openExternal === undefined) throw new Error('This app cannot open links in a browser here. Copy the link instead.');
    await this.openExternal(issued.url);
    return { opened: true };
  }

  /** The client's window closed: nothing it was issued can be used any more. */
  forget(client: ClientId): void {
    for (const [id, issued] of this.issued) if (issued.client === client) this.issued.delete(id);
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [id, issued] of this.issued) if (issued.expiresAt < now) this.issued.delete(id);
  }
}

/** The URL's normalized form when it parses as https: with a host, else null. */
export function parseHttpsUrl(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' && url.hostname !== '' ? url.href : null;
  } catch {
    return null;
  }
}
