// The stand-in for node:http2 that the CLI bundle gives undici's HTTP/2
// client (src/cli/http2OnDemand.ts): its constants are node:http2's, it
// provides everything the installed undici takes from node:http2, and its
// connect reaches a real HTTP/2 server. That the bundle loads node:http2 (and
// node:tls) only then is shown by test/integration/cli/bundle.test.ts.
import * as fs from 'node:fs/promises';
import * as http2 from 'node:http2';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import * as onDemand from '../../../src/cli/http2OnDemand';

/** undici's HTTP/2 client, as installed. */
async function undiciH2ClientSource(): Promise<string> {
  const undiciIndex = createRequire(__filename).resolve('undici');
  return fs.readFile(undiciIndex.replace(/index\.js$/, 'lib/dispatcher/client-h2.js'), 'utf8');
}

describe("the CLI bundle's node:http2 for undici", () => {
  it("gives node:http2's own values for its constants", () => {
    for (const [name, value] of Object.entries(onDemand.constants)) {
      expect(http2.constants[name as keyof typeof http2.constants], name).toBe(value);
    }
  });

  it('provides everything the installed undici takes from node:http2', async () => {
    const source = await undiciH2ClientSource();
    const members = new Set([...source.matchAll(/\bhttp2\.(\w+)/g)].map((match) => match[1]));
    const destructured = /\bconstants:\s*\{([^}]*)\}\s*\}\s*=\s*http2\b/.exec(source);
    expect(destructured, 'client-h2.js takes the constants of node:http2 by destructuring').not.toBeNull();
    const constantNames = destructured![1].split(',').map((name) => name.trim()).filter(Boolean);
    expect(constantNames.length).toBeGreaterThan(0);
    expect([...members].filter((member) => member !== 'constants' && !(member in onDemand))).toEqual([]);
    expect(constantNames.filter((name) => !(name in onDemand.constants))).toEqual([]);
  });

  it('connects to an HTTP/2 server', async () => {
    const server = http2.createServer((request, response) => response.end(`you asked for ${request.url}`));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const session = onDemand.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const stream = session.request({ ':path': '/hello' });
      let body = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (body += chunk));
      await new Promise((resolve) => stream.on('end', resolve));
      expect(body).toBe('you asked for /hello');
    } finally {
      session.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
