// What main asked this window to show when it opened it: a window made for a
// saved session carries its id in the page's query (?session=<id>).
import { SESSION_ID_PATTERN } from '../../../shared/domain';

export function sessionToOpen(search: string = window.location.search): string | null {
  const id = new URLSearchParams(search).get('session');
  return id !== null && SESSION_ID_PATTERN.test(id) ? id : null;
}
