import { describe, expect, it } from 'vitest';
import type { PermissionMode, SessionId } from '../../../src/shared/domain';
import { MODE_WARNINGS, SessionModes, isLoosening, stricterMode } from '../../../src/main/core/policy/modes';

const A = 'a'.repeat(32) as SessionId;
const B = 'b'.repeat(32) as SessionId;

/** A confirmation that records what it was shown and answers as told. */
function answering(answer: boolean) {
  const shown: string[] = [];
  const confirm = async (warning: string) => {
    shown.push(warning);
    return answer;
  };
  return { shown, confirm };
}

const never = async (): Promise<boolean> => {
  throw new Error('tightening must not ask');
};

async function loosened(modes: SessionModes, id: SessionId, to: PermissionMode) {
  const result = await modes.change(id, to, answering(true).confirm);
  expect(result.status).toBe('changed');
}

describe('per-session permission modes', () => {
  it('starts every new session in manual', () => {
    expect(new SessionModes().get(A)).toBe('manual');
  });

  it('keeps each session its own mode, so a new session does not inherit a looser one', async () => {
    const modes = new SessionModes();
    await loosened(modes, A, 'bypass');
    expect(modes.get(A)).toBe('bypass');
    expect(modes.get(B)).toBe('manual');
  });

  it('restores the mode when a session is resumed later in the same run', async () => {
    const modes = new SessionModes();
    await loosened(modes, A, 'accept-edits');
    await loosened(modes, B, 'bypass');
    // Switching back and forth between sessions only reads.
    expect(modes.get(B)).toBe('bypass');
    expect(modes.get(A)).toBe('accept-edits');
  });

  it('keeps the mode when a session is cleared, because clearing keeps the session id', async () => {
    const modes = new SessionModes();
    await loosened(modes, A, 'bypass');
    // Clearing a session keeps its id; nothing in the mode store is touched.
    expect(modes.get(A)).toBe('bypass');
  });

  it('starts every session in manual after a restart', async () => {
    const before = new SessionModes();
    await loosened(before, A, 'bypass');
    const afterRestart = new SessionModes();
    expect(afterRestart.get(A)).toBe('manual');
  });
});

describe('changing the mode', () => {
  it('shows the accept-edits warning and changes only on a yes', async () => {
    const modes = new SessionModes();
    const yes = answering(true);
    const result = await modes.change(A, 'accept-edits', yes.confirm);
    expect(yes.shown).toEqual([MODE_WARNINGS['accept-edits']]);
    expect(yes.shown[0]).toBe(
      'In this session, accept-edits mode writes and edits project files without asking. Bash and MCP calls still ask; protected files stay refused.',
    );
    expect(result).toEqual({ status: 'changed', mode: 'accept-edits', message: 'Permission mode for this session: accept-edits.' });
    expect(modes.get(A)).toBe('accept-edits');
  });

  it('leaves the mode unchanged when loosening is not confirmed', async () => {
    const modes = new SessionModes();
    const no = answering(false);
    const result = await modes.change(A, 'bypass', no.confirm);
    expect(no.shown).toEqual([MODE_WARNINGS.bypass]);
    expect(result).toEqual({ status: 'unchanged', mode: 'manual', message: 'Permission mode for this session unchanged: manual.' });
    expect(modes.get(A)).toBe('manual');
  });

  it('treats a confirmation that fails as a no', async () => {
    const modes = new SessionModes();
    const result = await modes.change(A, 'bypass', async () => {
      throw new Error('window closed');
    });
    expect(result.status).toBe('unchanged');
    expect(modes.get(A)).toBe('manual');
  });

  it('asks again when moving from accept-edits to bypass, with the bypass warning', async () => {
    const modes = new SessionModes();
    await loosened(modes, A, 'accept-edits');
    const yes = answering(true);
    await modes.change(A, 'bypass', yes.confirm);
    expect(yes.shown).toEqual([MODE_WARNINGS.bypass]);
    expect(MODE_WARNINGS.bypass).toMatch(/Bash commands run with your account permissions/);
    expect(MODE_WARNINGS.bypass).toMatch(/MCP arguments go to their services/);
    expect(MODE_WARNINGS.bypass).toMatch(/Protected files stay refused/);
    expect(modes.get(A)).toBe('bypass');
  });

  it.each([
    ['bypass', 'accept-edits'],
    ['bypass', 'manual'],
    ['accept-edits', 'manual'],
  ] as const)('tightens from %s to %s without asking', async (from, to) => {
    const modes = new SessionModes();
    await loosened(modes, A, from);
    const result = await modes.change(A, to, never);
    expect(result).toEqual({ status: 'changed', mode: to, message: `Permission mode for this session: ${to}.` });
    expect(modes.get(A)).toBe(to);
  });

  it('reports the current mode unchanged when it is requested again, without asking', async () => {
    const modes = new SessionModes();
    await loosened(modes, A, 'bypass');
    expect(await modes.change(A, 'bypass', never)).toEqual({
      status: 'unchanged',
      mode: 'bypass',
      message: 'Permission mode for this session unchanged: bypass.',
    });
  });

  it.each(['auto', 'bypass now', 'Bypass', 'manual please', 'accept_edits'])('refuses %j and changes nothing', async (name) => {
    const modes = new SessionModes();
    await loosened(modes, A, 'accept-edits');
    const result = await modes.change(A, name, never);
    expect(result.status).toBe('error');
    expect(result.message).toBe(
      `Unknown permission mode "${name}". Use manual, accept-edits or bypass. Permission mode for this session unchanged: accept-edits.`,
    );
    expect(modes.get(A)).toBe('accept-edits');
  });

  it('accepts a name with surrounding spaces', async () => {
    const modes = new SessionModes();
    expect((await modes.change(A, '  manual ', never)).status).toBe('unchanged');
  });

  it('asks for a name when none is given', async () => {
    const result = await new SessionModes().change(A, '   ', never);
    expect(result).toEqual({
      status: 'error',
      mode: 'manual',
      message: 'Name a permission mode: manual, accept-edits or bypass. Permission mode for this session: manual.',
    });
  });

  it('refuses a change with no session selected', async () => {
    const modes = new SessionModes();
    for (const id of [null, undefined]) {
      expect(await modes.change(id, 'bypass', never)).toEqual({
        status: 'error',
        mode: null,
        message: 'Select a session before changing its permission mode',
      });
    }
  });
});

describe('isLoosening', () => {
  it.each([
    ['manual', 'accept-edits', true],
    ['manual', 'bypass', true],
    ['accept-edits', 'bypass', true],
    ['accept-edits', 'manual', false],
    ['bypass', 'manual', false],
    ['bypass', 'accept-edits', false],
    ['manual', 'manual', false],
  ] as const)('%s -> %s is %s', (from, to, expected) => {
    expect(isLoosening(from, to)).toBe(expected);
  });
});

describe('stricterMode', () => {
  it.each([
    ['manual', 'bypass', 'manual'],
    ['bypass', 'manual', 'manual'],
    ['accept-edits', 'bypass', 'accept-edits'],
    ['bypass', 'accept-edits', 'accept-edits'],
    ['manual', 'accept-edits', 'manual'],
    ['accept-edits', 'manual', 'manual'],
    ['bypass', 'bypass', 'bypass'],
  ] as const)('of %s and %s is %s', (a, b, expected) => {
    expect(stricterMode(a, b)).toBe(expected);
  });
});
