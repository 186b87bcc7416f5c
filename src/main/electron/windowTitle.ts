// The window title names the project and the session, so a person with
// several session windows can tell them apart in the task switcher.
import type { ClientContext } from '../service/ports';

export function windowTitle(context: ClientContext, appName = 'Mino'): string {
  const parts = [context.session?.label, context.project?.name, appName].filter((part): part is string => Boolean(part));
  return parts.join(' — ');
}
