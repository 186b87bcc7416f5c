import { describe, expect, it } from 'vitest';
import { findUnpairedCalls } from '../../../src/main/core/model/history';
import type { HistoryItem } from '../../../src/main/core/model/types';

const call = (id: string): HistoryItem => ({ type: 'function_call', call_id: id, name: 'read_file', arguments: '{}' });
const out = (id: string): HistoryItem => ({ type: 'function_call_output', call_id: id, output: '{}' });

describe('findUnpairedCalls', () => {
  it('finds nothing when every call has its output', () => {
    expect(findUnpairedCalls([{ type: 'message', role: 'user', text: 'hi' }, call('a'), call('b'), out('b'), out('a')])).toEqual([]);
  });

  it('names calls without an output and outputs without a call', () => {
    expect(findUnpairedCalls([call('a'), out('b'), call('c'), out('c')])).toEqual(['a', 'b']);
  });
});
