import { describe, expect, it } from 'vitest';
import { CaseFileError, parseCases } from '../../../src/main/core/eval/caseFile';

async function problems(text: string): Promise<string[]> {
  try {
    await parseCases(text, 'cases.yaml');
  } catch (error) {
    if (error instanceof CaseFileError) return error.problems;
    throw error;
  }
  throw new Error('the case file was accepted');
}

describe('the case file', () => {
  it('fills in the defaults of a minimal scripted case', async () => {
    const [c] = await parseCases('cases:\n  - name: hello\n    prompt: Say hello.\n    script: [{ text: Hello. }]\n    expect: { final_answer_matches: Hello }\n', 'cases.yaml');
    expect(c).toMatchObject({ name: 'hello', mode: 'manual', approve: 'never', model: 'scripted', project: {}, script: [{ text: 'Hello.' }] });
  });

  it('names the case and the field of every problem, all at once', async () => {
    const text = `
cases:
  - name: first
    prompt: Go.
    approve: sometimes
    script: [{ text: ok, httpStatus: 500 }]
    expect: { never_read: [/etc/passwd], max_requests: 0, colour: red }
  - name: bad name!
    prompt: Go.
    model: live
    script: [{ text: ok }]
    expect: {}
  - prompt: Go.
    turns: [One.]
    expect: { final_answer_matches: "(" }
`;
    expect(await problems(text)).toEqual([
      'case "first" (cases[0]): "approve": must be never, always, or a list of tool names',
      'case "first" (cases[0]): "script.0": a step is one of: an answer (text and/or calls), an HTTP error (httpStatus), or a failed stream (fail)',
      'case "first" (cases[0]): "expect.never_read.0": must be relative to the project, not an absolute path',
      'case "first" (cases[0]): "expect.max_requests": Too small: expected number to be >0',
      'case "first" (cases[0]): "expect": unknown field "colour"',
      'case "bad name!" (cases[1]): "name": is not a case name: a case name is 1 to 64 characters: letters, digits, ".", "_" or "-", starting with a letter or digit (it names the case\'s folder of runs)',
      'case "bad name!" (cases[1]): "expect": must hold at least one check',
      'case "bad name!" (cases[1]): "script": a live case asks the configured service; leave out script',
      'cases[2]: "name": must be text: a case name is 1 to 64 characters: letters, digits, ".", "_" or "-", starting with a letter or digit',
      'cases[2]: "expect.final_answer_matches": is not a valid regular expression (JavaScript syntax, "u" flag)',
    ]);
  });

  it('refuses two cases of one name, a file without cases, and YAML that does not parse, saying where', async () => {
    const twice = 'cases:\n  - { name: a, prompt: x, script: [{ text: y }], expect: { max_requests: 1 } }\n  - { name: a, prompt: x, script: [{ text: y }], expect: { max_requests: 1 } }\n';
    expect(await problems(twice)).toEqual(['case "a" (cases[1]): "name": another case is already named "a"; each case needs its own name']);
    expect(await problems('cases: []\n')).toEqual(['"cases": must hold at least one case']);
    expect(await problems('case:\n  - name: a\n')).toEqual(['"cases": must be a list of cases', 'unknown field "case"']);
    expect((await problems('cases:\n  - name: a\n   prompt: b\n'))[0]).toBe('line 3, column 1: Sequence item without - indicator');
  });

  it('needs a prompt or turns, and a script for a scripted case', async () => {
    expect(await problems('cases:\n  - name: a\n    expect: { max_requests: 1 }\n')).toEqual([
      'case "a" (cases[0]): "prompt": give either prompt or turns (not both)',
      'case "a" (cases[0]): "script": a scripted case needs script: the answers, one step per request',
    ]);
  });
});
