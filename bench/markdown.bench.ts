// npm run bench:markdown — what splitting an answer's Markdown into blocks
// costs (markdownBlocks, which SafeMarkdown renders block by block), printed,
// never asserted, in CPU time (median of several runs):
// 1. a split from scratch of a realistic answer (prose, lists, code fences, a
//    table, some blocks with a blank line between them and some without), of
//    10 KB and of 100 KB: what a window pays when it first sees an answer
//    mid-stream;
// 2. the parse of that whole text alone, the least any split made by the
//    parser can cost;
// 3. a split that extends the split of the text 50 characters shorter, as
//    each delta of a streaming answer does.
// Figures from a shared machine are noisy (a run's garbage lands in the next):
// run it a few times and take the middle.
//
// Run: npx tsx bench/markdown.bench.ts   (or npm run bench:markdown)
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

/** markdownBlocks, as the renderer module declares it. */
type MarkdownBlocks = (text: string, earlier?: { text: string; blocks: readonly string[] }) => string[];

/**
 * The renderer module, loaded by a path made at run time: tsconfig.node.json,
 * which checks bench/, leaves renderer code to tsconfig.web.json, which has no
 * Node types for process.cpuUsage.
 */
async function loadMarkdownBlocks(): Promise<MarkdownBlocks> {
  const module = pathToFileURL(path.resolve(__dirname, '../src/renderer/src/features/transcript/markdownBlocks.ts'));
  return ((await import(module.href)) as { markdownBlocks: MarkdownBlocks }).markdownBlocks;
}

const SIZES = [10_000, 100_000];
const DELTA_CHARS = 50;

/** One section of an answer, as a model writes one: `n` makes each distinct. */
function section(n: number): string {
  return (
    `## Step ${n}: update \`module${n}.ts\`\n\n` +
    `The handler in **src/module${n}.ts** reads the request, checks its fields and passes it on. It fails when ` +
    `the *input* is empty, so we guard it first and log a clear message ([docs](https://example.com/${n})).\n\n` +
    `Callers:\n- \`src/router.ts\` (line ${10 + n})\n- \`test/module${n}.test.ts\`\n  - with a nested case\n\n` +
    '1. Read the file\n2. Change the guard:\n\n   ```ts\n   if (!input) throw new Error(\'empty\');\n   ```\n\n3. Run the tests\n\n' +
    `The new code:\n\`\`\`ts\nexport function handle${n}(input: string): string {\n  if (input === '') {\n\n` +
    "    throw new Error('empty input');\n  }\n  return input.trim();\n}\n```\nThen run:\n" +
    `\`\`\`sh\nnpm test -- module${n}\n\`\`\`\n\n` +
    `| File | Lines | Change |\n| --- | ---: | --- |\n| src/module${n}.ts | ${20 + n} | guard |\n| test/module${n}.test.ts | ${40 + n} | new case |\n\n` +
    '> **Note:** this keeps the old behaviour for callers that pass a value.\n\n'
  );
}

/** A realistic answer of `size` characters, cut mid-section as a streaming one is. */
function answer(size: number): string {
  let text = '';
  for (let n = 1; text.length < size; n += 1) text += section(n);
  return text.slice(0, size);
}

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** Median CPU milliseconds of `runs` calls, after one to warm up. */
function median(runs: number, work: () => unknown): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = cpuMs();
    work();
    times.push(cpuMs() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function main(): Promise<void> {
  const markdownBlocks = await loadMarkdownBlocks();
  const parser = unified().use(remarkParse).use(remarkGfm).freeze();
  const rows: Array<[string, string, string, string, string]> = [['answer', 'blocks', 'split from scratch', 'parse of the whole', 'extended split']];
  for (const size of SIZES) {
    const text = answer(size);
    const runs = size > 50_000 ? 7 : 15;
    const shorter = text.slice(0, -DELTA_CHARS);
    const earlier = { text: shorter, blocks: markdownBlocks(shorter) };
    rows.push([
      `${size / 1000} KB`,
      String(markdownBlocks(text).length),
      `${median(runs, () => markdownBlocks(text)).toFixed(1)} ms`,
      `${median(runs, () => parser.parse(text)).toFixed(1)} ms`,
      `${median(runs * 4, () => markdownBlocks(text, earlier)).toFixed(2)} ms`,
    ]);
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  console.log(`Splitting Markdown into blocks, CPU time, median (Node ${process.versions.node})`);
  for (const row of rows) console.log(`   ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('   ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
