// What main asked this window to show when it opened it: a window made for a
// saved session carries its id in the page's query (?session=<id>).
const SESSION_ID = /^[0-9a-f]{32}$/;

export function sessionToOpen(search: string = window.location.search): string | null {
  const id = new URLSearchParams(search).get('session');
  return id !== null && SESSION_ID.test(id) ? id : null;
}
