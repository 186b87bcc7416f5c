// Which links a transcript may offer to open. Model text is untrusted: only
// https: links are offered, and only after a person confirms; main checks
// again before handing the URL to the operating system's browser.
export function openableUrl(href: string | undefined): string | null {
  if (!href) return null;
  try {
    const url = new URL(href);
    return url.protocol === 'https:' && url.hostname !== '' ? url.href : null;
  } catch {
    return null;
  }
}
