// Serves the built renderer for the app:// scheme: files under one directory
// only, each with the strict CSP header. Written against the Fetch API's
// Request and Response, so the test server can serve the same files the same way.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export const APP_SCHEME = 'app';
export const APP_HOST = 'mino';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export interface RendererServerOptions {
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** The Content-Security-Policy header for every response. */
  csp: string;
  /** When set, requests for any other host get 404. */
  host?: string;
}

/** The file a request path names, or null if it would leave `rendererDir`. */
export function resolveRendererFile(rendererDir: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, relative);
  return file.startsWith(root + path.sep) ? file : null;
}

export function createRendererRequestHandler(options: RendererServerOptions): (request: Request) => Promise<Response> {
  const baseHeaders = {
    'Content-Security-Policy': options.csp,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  };
  const notFound = () => new Response('Not found', { status: 404, headers: { ...baseHeaders, 'Content-Type': 'text/plain; charset=utf-8' } });
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('Method not allowed', { status: 405, headers: baseHeaders });
    }
    const url = new URL(request.url);
    if (options.host !== undefined && url.host !== options.host) return notFound();
    const file = resolveRendererFile(options.rendererDir, url.pathname);
    if (!file) return notFound();
    let body: Buffer;
    try {
      body = await fs.readFile(file);
    } catch {
      return notFound();
    }
    const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
      status: 200,
      headers: { ...baseHeaders, 'Content-Type': type },
    });
  };
}
