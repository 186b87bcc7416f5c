import { describe, expect, it } from 'vitest';
import type { Confirmation } from '../../../src/shared/domain';
import { confirmationFieldLine as fieldLine } from '../../../src/shared/transcriptText';
import { decisionText, toolCardTitle } from '../../../src/renderer/src/features/transcript/ToolCard';
import { newToolCard, type ToolCardItem } from '../../../src/renderer/src/features/transcript/transcriptModel';

const confirmation: Confirmation = { tool: 'edit_file', fields: [{ label: 'Path', value: 'greet.go' }] };

function card(change: Partial<ToolCardItem> = {}): ToolCardItem {
  return { ...newToolCard('tool-1', 'call_1', 'edit_file'), arguments: '{}', ...change };
}

describe('toolCardTitle', () => {
  it('names the tool', () => {
    expect(toolCardTitle(card())).toBe('[Tool: edit_file]');
  });

  it('says the mode let a call run without confirmation', () => {
    expect(toolCardTitle(card({ confirmation, asked: false, mode: 'accept-edits' }))).toBe(
      '[Tool: edit_file, allowed without confirmation in accept-edits mode]',
    );
  });

  it('names the person\'s rule, not the mode, when a rule let the call run', () => {
    const byRule = { ...confirmation, rules: [{ id: 'r3', text: 'allow bash echo' }] };
    expect(toolCardTitle(card({ confirmation: byRule, asked: false, mode: 'manual' }))).toBe('[Tool: edit_file, allowed by rule r3 "allow bash echo"]');
    expect(decisionText(card({ confirmation: byRule, asked: false, mode: 'manual', decision: 'allow' }))).toBe('Allowed by your rule');
  });

  it('does not say so for a call a person was asked about', () => {
    expect(toolCardTitle(card({ confirmation, asked: true, mode: 'manual' }))).toBe('[Tool: edit_file]');
  });

  it('does not say so for a replayed call, which has no confirmation', () => {
    expect(toolCardTitle(card({ mode: 'manual' }))).toBe('[Tool: edit_file]');
  });
});

describe('decisionText', () => {
  it('says policy refused a denied call', () => {
    expect(decisionText(card({ decision: 'deny', mode: 'bypass' }))).toBe('Refused by policy');
  });

  it('says the person approved or denied an asked call', () => {
    expect(decisionText(card({ decision: 'ask', asked: true, approved: true }))).toBe('Approved by you');
    expect(decisionText(card({ decision: 'ask', asked: true, approved: false }))).toBe('Denied by you');
  });

  it('says an asked call waits for an answer until a result arrives without one', () => {
    expect(decisionText(card({ decision: 'ask', asked: true }))).toBe('Waiting for your answer');
    expect(decisionText(card({ decision: 'ask', asked: true, result: { status: 'error', output: 'Stopped.' } }))).toBe('Not answered');
  });

  it('names the mode that allowed a call without asking', () => {
    expect(decisionText(card({ decision: 'allow', asked: false, mode: 'bypass', confirmation }))).toBe('Allowed by bypass mode');
  });

  it('says a read ran without asking', () => {
    expect(decisionText(card({ name: 'read_file', decision: 'allow', mode: 'manual' }))).toBe('Allowed without asking (read-only)');
  });

  it('says an ask-decided call asks first before its confirmation arrives', () => {
    expect(decisionText(card({ decision: 'ask', mode: 'manual' }))).toBe('Asks first');
  });

  it('says nothing for a call with no decision (replayed, invalid or unknown tool)', () => {
    expect(decisionText(card({ mode: 'manual', result: { status: 'unknown', output: '' } }))).toBeNull();
  });
});

describe('fieldLine', () => {
  it('writes the book\'s Label: "value" form', () => {
    expect(fieldLine('Path', 'greet.go')).toBe('Path: "greet.go"');
  });

  it('escapes quotes and newlines so a value cannot pass for another line', () => {
    const line = fieldLine('Command', 'echo "hi"\nPath: "/etc/passwd"');
    expect(line).toBe('Command: "echo \\"hi\\"\\nPath: \\"/etc/passwd\\""');
    expect(line.split('\n')).toHaveLength(1);
  });
});
