import { describe, expect, it } from 'vitest';
import { argumentFields } from '../../../src/renderer/src/features/transcript/argumentFields';

describe('argumentFields', () => {
  it('shows string values as the text they are', () => {
    expect(argumentFields('{"path":"hello","old_string":"\\"hi\\"\\nnext"}')).toEqual([
      { label: 'path', value: 'hello' },
      { label: 'old_string', value: '"hi"\nnext' },
    ]);
  });

  it('shows other values as JSON', () => {
    expect(argumentFields('{"n":3,"flag":true,"none":null,"list":[1,"a"]}')).toEqual([
      { label: 'n', value: '3' },
      { label: 'flag', value: 'true' },
      { label: 'none', value: 'null' },
      { label: 'list', value: '[\n  1,\n  "a"\n]' },
    ]);
  });

  it('gives no fields for arguments that are not a JSON object', () => {
    for (const text of ['', 'not json', '[1,2]', '"text"', '3', 'null', '{"a":']) expect(argumentFields(text)).toBeNull();
  });

  it('gives an empty list for an empty object', () => {
    expect(argumentFields('{}')).toEqual([]);
  });
});
