// The shared core of every wire (src/main/core/model/wireCore.ts) with a wire
// whose SDK never ends its stream once the request is aborted: the person's
// Stop and the idle timer must end the request all the same, not wait on it.
import { describe, expect, it } from 'vitest';
import { respondOverWire, type Wire, type WireSetup } from '../../../src/main/core/model/wireCore';
import { expectModelError } from '../../integration/model/fixtures/wireCalls';

const SETUP: WireSetup = {
  baseURL: 'http://127.0.0.1:9/v1',
  fetch: () => Promise.reject(new Error('this wire sends nothing')),
  idleMs: 60_000,
  maxRetries: 0,
  answerLimitBytes: 1_000_000,
  timeoutMs: 60_000,
  random: () => 0,
};

/** A wire that opens at once, reports one event heard, then reads for good: it ignores every abort. */
function deafWire(): Wire & { readStarted: Promise<void> } {
  let started!: () => void;
  const readStarted = new Promise<void>((resolve) => (started = resolve));
  return {
    api: 'a test API',
    body: {},
    readStarted,
    open: async () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<unknown>>(() => undefined) }) }),
    read: (_events, sink) => {
      sink.heard();
      started();
      return new Promise(() => undefined);
    },
    translate: (error) => error,
  };
}

describe('a stream the wire never ends', () => {
  it("ends at the person's abort", async () => {
    const wire = deafWire();
    const controller = new AbortController();
    const pending = respondOverWire(SETUP, wire, { instructions: '', input: [], tools: [], signal: controller.signal }, () => undefined);
    await wire.readStarted;
    controller.abort();
    await expectModelError(pending, 'aborted');
  });

  it('ends when nothing arrives for the idle timeout, named as silence', async () => {
    const pending = respondOverWire({ ...SETUP, idleMs: 50 }, deafWire(), { instructions: '', input: [], tools: [] }, () => undefined);
    expect((await expectModelError(pending, 'stream')).message).toMatch(/stopped sending/);
  });
});
