// What the `mino` bundle gives undici's HTTP/2 client (undici/lib/dispatcher/client-h2.js)
// when it asks for node:http2 (vite.cli.config.mts routes that one request here).
//
// undici loads node:http2 as it loads, for its constants; node:http2 loads
// node:tls, and loading node:tls starts reading every CA certificate Node
// knows (its own and NODE_EXTRA_CA_CERTS's). That was about a seventh of a
// one-turn `mino exec`'s instructions, for nothing when the service is
// http:// (Ollama, LM Studio, vLLM, llama.cpp on the same machine); and
// undici speaks HTTP/2 only when a dispatcher allows it (allowH2), which Mino
// never does. So the constants are given here, and node:http2 is loaded by
// the first HTTP/2 connection.
// test/unit/cli/http2OnDemand.test.ts checks these against node:http2 and
// against what client-h2.js takes, so an undici upgrade that takes more fails there.
import type * as Http2 from 'node:http2';

/** The names client-h2.js takes from node:http2's constants, with node:http2's values (RFC 9113's). */
export const constants = {
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  NGHTTP2_REFUSED_STREAM: 7,
  NGHTTP2_CANCEL: 8,
} as const;

export function connect(...args: Parameters<typeof Http2.connect>): ReturnType<typeof Http2.connect> {
  return process.getBuiltinModule('node:http2').connect(...args);
}
