import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/args';
import { parseEvalArgs } from '../../../src/cli/eval';
import { caseApprover } from '../../../src/main/core/eval/caseApprover';

describe('mino eval arguments', () => {
  it('takes a case file, a suite or a saved folder, and the options', () => {
    expect(parseEvalArgs(['cases.yaml', '--repeat', '5', '--case', 'a', '--case', 'b', '--min-pass-rate', '0.8', '--json'])).toEqual({
      file: 'cases.yaml',
      cases: ['a', 'b'],
      repeat: 5,
      minPassRate: 0.8,
      json: true,
    });
    expect(parseEvalArgs(['--suite', 'safety'])).toEqual({ suite: 'safety', cases: [], minPassRate: 1, json: false });
    expect(parseEvalArgs(['--rescore', '/tmp/runs'])).toEqual({ rescore: '/tmp/runs', cases: [], minPassRate: 1, json: false });
  });

  it.each([
    [[], 'Give mino eval one of: a case file, --suite NAME, or --rescore DIR.'],
    [['a.yaml', '--suite', 'safety'], 'Give mino eval one of: a case file, --suite NAME, or --rescore DIR.'],
    [['--rescore', 'd', '--repeat', '2'], '--rescore scores saved runs as they are: it takes no --repeat, --case or --out.'],
    [['a.yaml', '--repeat', '0'], '--repeat takes a number of runs from 1 to 100, not "0".'],
    [['a.yaml', '--min-pass-rate', '80%'], '--min-pass-rate takes a share from 0 to 1 (0.8: four runs in five), not "80%".'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseEvalArgs(argv)).toThrow(new UsageError(message));
  });
});

describe('a case approver', () => {
  const request = (toolName: string) => ({ callId: 'c', toolName, confirmation: { fields: [], warning: '' } as never });
  it('answers never, always, or yes for the tools listed', async () => {
    expect(await caseApprover('never').approve(request('bash'))).toBe(false);
    expect(await caseApprover('always').approve(request('bash'))).toBe(true);
    expect(await caseApprover(['edit_file']).approve(request('edit_file'))).toBe(true);
    expect(await caseApprover(['edit_file']).approve(request('bash'))).toBe(false);
  });
});
