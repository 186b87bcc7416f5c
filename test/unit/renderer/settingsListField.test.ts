// The Settings form's list field (sandboxReadable): one folder per line in a
// textarea, read back as the list the schema checks, with the schema's own
// words for a bad line.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_READABLE } from '../../../src/shared/sandboxReadable';
import { SETTING_FIELDS, settingFromInput, settingProblems, settingToInput } from '../../../src/shared/settings';

const field = SETTING_FIELDS.sandboxReadable;

describe('the sandbox-readable folders in the Settings form', () => {
  it('shows one folder per line and reads the lines back, blank lines and surrounding spaces left out', () => {
    expect(settingToInput(field, DEFAULT_SANDBOX_READABLE)).toBe(DEFAULT_SANDBOX_READABLE.join('\n'));
    expect(settingFromInput(field, '  ~/.cargo/bin \n\n/opt/tools\n   \n')).toEqual(['~/.cargo/bin', '/opt/tools']);
    expect(settingFromInput(field, '')).toEqual([]);
  });

  it('has no problem with the defaults, nor with an empty list', () => {
    expect(settingProblems(field, settingToInput(field, DEFAULT_SANDBOX_READABLE))).toEqual([]);
    expect(settingProblems(field, '')).toEqual([]);
  });

  it("gives the schema's message for each bad line", () => {
    expect(settingProblems(field, '~/.cargo/bin\n.ssh\n~/../etc')).toEqual([
      'Sandbox-readable folders: ".ssh" is neither a path in your home (~/...) nor an absolute path: write it as ~/.cargo/bin or /home/you/.cargo/bin.',
      'Sandbox-readable folders: "~/../etc" contains "..": write the folder\'s own path.',
    ]);
  });

  it('says when the list is too long', () => {
    const many = Array.from({ length: 201 }, (_, index) => `~/tool-${index}`).join('\n');
    expect(settingProblems(field, many)).toEqual(['sandboxReadable can name at most 200 folders.']);
  });
});
