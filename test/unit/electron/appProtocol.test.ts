import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRendererRequestHandler, resolveRendererFile } from '../../../src/main/electron/appProtocol';
import { rendererCsp } from '../../../src/main/electron/csp';

let dir: string;
let rendererDir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-protocol-'));
  rendererDir = path.join(dir, 'renderer');
  await fs.mkdir(path.join(rendererDir, 'assets'), { recursive: true });
  await fs.writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Mino</title>');
  await fs.writeFile(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  await fs.writeFile(path.join(dir, 'secret.txt'), 'outside');
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('the renderer CSP', () => {
  it('allows scripts and styles from self only, no eval, no objects, no base', () => {
    const csp = rendererCsp();
    const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives).toMatchObject({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'connect-src': "'self'",
    });
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('unsafe-inline');
    expect(rendererCsp({ connectSrc: ['ws://127.0.0.1:5000'] })).toContain("connect-src 'self' ws://127.0.0.1:5000");
  });
});

describe('the app:// request handler', () => {
  it('serves the built files with the CSP header and a content type', async () => {
    const handle = createRendererRequestHandler({ rendererDir, csp: rendererCsp(), host: 'mino' });
    const page = await handle(new Request('app://mino/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(rendererCsp());
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<title>Mino</title>');
    const script = await handle(new Request('app://mino/assets/app.js'));
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('never serves a file outside the renderer directory', async () => {
    const handle = createRendererRequestHandler({ rendererDir, csp: rendererCsp(), host: 'mino' });
    for (const url of ['app://mino/../secret.txt', 'app://mino/%2e%2e/secret.txt', 'app://mino/assets/%2e%2e%2f%2e%2e%2fsecret.txt', 'app://mino/%00', 'app://mino/%E0%A4%A']) {
      const response = await handle(new Request(url));
      expect(response.status, url).toBe(404);
      expect(await response.text()).not.toContain('outside');
    }
    expect(resolveRendererFile(rendererDir, '/assets/%2e%2e%2f%2e%2e%2fsecret.txt')).toBeNull();
  });

  it('answers 404 for other hosts and missing files, 405 for writes', async () => {
    const handle = createRendererRequestHandler({ rendererDir, csp: rendererCsp(), host: 'mino' });
    expect((await handle(new Request('app://other/index.html'))).status).toBe(404);
    expect((await handle(new Request('app://mino/missing.js'))).status).toBe(404);
    expect((await handle(new Request('app://mino/assets'))).status).toBe(404);
    expect((await handle(new Request('app://mino/index.html', { method: 'POST', body: 'x' }))).status).toBe(405);
  });
});
