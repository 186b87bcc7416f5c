import { describe, expect, it } from 'vitest';
import { MODE_LIST, PERMISSION_MODES } from '../../../src/shared/domain';
import { isLoosening, MODE_WARNINGS, modeNeedsSandbox, stricterMode, unknownModeMessage } from '../../../src/main/core/policy/modes';
import { modeHelp } from '../../../src/shared/modeTable';
import { MODE_ROWS, rowLoosens, type CallClass, type ModeRow, type Outcome } from '../../../src/main/core/policy/modeTable';

const row = (outcomes: Omit<Record<CallClass, Outcome>, 'unsandboxed_bash' | 'bash_no_sandbox' | 'plan_update'>): ModeRow => ({
  outcomes: { ...outcomes, bash_no_sandbox: outcomes.bash, unsandboxed_bash: 'ask', plan_update: 'allow' },
  warning: '',
});

describe('isLoosening', () => {
  it.each([
    ['manual', 'accept-edits', true],
    ['manual', 'bypass', true],
    ['accept-edits', 'bypass', true],
    ['accept-edits', 'auto', true],
    ['auto', 'bypass', true],
    ['manual', 'auto', true],
    ['auto', 'accept-edits', false],
    ['bypass', 'auto', false],
    ['accept-edits', 'manual', false],
    ['bypass', 'manual', false],
    ['bypass', 'accept-edits', false],
    ['manual', 'manual', false],
    // plan runs only reads and plan updates: leaving it for any mode runs more, and moving to it loosens nothing.
    ['plan', 'manual', true],
    ['plan', 'accept-edits', true],
    ['plan', 'auto', true],
    ['plan', 'bypass', true],
    ['manual', 'plan', false],
    ['bypass', 'plan', false],
    ['plan', 'plan', false],
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
    ['auto', 'bypass', 'auto'],
    ['bypass', 'auto', 'auto'],
    // plan is the strictest: picked during any turn, it applies at once; a turn running in it keeps it.
    ['bypass', 'plan', 'plan'],
    ['manual', 'plan', 'plan'],
    ['auto', 'plan', 'plan'],
    ['plan', 'manual', 'plan'],
    ['plan', 'bypass', 'plan'],
  ] as const)('of %s and %s is %s', (a, b, expected) => {
    expect(stricterMode(a, b)).toBe(expected);
  });
});

describe('loosening is derived from the rows', () => {
  // A read-only plan mode: writes refused, Bash and MCP asked. It is neither looser nor tighter than accept-edits.
  const plan = row({ restricted_read: 'allow', file_write: 'deny', bash: 'ask', mcp: 'ask' });

  it('calls a move loosening when any kind of call needs less of a yes, whatever the others do', () => {
    expect(rowLoosens(plan, MODE_ROWS['accept-edits'])).toBe(true);
    expect(rowLoosens(MODE_ROWS['accept-edits'], plan)).toBe(false);
    expect(rowLoosens(plan, MODE_ROWS.manual)).toBe(true);
    expect(rowLoosens(MODE_ROWS.manual, plan)).toBe(false);
    // Looser for one kind and tighter for another is still a loosening: it needs the person's yes.
    const mixed = row({ restricted_read: 'allow', file_write: 'deny', bash: 'allow, shown', mcp: 'ask' });
    expect(rowLoosens(MODE_ROWS['accept-edits'], mixed)).toBe(true);
    expect(rowLoosens(mixed, MODE_ROWS['accept-edits'])).toBe(true);
  });

  it('treats showing an allowed call as tighter than not showing it, and asking as tighter than both', () => {
    const silent = row({ restricted_read: 'allow', file_write: 'allow', bash: 'ask', mcp: 'ask' });
    expect(rowLoosens(MODE_ROWS['accept-edits'], silent)).toBe(true);
    expect(rowLoosens(silent, MODE_ROWS['accept-edits'])).toBe(false);
  });

  it('gives every mode a warning that names it and says protected files stay refused', () => {
    for (const mode of PERMISSION_MODES) {
      expect(MODE_ROWS[mode].warning).toMatch(new RegExp(`^In this session, ${mode} mode `));
      expect(MODE_ROWS[mode].warning).toMatch(/protected files stay refused/i);
    }
  });
});

describe('mode names', () => {
  it('lists the modes from the one list, for every message that names them', () => {
    expect(MODE_LIST).toBe('manual, accept-edits, auto, bypass or plan');
    expect(unknownModeMessage('yolo', 'manual')).toBe('Unknown permission mode "yolo". Use manual, accept-edits, auto, bypass or plan. Permission mode for this session unchanged: manual.');
    expect(unknownModeMessage('  ', 'bypass')).toBe('Name a permission mode: manual, accept-edits, auto, bypass or plan. Permission mode for this session: bypass.');
  });
});

describe('plan mode', () => {
  it('is told to a person from its row: reads and searches run, everything else is refused', () => {
    expect(modeHelp('plan')).toBe('plan: restricted reads run; file writes and edits, Bash commands and MCP calls are refused. Protected files are refused in every mode.');
  });

  it('needs no sandbox, and leaving it is confirmed with the warning of the mode chosen', () => {
    expect(modeNeedsSandbox('plan')).toBe(false);
    for (const mode of PERMISSION_MODES.filter((name) => name !== 'plan')) {
      expect(isLoosening('plan', mode)).toBe(true);
      expect(MODE_WARNINGS[mode]).toMatch(new RegExp(`^In this session, ${mode} mode `));
    }
  });

  it('allows plan updates in every mode, without showing them', () => {
    for (const mode of PERMISSION_MODES) expect(MODE_ROWS[mode].outcomes.plan_update).toBe('allow');
  });
});
