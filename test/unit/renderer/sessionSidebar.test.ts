// The sidebar's pure parts: which sessions a search keeps, what each is
// called, and how a project path splits for its cut in the middle.
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../src/shared/domain';
import { splitProjectPath } from '../../../src/renderer/src/app/ProjectPath';
import { matchingSessions, titleOf } from '../../../src/renderer/src/features/sessions/SessionSidebar';
import { updatedText } from '../../../src/renderer/src/features/sessions/sessionTime';

function summary(id: string, firstPrompt: string, title: string | null = null): SessionSummary {
  return { id: id.repeat(32).slice(0, 32), projectDir: '/p', firstPrompt, title, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
}

describe('session titles and search', () => {
  const sessions = [summary('a', 'Fix the failing tests in the parser'), summary('b', 'Add a README', 'Docs for newcomers'), summary('c', '')];

  it('names a session by its title, else its first question shortened, else as untitled', () => {
    expect(sessions.map(titleOf)).toEqual(['Fix the failing tests in the parser', 'Docs for newcomers', 'Untitled session']);
    expect(titleOf(summary('d', `${'word '.repeat(30)}end`))).toHaveLength(60);
  });

  it('keeps the sessions whose title holds every word, in any case and order', () => {
    expect(matchingSessions(sessions, 'PARSER failing').map(titleOf)).toEqual(['Fix the failing tests in the parser']);
    expect(matchingSessions(sessions, 'docs').map(titleOf)).toEqual(['Docs for newcomers']);
    // A renamed session is found by its new title, not its first question.
    expect(matchingSessions(sessions, 'README')).toEqual([]);
    expect(matchingSessions(sessions, '   ')).toEqual(sessions);
  });
});

describe('splitProjectPath', () => {
  it('keeps the folder name apart from where it is', () => {
    expect(splitProjectPath('/home/ana/work/payments')).toEqual({ head: '/home/ana/work/', tail: 'payments' });
    expect(splitProjectPath('C:\\Users\\ana\\payments\\')).toEqual({ head: 'C:\\Users\\ana\\', tail: 'payments' });
    expect(splitProjectPath('payments')).toEqual({ head: '', tail: 'payments' });
  });
});

describe('updatedText', () => {
  it('shows a time for today and a date otherwise, and an unreadable stamp as it is', () => {
    const now = new Date(2026, 5, 15, 18, 0);
    expect(updatedText(new Date(2026, 5, 15, 9, 5).toISOString(), now)).toMatch(/09:05|9:05/);
    expect(updatedText(new Date(2026, 0, 2, 9, 5).toISOString(), now)).toMatch(/Jan/);
    expect(updatedText(new Date(2024, 0, 2).toISOString(), now)).toMatch(/2024/);
    expect(updatedText('yesterday', now)).toBe('yesterday');
  });
});
