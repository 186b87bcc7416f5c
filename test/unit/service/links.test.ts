import { describe, expect, it } from 'vitest';
import { clientId } from '../../../src/main/service/clients';
import { ExternalLinks, LINK_ID_TTL_MS } from '../../../src/main/service/features/links';

const A = clientId('window-a');
const B = clientId('window-b');

function links(now = () => 1_000) {
  const opened: string[] = [];
  return { opened, links: new ExternalLinks(async (url) => void opened.push(url), now) };
}

describe('opening links', () => {
  it('opens the exact URL it issued an id for, once', async () => {
    const { links: l, opened } = links();
    const check = l.check(A, 'https://example.com/a b?q=1#x');
    expect(check.url).toBe('https://example.com/a%20b?q=1#x');
    await expect(l.open(A, check.id)).resolves.toEqual({ opened: true });
    expect(opened).toEqual(['https://example.com/a%20b?q=1#x']);
    await expect(l.open(A, check.id)).rejects.toThrow('unknown, used or expired');
    expect(opened).toHaveLength(1);
  });

  it.each(['http://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'app://mino/index.html', 'https://', 'not a url'])(
    'issues no id for %s',
    (url) => {
      const { links: l } = links();
      expect(() => l.check(A, url)).toThrow('Only https: links open in the browser');
    },
  );

  it('opens nothing for an id it never issued, one issued to another window, or one that expired', async () => {
    let now = 1_000;
    const { links: l, opened } = links(() => now);
    await expect(l.open(A, '3f1c2b6e-8d4a-4f5b-9c7e-1a2b3c4d5e6f')).rejects.toThrow('nothing was opened');
    const forA = l.check(A, 'https://example.com/');
    await expect(l.open(B, forA.id)).rejects.toThrow('nothing was opened');
    now += LINK_ID_TTL_MS + 1;
    await expect(l.open(A, forA.id)).rejects.toThrow('nothing was opened');
    expect(opened).toEqual([]);
  });

  it("forgets a window's ids when it closes", async () => {
    const { links: l, opened } = links();
    const check = l.check(A, 'https://example.com/');
    l.forget(A);
    await expect(l.open(A, check.id)).rejects.toThrow('nothing was opened');
    expect(opened).toEqual([]);
  });
});
