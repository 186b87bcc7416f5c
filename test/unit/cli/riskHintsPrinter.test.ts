import { describe, expect, it } from 'vitest';
import { textPrinter } from '../../../src/cli/printers';
import type { Confirmation } from '../../../src/shared/domain';

function printed(command: string, asked: boolean): string {
  let out = '';
  const printer = textPrinter({ write: (text) => void (out += text) }, { write: () => undefined });
  const confirmation: Confirmation = {
    tool: 'bash',
    fields: [
      { label: 'Command', value: command },
      { label: 'Working directory', value: '/p' },
    ],
    warning: 'Runs with your account permissions; this is not a sandbox.',
  };
  printer.event({ type: 'tool_confirmation', callId: 'c1', name: 'bash', confirmation, asked, mode: asked ? 'manual' : 'bypass' });
  return out;
}

describe('the CLI confirmation of a bash call', () => {
  it('adds risk hints under the book\'s fields, keeping the Label: "value" lines', () => {
    expect(printed('rm -rf build', true)).toBe(
      [
        '[Tool: bash]',
        'Command: "rm -rf build"',
        'Working directory: "/p"',
        'Risk: rm -r deletes folders and everything in them; deleted files do not go to a trash.',
        '(Hints only: they do not change what Mino decides, and a command without one is not thereby safe.)',
        'Runs with your account permissions; this is not a sandbox.',
        '',
      ].join('\n'),
    );
  });

  it('adds nothing for a command without a hint, nor to a mode-allowed record', () => {
    expect(printed('ls', true)).toBe(['[Tool: bash]', 'Command: "ls"', 'Working directory: "/p"', 'Runs with your account permissions; this is not a sandbox.', ''].join('\n'));
    expect(printed('rm -rf build', false)).not.toContain('Risk:');
  });
});
