import { describe, expect, it } from 'vitest';
import { LEDGER_PAGE } from '../../../src/shared/rules';
import {
  decisionBadge,
  decisionText,
  entryTime,
  ledgerCountLine,
  ledgerQuery,
  NO_FILTERS,
  shortSession,
} from '../../../src/renderer/src/features/rules/ledgerRows';

/** A view's counts with `loaded` entries (their content does not matter to the count line). */
const counts = (loaded: number, matched: number, total: number) => ({ entries: new Array(loaded), matched, total });

describe('the Decisions panel\'s query', () => {
  it('sends only the filters that are set, with the search trimmed', () => {
    expect(ledgerQuery(NO_FILTERS)).toEqual({});
    expect(ledgerQuery({ session: 'a'.repeat(32), tool: 'bash', decision: 'deny', search: '  npm test ' })).toEqual({
      session: 'a'.repeat(32),
      tool: 'bash',
      decision: 'deny',
      search: 'npm test',
    });
    expect(ledgerQuery({ ...NO_FILTERS, search: '   ' })).toEqual({});
  });
});

describe('the Decisions panel\'s count line', () => {
  it('says nothing for an empty ledger', () => {
    expect(ledgerCountLine(0, counts(0, 0, 0))).toBeNull();
  });

  it('counts every match when all are shown, and what they are out of when a filter narrowed them', () => {
    expect(ledgerCountLine(5, counts(5, 5, 5))).toBe('5 decisions, newest first.');
    expect(ledgerCountLine(1, counts(1, 1, 1))).toBe('1 decision, newest first.');
    expect(ledgerCountLine(1, counts(1, 1, 5))).toBe('1 decision match (of 5 decisions in this project), newest first.');
    expect(ledgerCountLine(0, counts(0, 0, 5))).toBe('0 decisions match (of 5 decisions in this project), newest first.');
  });

  it('says "Showing N of M" when fewer rows are shown than matched, and why when only the newest page was loaded', () => {
    expect(ledgerCountLine(100, counts(300, 300, 300))).toBe('Showing 100 of 300 decisions, newest first.');
    expect(ledgerCountLine(100, counts(LEDGER_PAGE, 12_000, 12_000))).toBe(
      'Showing 100 of 12,000 decisions, newest first. Only the newest 500 are loaded: narrow the filters or the search to find older ones.',
    );
    expect(ledgerCountLine(LEDGER_PAGE, counts(LEDGER_PAGE, 900, 1_000))).toBe(
      'Showing 500 of 900 decisions (of 1,000 decisions in this project), newest first. Only the newest 500 are loaded: narrow the filters or the search to find older ones.',
    );
  });
});

describe('a ledger row\'s words', () => {
  it('names each decision in words, with the badge that marks it', () => {
    expect(decisionText({ decision: 'allow' })).toBe('allowed');
    expect(decisionText({ decision: 'ask' })).toBe('asked');
    expect(decisionText({ decision: 'deny' })).toBe('denied');
    expect(decisionText({ decision: 'unknown' })).toBe('result unknown');
    expect(decisionBadge({ decision: 'allow' })).toBe('badge badge-ok');
    expect(decisionBadge({ decision: 'deny' })).toBe('badge badge-denied');
    expect(decisionBadge({ decision: 'ask' })).toBe('badge badge-neutral');
  });

  it('shortens a session id to its first 8 characters, and shows a time that is not one as written', () => {
    expect(shortSession('0123456789abcdef0123456789abcdef')).toBe('01234567');
    expect(entryTime('not a time')).toBe('not a time');
    expect(entryTime('2025-01-02T03:04:05.000Z')).toMatch(/2025/);
  });
});
