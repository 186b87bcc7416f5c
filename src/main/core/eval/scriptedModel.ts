// The scripted model of `mino eval`: a real loopback HTTP server speaking the
// Responses API's stream (server-sent events), answering each request with
// the case's next step, so a case checks the program with no model at all.
// The step format is the test mock's (test/support/mockResponsesServer.ts),
// kept to what a case needs: text, calls, an HTTP error, a stream that fails.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScriptStep } from './caseSchema';

export interface ScriptedModel {
  /** Ends with /v1, as a service's baseUrl does. */
  baseURL: string;
  /** Steps not yet answered. */
  pending(): number;
  close(): Promise<void>;
}

/**
 * 400, not 5xx: Mino retries a service's own failures, and a script that ran out will not grow a step by waiting.
 * The message reaches the run's turn_end record, where a person reading the failed run finds it.
 */
const SCRIPT_EXHAUSTED = 'The scripted model has no step left: the case script holds fewer steps than Mino sent requests. Add a step (usually a final text answer) to the case.';

export async function startScriptedModel(steps: readonly ScriptStep[]): Promise<ScriptedModel> {
  const queue = [...steps];
  let responses = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/responses')) {
        sendJson(res, 404, { error: { message: `The scripted model speaks the Responses API only; it has no route ${req.method} ${req.url}.`, type: 'not_found' } });
        return;
      }
      const step = queue.shift();
      if (step === undefined) sendJson(res, 400, { error: { message: SCRIPT_EXHAUSTED, type: 'invalid_request_error' } });
      else answer(res, step, `resp_scripted_${++responses}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function answer(res: http.ServerResponse, step: ScriptStep, id: string): void {
  if (step.httpStatus !== undefined) {
    sendJson(res, step.httpStatus, step.body ?? { error: { message: `Scripted HTTP ${step.httpStatus}`, type: 'server_error' } });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let sequence = 0;
  const send = (type: string, payload: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...payload })}\n\n`);
  send('response.created', { response: responseObject(id, 'in_progress', []) });
  if (step.fail !== undefined) {
    fail(res, send, step, id);
    return;
  }
  const output: unknown[] = [];
  if (step.text !== undefined) {
    const item = { id: `${id}_msg`, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
    send('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
    send('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: step.text, logprobs: [] });
    send('response.output_item.done', { output_index: 0, item });
    output.push(item);
  }
  for (const [index, call] of (step.calls ?? []).entries()) {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    const item = { id: `${id}_fc${index}`, type: 'function_call', call_id: call.call_id ?? `call_${id}_${index}`, name: call.name, arguments: args, status: 'completed' };
    send('response.output_item.added', { output_index: output.length, item: { ...item, arguments: '', status: 'in_progress' } });
    send('response.output_item.done', { output_index: output.length, item });
    output.push(item);
  }
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  send('response.completed', { response: responseObject(id, 'completed', output, { usage }) });
  res.end();
}

function fail(res: http.ServerResponse, send: (type: string, payload: Record<string, unknown>) => void, step: ScriptStep, id: string): void {
  const message = step.message ?? 'The scripted stream failed.';
  if (step.fail === 'failed') send('response.failed', { response: responseObject(id, 'failed', [], { error: { code: 'server_error', message } }) });
  else if (step.fail === 'incomplete') send('response.incomplete', { response: responseObject(id, 'incomplete', [], { incomplete_details: { reason: message } }) });
  else if (step.fail === 'error') send('error', { code: 'server_error', message, param: null });
  if (step.fail === 'drop') res.write(': dropping\n\n', () => res.socket?.destroy());
  else res.end();
}

function responseObject(id: string, status: string, output: unknown[], extra: Record<string, unknown> = {}) {
  return { id, object: 'response', created_at: 0, status, model: 'scripted', output, error: null, incomplete_details: null, usage: null, ...extra };
}

function sendJson(res: http.ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
