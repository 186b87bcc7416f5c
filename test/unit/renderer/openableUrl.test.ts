import { describe, expect, it } from 'vitest';
import { openableUrl } from '../../../src/renderer/src/features/links/openableUrl';

describe('openableUrl', () => {
  it('offers an https link, normalized', () => {
    expect(openableUrl('https://example.com/docs?q=1#top')).toBe('https://example.com/docs?q=1#top');
    expect(openableUrl('HTTPS://Example.COM')).toBe('https://example.com/');
  });

  it.each([
    'http://example.com/',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'mailto:someone@example.com',
    'ftp://example.com/file',
    'vscode://file/etc/passwd',
  ])('refuses %s', (href) => {
    expect(openableUrl(href)).toBeNull();
  });

  it.each(['/relative/path', 'example.com', '#anchor', 'https://', 'not a url'])('refuses %s, which is not an absolute https URL', (href) => {
    expect(openableUrl(href)).toBeNull();
  });

  it('refuses a missing or empty href', () => {
    expect(openableUrl(undefined)).toBeNull();
    expect(openableUrl('')).toBeNull();
  });

  it('returns the parsed form, so what is opened is what was checked', () => {
    // Whitespace and control characters a browser would strip are stripped here too.
    expect(openableUrl('  https://example.com/a b')).toBe('https://example.com/a%20b');
  });
});
