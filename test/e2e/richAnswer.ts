// An answer with what Markdown in the transcript has to show: headings, a GFM
// table, a task list, and highlighted code blocks. Shared by the markdown,
// accessibility and screenshot specs.
export const RICH_CODE = 'export function greet(name: string): string {\n  return `hello, ${name}`; // the new greeting\n}';

export const RICH_ANSWER = [
  '# Summary',
  '',
  'I changed the greeting and checked the ~~old~~ callers.',
  '',
  '## Files',
  '',
  '| File | Change | Lines |',
  '| --- | --- | ---: |',
  '| `greet.ts` | new `greet` function | 3 |',
  '| `main.ts` | calls `greet` | 1 |',
  '',
  '### Next steps',
  '',
  '- [x] update the greeting',
  '- [ ] run the tests',
  '',
  '```ts',
  RICH_CODE,
  '```',
  '',
  'Run it with:',
  '',
  '```sh',
  'npm test -- greet',
  '```',
].join('\n');
