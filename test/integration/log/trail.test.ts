// What reaches the trail from the real code paths: a refused IPC request, an
// MCP server that exits, a session log whose tail was repaired, a problem
// found while loading, and a failed approval taken as a denial. Each is one
// line naming what happened and where.
import * as fs from 'node:fs/promises';
import type { WebContents } from 'electron';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../../src/main/core/agent/conversation';
import { askApproval } from '../../../src/main/core/agent/approver';
import { addLogSink } from '../../../src/main/core/log/log';
import { McpManager } from '../../../src/main/core/mcp/manager';
import { SessionLog } from '../../../src/main/core/sessions/sessionLog';
import { createIpcGate, type IpcEvent } from '../../../src/main/electron/ipc';
import { clientId } from '../../../src/main/service/clients';
import type { DispatchTarget } from '../../../src/main/service/dispatch';
import { makeAgentFixture, type AgentFixture } from '../../support/agentFixture';
import { probeServer } from '../../support/mcp/servers';
import { makeTempDir, removeDirs } from '../../support/mcp/tempDirs';
import { runTool, toolNamed } from '../mcp/helpers';

let lines: string[] = [];
let stop: () => void = () => undefined;
let fx: AgentFixture | undefined;
const dirs: string[] = [];

function listen(): void {
  lines = [];
  stop = addLogSink({ write: (line) => lines.push(line) });
}

afterEach(async () => {
  stop();
  await fx?.cleanup();
  fx = undefined;
  await removeDirs(dirs.splice(0));
});

describe('the trail', () => {
  it('has one line for each refused IPC request, with the channel, the sender and why', async () => {
    listen();
    const trusted = { id: 1 } as WebContents;
    const target = { handlers: {}, hasClient: () => true } as unknown as DispatchTarget;
    const gate = createIpcGate({ target, clientFor: (sender) => (sender === trusted ? clientId('window-1') : undefined), allowedOrigins: ['app://mino'] });
    const from = (sender: WebContents, url: string) => ({ sender, senderFrame: { url, parent: null } }) as unknown as IpcEvent;
    await gate.handle(from({ id: 9 } as WebContents, 'app://mino/index.html'), 'app:info', undefined);
    await gate.handle(from(trusted, 'https://example.com/x'), 'settings:get', undefined);
    await gate.handle(from(trusted, 'app://mino/index.html'), 'shell:exec', undefined);
    expect(lines).toEqual([
      expect.stringMatching(/ warn ipc\.refused channel=app:info sender=9 frame=app:\/\/mino\/index\.html reason="Refused app:info: the request did not come from a Mino window\."$/),
      expect.stringMatching(/ warn ipc\.refused channel=settings:get sender=1 frame=https:\/\/example\.com\/x reason="Refused settings:get: the page at https:\/\/example\.com is not Mino's\."$/),
      expect.stringMatching(/ warn ipc\.refused channel=shell:exec sender=1 .*reason="Unknown request \\"shell:exec\\"/),
    ]);
  });

  it('notes an MCP server that exits while in use', async () => {
    const projectDir = await makeTempDir('project');
    const homeDir = await makeTempDir('home');
    dirs.push(projectDir, homeDir);
    const manager = new McpManager({ servers: [probeServer('probe')], projectDir });
    try {
      const crash = await toolNamed(manager, 'mcp_probe__crash');
      listen();
      await runTool(crash, {}, { projectDir, homeDir });
    } finally {
      await manager.close();
    }
    expect(lines.some((line) => / warn mcp\.(exited|dropped) server=probe reason=".*the server closed the connection/.test(line))).toBe(true);
  });

  it('notes a session log whose broken last line was set aside, and the problem it reports', async () => {
    fx = await makeAgentFixture();
    const log = await SessionLog.create(fx.home, fx.project);
    await log.append({ type: 'user', text: 'hello' });
    await log.close();
    await fs.appendFile(log.file, '{"type":"us');
    listen();
    const resumed = await Conversation.resume(fx.deps, log.id);
    await resumed.close();
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(` warn session\\.tail_set_aside session=${log.id} line=3 bytes=11 reason=".+" to=.*\\.jsonl\\.corrupt-`)),
      expect.stringMatching(new RegExp(` warn session\\.load_problem session=${log.id} line=3 problem="Line 3 was set aside in `)),
    ]);
  });

  it('notes an approver that failed, whose ask became a denial', async () => {
    listen();
    const approver = { approve: async () => Promise.reject(new Error('window gone')) };
    const request = { callId: 'call_1', toolName: 'edit_file', confirmation: { title: 'Edit', fields: [] } } as unknown as Parameters<typeof askApproval>[1];
    expect(await askApproval(approver, request)).toEqual({ approved: false });
    expect(lines).toEqual([expect.stringMatching(/ warn approval\.failed_as_denied tool=edit_file call=call_1 error="window gone"$/)]);
  });
});
