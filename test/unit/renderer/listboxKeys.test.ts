import { describe, expect, it } from 'vitest';
import { listboxKey } from '../../../src/renderer/src/lib/listboxKeys';

const press = (key: string, modifiers: Partial<{ shiftKey: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) => ({
  key,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...modifiers,
});

describe('the keys of a suggestion list', () => {
  it('moves with the arrows, wrapping at both ends', () => {
    expect(listboxKey(press('ArrowDown'), 3, 0)).toEqual({ kind: 'move', index: 1 });
    expect(listboxKey(press('ArrowDown'), 3, 2)).toEqual({ kind: 'move', index: 0 });
    expect(listboxKey(press('ArrowUp'), 3, 0)).toEqual({ kind: 'move', index: 2 });
  });

  it('picks with a plain Enter or Tab, and leaves them to the field with a modifier', () => {
    expect(listboxKey(press('Enter'), 2, 1)).toEqual({ kind: 'pick', by: 'enter' });
    expect(listboxKey(press('Tab'), 2, 1)).toEqual({ kind: 'pick', by: 'tab' });
    expect(listboxKey(press('Enter', { shiftKey: true }), 2, 1)).toBeNull();
    expect(listboxKey(press('Tab', { shiftKey: true }), 2, 1)).toBeNull();
    expect(listboxKey(press('Enter', { metaKey: true }), 2, 1)).toBeNull();
  });

  it('closes with Escape even when nothing matches, and otherwise leaves the keys of an empty list to the field', () => {
    expect(listboxKey(press('Escape'), 0, 0)).toEqual({ kind: 'dismiss' });
    expect(listboxKey(press('ArrowDown'), 0, 0)).toBeNull();
    expect(listboxKey(press('Enter'), 0, 0)).toBeNull();
    expect(listboxKey(press('a'), 3, 0)).toBeNull();
  });
});
