import { describe, expect, it } from 'vitest';
import { PERMISSION_MODES } from '../../../src/shared/domain';
import { COMMAND_NAMES, commandOptions, parseCommand } from '../../../src/renderer/src/features/commands/commands';

const help = (mode: string) => `help for ${mode}`;

describe('parsing the / commands', () => {
  it('reads each command by its name, alone', () => {
    for (const name of COMMAND_NAMES.filter((n) => n !== 'mode')) {
      expect(parseCommand(`/${name}`)).toEqual({ kind: 'command', command: { name } });
      expect(parseCommand(`/${name}  `)).toEqual({ kind: 'command', command: { name } });
    }
  });

  it('/mode alone shows the mode; /mode NAME names one of the modes', () => {
    expect(parseCommand('/mode')).toEqual({ kind: 'command', command: { name: 'mode', mode: null } });
    for (const mode of PERMISSION_MODES) expect(parseCommand(`/mode ${mode}`)).toEqual({ kind: 'command', command: { name: 'mode', mode } });
    expect(parseCommand('/mode   bypass ')).toEqual({ kind: 'command', command: { name: 'mode', mode: 'bypass' } });
  });

  it('refuses an unknown mode or words after the name, saying the mode stays', () => {
    const unknown = parseCommand('/mode yolo');
    expect(unknown).toEqual({ kind: 'error', message: expect.stringContaining('There is no permission mode "yolo"') });
    expect(unknown.kind === 'error' && unknown.message).toContain(PERMISSION_MODES.join(', '));
    expect(unknown.kind === 'error' && unknown.message).toContain('did not change');
    const extra = parseCommand('/mode bypass now');
    expect(extra).toEqual({ kind: 'error', message: expect.stringContaining('remove "now"') });
    expect(extra.kind === 'error' && extra.message).toContain('did not change');
    // Names are exact: a capitalised one is not a mode.
    expect(parseCommand('/mode Bypass').kind).toBe('error');
  });

  it('refuses words after a command that takes none, and a command that does not exist', () => {
    expect(parseCommand('/new please')).toEqual({ kind: 'error', message: expect.stringContaining('/new takes nothing after it; remove "please"') });
    expect(parseCommand('/plan the fix')).toMatchObject({ kind: 'error' });
    const unknown = parseCommand('/deploy');
    expect(unknown).toEqual({ kind: 'error', message: expect.stringContaining('There is no command /deploy') });
    expect(unknown.kind === 'error' && unknown.message).toContain('put a space before the /');
    expect(parseCommand('/').kind).toBe('error');
  });

  it('leaves messages alone: text not starting with /, a leading space, or a path', () => {
    expect(parseCommand('Explain /mode to me')).toEqual({ kind: 'message' });
    expect(parseCommand(' /new is what I typed')).toEqual({ kind: 'message' });
    expect(parseCommand('/usr/bin/env is missing')).toEqual({ kind: 'message' });
    expect(parseCommand('/etc/hosts')).toEqual({ kind: 'message' });
  });
});

describe('the command list', () => {
  it('offers every command for a bare /, and those starting with what follows it', () => {
    expect(commandOptions('/', help)?.map((option) => option.label)).toEqual(['/mode NAME', '/plan', '/model', '/compact', '/changes', '/undo', '/new', '/resume', '/clear']);
    expect(commandOptions('/c', help)?.map((option) => option.label)).toEqual(['/compact', '/changes', '/clear']);
    expect(commandOptions('/mo', help)?.map((option) => option.completion)).toEqual(['/mode ', '/model']);
    expect(commandOptions('/zz', help)).toEqual([]);
  });

  it('runs a command that takes nothing when picked, and completes /mode for its name', () => {
    const [mode, model] = commandOptions('/mo', help)!;
    expect(mode).toMatchObject({ completion: '/mode ', runs: false });
    expect(model).toMatchObject({ completion: '/model', runs: true });
  });

  it('offers the modes once a letter follows /mode, each with its help', () => {
    expect(commandOptions('/mode ', help)).toBeNull();
    expect(commandOptions('/mode a', help)).toEqual([
      { id: 'mode-accept-edits', label: 'accept-edits', description: 'help for accept-edits', completion: '/mode accept-edits', runs: true },
      { id: 'mode-auto', label: 'auto', description: 'help for auto', completion: '/mode auto', runs: true },
    ]);
  });

  it('is closed for anything but a command being typed', () => {
    for (const text of ['', 'hello', ' /', '/new ', '/mode bypass now', '/usr/']) expect(commandOptions(text, help)).toBeNull();
  });
});
