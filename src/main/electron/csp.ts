// The renderer's Content-Security-Policy, sent as a response header by the
// app:// protocol handler (and by the test server, which adds its socket).
export function rendererCsp(options: { connectSrc?: readonly string[] } = {}): string {
  const connect = ["'self'", ...(options.connectSrc ?? [])].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
