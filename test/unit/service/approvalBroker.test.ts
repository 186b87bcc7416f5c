import { describe, expect, it } from 'vitest';
import { ClientRegistry, clientId } from '../../../src/main/service/clients';
import { ApprovalBroker } from '../../../src/main/service/features/approvals';
import type { EventChannel } from '../../../src/shared/ipc';

const SESSION = '0123456789abcdef0123456789abcdef';
const confirmation = { tool: 'bash', fields: [{ label: 'Command', value: 'make' }] };
const ask = (callId: string) => ({ callId, toolName: 'bash', confirmation });

function setup() {
  const clients = new ClientRegistry();
  const events: Array<{ event: EventChannel; payload: unknown }> = [];
  const owner = clientId('owner');
  clients.attach(owner, (event, payload) => events.push({ event, payload }));
  const broker = new ApprovalBroker(clients);
  const requests = () => events.filter((e) => e.event === 'approval:request').map((e) => e.payload as { requestId: string; callId: string });
  return { clients, owner, broker, events, requests };
}

describe('the approval broker', () => {
  it('shows one ask at a time per session, in the order they came', async () => {
    const { owner, broker, requests } = setup();
    const approver = broker.approverFor(SESSION, owner);
    const first = approver.approve(ask('c1'));
    const second = approver.approve(ask('c2'));
    expect(requests().map((r) => r.callId)).toEqual(['c1']);
    expect(broker.answer(owner, requests()[0]!.requestId, true)).toBe(true);
    expect(await first).toEqual({ approved: true });
    expect(requests().map((r) => r.callId)).toEqual(['c1', 'c2']);
    broker.answer(owner, requests()[1]!.requestId, false);
    expect(await second).toEqual({ approved: false });
    expect(broker.pending(SESSION)).toBe(0);
  });

  it('denies queued asks without ever showing them when all are denied', async () => {
    const { owner, broker, requests } = setup();
    const approver = broker.approverFor(SESSION, owner);
    void approver.approve(ask('c1'));
    const queued = approver.approve(ask('c2'));
    broker.denyAll(SESSION, 'stopped');
    expect(await queued).toEqual({ approved: false });
    expect(requests()).toHaveLength(1);
  });

  it('denies on abort and tells the window to close the dialog', async () => {
    const { owner, broker, events, requests } = setup();
    const controller = new AbortController();
    const pending = broker.approverFor(SESSION, owner).approve(ask('c1'), controller.signal);
    controller.abort();
    expect(await pending).toEqual({ approved: false });
    expect(events.at(-1)).toEqual({ event: 'approval:closed', payload: { requestId: requests()[0]!.requestId, reason: expect.stringContaining('stopped') } });
    expect(broker.answer(owner, requests()[0]!.requestId, true)).toBe(false);
  });

  it('denies at once when the signal is already aborted or the client is gone', async () => {
    const { clients, owner, broker, requests } = setup();
    const controller = new AbortController();
    controller.abort();
    expect(await broker.approverFor(SESSION, owner).approve(ask('c1'), controller.signal)).toEqual({ approved: false });
    clients.detach(owner);
    expect(await broker.approverFor(SESSION, owner).approve(ask('c2'))).toEqual({ approved: false });
    expect(requests()).toEqual([]);
  });

  it('keeps the ask when the notification fails', async () => {
    const clients = new ClientRegistry();
    const owner = clientId('owner');
    const shown: string[] = [];
    clients.attach(owner, (event, payload) => event === 'approval:request' && shown.push((payload as { requestId: string }).requestId));
    const broker = new ApprovalBroker(clients, () => {
      throw new Error('no notification service');
    });
    const pending = broker.approverFor(SESSION, owner).approve(ask('c1'));
    expect(broker.answer(owner, shown[0]!, true)).toBe(true);
    expect(await pending).toEqual({ approved: true });
  });
});
