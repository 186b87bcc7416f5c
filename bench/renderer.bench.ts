// npm run bench:renderer — figures for the renderer, printed, never asserted:
// 1. scrolling a saved session of 2,000 messages from top to bottom and back,
//    one scroll step per animation frame, timing every frame in the page;
// 2. streaming a 100 KB answer in 2,000 deltas of 50 characters: how long the
//    page takes to show it all, how many renders that takes, and how far the
//    window falls behind the end of the stream; once as the mock writes it
//    (all at once) and once paced like a model (see pacedStream.ts).
//
// It runs the built renderer (out/renderer; build it with
// `npx electron-vite build`) in Chromium against a real MinoService over the
// loopback test bridge, with the loopback mock model service, as the renderer
// end-to-end tests do. Figures from a shared machine are noisy: run it twice.
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Page } from '@playwright/test';
import { SessionLog } from '../src/main/core/sessions/sessionLog';
import { MinoService } from '../src/main/service/minoService';
import { installMinoOverSocket } from '../test/support/bridge/browserClient';
import { FakeFolderPicker } from '../test/support/bridge/fakeFolderPicker';
import { MemorySecretStore } from '../test/support/bridge/memorySecretStore';
import { startTestBridge } from '../test/support/bridge/server';
import { chromiumLaunchOptions } from '../test/support/chromium';
import { startMockResponsesServer, type MockResponsesServer } from '../test/support/mockResponsesServer';
import { startPacedStream, type PacedStream } from './pacedStream';

const RENDERER_DIR = path.resolve(__dirname, '../out/renderer');

const TURNS = 1_000; // a user message and an assistant answer each: 2,000 messages
/** Pixels per animation frame: a fast wheel scroll (about 12,000 px/s at 60 Hz). */
const SCROLL_STEP_PX = 200;
const FRAME_MS = 1000 / 60;

const ANSWER_DELTAS = 2_000;
const DELTA_CHARS = 50;
const END_MARKER = 'END-OF-ANSWER';

interface FrameStats {
  frames: number;
  median: number;
  p95: number;
  max: number;
  over16: number;
  over33: number;
}

interface ScrollResult {
  intervals: number[];
  /** Index in intervals where the scroll turned from down to up. */
  turn: number;
  longTasks: number[];
  minRows: number;
  maxRows: number;
  scrollHeight: number;
}

interface StreamResult {
  callbacks: number;
  callbacksWhileStreaming: number;
  first: number | null;
  full: number | null;
  fullPainted: number | null;
  intervals: number[];
  longTasks: number[];
  timeOrigin: number;
}

// The code that runs in the page, as text, so it reads as the page runs it.
const PAGE_PROBES = `
window.__bench = {
  countRows() {
    const transcript = document.querySelector('[data-testid="transcript"]');
    return {
      rows: transcript.querySelectorAll('[data-index]').length,
      messages: transcript.querySelectorAll('[data-testid="user-message"], [data-testid="assistant-message"]').length,
    };
  },

  // Scrolls the transcript to the top, lets it settle, then down to the bottom
  // and back up, one step per frame, stamping every frame.
  scroll(step, maxFrames) {
    const transcript = document.querySelector('[data-testid="transcript"]');
    const rows = () => transcript.querySelectorAll('[data-index]').length;
    return new Promise((resolve) => {
      transcript.scrollTop = 0;
      let settle = 30;
      const stamps = [];
      let down = true;
      let minRows = Infinity;
      let maxRows = 0;
      let turn = 0;
      const longTasks = [];
      const tasks = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (settle === 0) longTasks.push(entry.duration);
      });
      try { tasks.observe({ type: 'longtask' }); } catch { /* no long-task timing here */ }
      const frame = (time) => {
        if (settle > 0) {
          settle -= 1;
          transcript.scrollTop = 0;
          requestAnimationFrame(frame);
          return;
        }
        stamps.push(time);
        const count = rows();
        minRows = Math.min(minRows, count);
        maxRows = Math.max(maxRows, count);
        if (down && transcript.scrollTop + transcript.clientHeight >= transcript.scrollHeight - 1) {
          down = false;
          turn = stamps.length - 1;
        }
        const finished = (!down && transcript.scrollTop <= 0) || stamps.length >= maxFrames;
        if (finished) {
          tasks.disconnect();
          const intervals = stamps.slice(1).map((stamp, i) => stamp - stamps[i]);
          resolve({ intervals, turn, longTasks, minRows, maxRows, scrollHeight: transcript.scrollHeight });
          return;
        }
        transcript.scrollTop += down ? step : -step;
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
  },

  // Watches the transcript while an answer streams in: the first rendered
  // text of a new assistant message, the render that shows the end marker,
  // and the frame that paints it; every frame and long task meanwhile.
  watchStream(marker) {
    const transcript = document.querySelector('[data-testid="transcript"]');
    const known = new Set(transcript.querySelectorAll('[data-testid="assistant-message"]'));
    const state = {
      callbacks: 0, callbacksWhileStreaming: 0, first: null, full: null, fullPainted: null,
      intervals: [], longTasks: [], timeOrigin: performance.timeOrigin,
    };
    window.__stream = state;
    const lastAnswer = () => {
      const answers = transcript.querySelectorAll('[data-testid="assistant-message"]');
      const last = answers[answers.length - 1];
      return last && !known.has(last) ? last : null;
    };
    const observer = new MutationObserver(() => {
      const now = performance.now();
      state.callbacks += 1;
      const answer = lastAnswer();
      if (!answer) return;
      const markdown = answer.querySelector('.markdown') || answer;
      if (state.first === null) {
        if (!markdown.textContent) return;
        state.first = now;
      }
      if (state.full !== null) return;
      state.callbacksWhileStreaming += 1;
      const tail = markdown.lastElementChild ? markdown.lastElementChild.textContent : markdown.textContent;
      if (tail && tail.includes(marker)) {
        state.full = now;
        requestAnimationFrame(() => { state.fullPainted = performance.now(); observer.disconnect(); });
      }
    });
    observer.observe(transcript, { childList: true, subtree: true, characterData: true });
    let previous = null;
    const frame = (time) => {
      if (previous !== null) state.intervals.push(time - previous);
      previous = time;
      if (state.fullPainted === null) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    try {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (state.fullPainted === null) state.longTasks.push(entry.duration);
      }).observe({ type: 'longtask' });
    } catch {
      // No long-task timing in this browser; the frame intervals still tell.
    }
  },
};
`;

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const quantile = (values: number[], q: number) => {
  const s = sorted(values);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const ms = (value: number | null) => (value === null || Number.isNaN(value) ? 'n/a' : `${value.toFixed(1)} ms`);

function frameStats(intervals: number[]): FrameStats {
  return {
    frames: intervals.length + 1,
    median: quantile(intervals, 0.5),
    p95: quantile(intervals, 0.95),
    max: intervals.length ? Math.max(...intervals) : NaN,
    // A little slack: headless Chromium's frame clock jitters around 16.67 ms.
    over16: intervals.filter((value) => value > FRAME_MS + 0.5).length,
    over33: intervals.filter((value) => value > 2 * FRAME_MS + 0.5).length,
  };
}

function frameLine(stats: FrameStats): string {
  return `${stats.frames} frames; interval median ${ms(stats.median)}, p95 ${ms(stats.p95)}, max ${ms(stats.max)}; over 16.7 ms: ${stats.over16}, over 33 ms (dropped): ${stats.over33}`;
}

/** Writes a saved session of `turns` question-and-answer turns into the project. */
async function writeLongSession(home: string, project: string, turns: number): Promise<string> {
  const log = await SessionLog.create(home, project);
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < turns; i += 1) {
    writes.push(log.append({ type: 'user', text: i === 0 ? 'Walk me through this project, one file at a time.' : `What does src/module${i}.ts do, and who calls it?` }));
    const text =
      `**src/module${i}.ts** exports \`handle${i}()\`, which reads the request, checks its fields and hands it to the next stage.\n\n` +
      `- Called from \`src/router.ts\` (line ${10 + (i % 90)})\n- Tested in \`test/module${i}.test.ts\``;
    writes.push(log.append({ type: 'response', responseId: `resp_${i}`, output: [{ type: 'message', role: 'assistant', text }] }));
    writes.push(log.append({ type: 'turn_end', status: 'completed' }));
  }
  await Promise.all(writes);
  await log.close();
  return log.id;
}

/** 100,000 characters in 50-character deltas: lines of Markdown text in paragraphs, the end marker last. */
function streamedAnswer(): string[] {
  const deltas: string[] = [];
  for (let i = 0; i < ANSWER_DELTAS; i += 1) {
    const last = i === ANSWER_DELTAS - 1;
    const ending = last ? ` ${END_MARKER}\n` : (i + 1) % 8 === 0 ? '\n\n' : '\n';
    const head = `Line ${String(i).padStart(4, '0')} of the long answer `;
    deltas.push(head + 'x'.repeat(DELTA_CHARS - head.length - ending.length) + ending);
  }
  return deltas;
}

async function scrollLongSession(page: Page, picker: FakeFolderPicker, project: string, sessionId: string): Promise<void> {
  console.log(`1. Scrolling a saved session of ${2 * TURNS} messages (${SCROLL_STEP_PX} px per frame, top to bottom and back)`);
  picker.willPick(project);
  await page.getByRole('button', { name: 'Open project…' }).click();
  const resume = page.getByRole('button', { name: new RegExp(`^Resume session ${sessionId}`) });
  await resume.waitFor();
  const start = performance.now();
  await resume.click();
  await page.getByTestId('header-session').filter({ hasText: sessionId }).waitFor();
  await page.getByTestId('user-message').last().waitFor();
  const opened = performance.now() - start;
  const atOpen = await page.evaluate<{ rows: number; messages: number }>('window.__bench.countRows()');
  const result = await page.evaluate<ScrollResult>(`window.__bench.scroll(${SCROLL_STEP_PX}, 20000)`);
  const stats = frameStats(result.intervals);
  console.log(`   open from the session list until messages show: ${ms(opened)}`);
  console.log(`   ${frameLine(stats)}`);
  console.log(`     down (rows measured for the first time): ${frameLine(frameStats(result.intervals.slice(0, result.turn)))}`);
  console.log(`     back up (rows measured before):          ${frameLine(frameStats(result.intervals.slice(result.turn)))}`);
  console.log(`   long tasks meanwhile: ${result.longTasks.length}, longest ${ms(result.longTasks.length ? Math.max(...result.longTasks) : 0)}`);
  console.log(`   transcript rows in the DOM: ${atOpen.rows} at open (${atOpen.messages} messages), ${result.minRows}–${result.maxRows} while scrolling, of ${2 * TURNS} messages; scroll height ${result.scrollHeight} px`);
  scrollFigures = stats;
}

interface StreamCase {
  label: string;
  /** Milliseconds between delta events as the service receives them; 0: all at once, as the mock writes them. */
  deltaIntervalMs: number;
}

const STREAM_CASES: StreamCase[] = [
  { label: 'all at once (as the mock writes it)', deltaIntervalMs: 0 },
  { label: 'paced, one delta every 5 ms (about 10 s)', deltaIntervalMs: 5 },
];

interface StreamWindow {
  page: Page;
  url: string;
  picker: FakeFolderPicker;
  project: string;
  server: MockResponsesServer;
  paced: PacedStream;
}

async function streamLongAnswer(w: StreamWindow, streamCase: StreamCase): Promise<void> {
  const { page, server, paced } = w;
  const deltas = streamedAnswer();
  const text = deltas.join('');
  console.log(`   ${streamCase.label}`);
  // A fresh window and session, so only the streamed answer changes.
  await page.goto(w.url);
  w.picker.willPick(w.project);
  await page.getByRole('button', { name: 'Open project…' }).click();
  await page.getByRole('button', { name: 'New session' }).click();
  await page.getByRole('textbox', { name: 'Message to Mino' }).waitFor();

  let requested = 0;
  server.enqueue(() => {
    requested = performance.timeOrigin + performance.now();
    return { text, deltas };
  });
  paced.deltaIntervalMs = streamCase.deltaIntervalMs;
  paced.lastByteAt = 0;
  await page.evaluate(`window.__bench.watchStream(${JSON.stringify(END_MARKER)})`);
  await page.getByRole('textbox', { name: 'Message to Mino' }).fill('Write the long answer.');
  await page.getByRole('button', { name: 'Send' }).click();
  // A function, not a string: the page's CSP forbids eval.
  await page.waitForFunction(() => (globalThis as unknown as { __stream: StreamResult }).__stream.fullPainted !== null, undefined, { timeout: 120_000 });
  const result = await page.evaluate<StreamResult>('window.__stream');
  await page.getByTestId('assistant-message').last().and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 60_000 });
  const streamEnd = paced.lastByteAt;

  const epoch = (value: number | null) => (value === null ? null : result.timeOrigin + value);
  const first = epoch(result.first);
  const full = epoch(result.full);
  const painted = epoch(result.fullPainted);
  const stats = frameStats(result.intervals);
  const longest = result.longTasks.length ? Math.max(...result.longTasks) : 0;
  const since = (from: number | null, to: number | null) => (from === null || to === null ? null : to - from);
  console.log(`     stream from the model service: ${ms(since(requested, streamEnd))} from request to last byte`);
  console.log(`     model request to first delta shown: ${ms(since(requested, first))}`);
  console.log(`     first delta shown to full text rendered: ${ms(since(first, full))} (painted ${ms(since(first, painted))})`);
  console.log(`     renders (transcript mutation callbacks) while streaming: ${result.callbacksWhileStreaming}, ${(deltas.length / Math.max(1, result.callbacksWhileStreaming)).toFixed(1)} deltas per render`);
  console.log(`     lag behind the stream (last byte sent to last character rendered): ${ms(since(streamEnd, full))}, painted: ${ms(since(streamEnd, painted))}`);
  console.log(`     frames meanwhile: ${frameLine(stats)}`);
  console.log(`     long tasks meanwhile: ${result.longTasks.length}, ${ms(result.longTasks.reduce((a, b) => a + b, 0))} in all, longest ${ms(longest)}`);
  streamFigures.push({ label: streamCase.label, stats, lag: since(streamEnd, painted) ?? NaN });
}

let scrollFigures: FrameStats | undefined;
const streamFigures: Array<{ label: string; stats: FrameStats; lag: number }> = [];

function printTargets(): void {
  const rows: Array<[string, string]> = [
    ['2,000-message session scrolls without dropped frames', scrollFigures ? `${scrollFigures.over33} frames over 33 ms, p95 ${ms(scrollFigures.p95)}` : 'not measured'],
    ...streamFigures.map((figures): [string, string] => [
      `100 KB answer streams without the window falling behind (${figures.label.split(' (')[0]})`,
      `lag ${ms(figures.lag)}, ${figures.stats.over33} frames over 33 ms`,
    ]),
  ];
  const width = Math.max(...rows.map(([target]) => target.length));
  console.log('Targets (for reference; nothing is asserted)');
  for (const [target, measured] of rows) console.log(`   ${target.padEnd(width)}  ${measured}`);
}

async function main(): Promise<void> {
  if (!existsSync(path.join(RENDERER_DIR, 'index.html'))) {
    console.error(`No built renderer in ${RENDERER_DIR}. Build it first with "npx electron-vite build", then run this again.`);
    process.exitCode = 1;
    return;
  }
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mino-bench-')));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  await fs.mkdir(home);
  await fs.mkdir(project);
  const server = await startMockResponsesServer();
  const paced = await startPacedStream(server.baseURL);
  const picker = new FakeFolderPicker();
  const service = new MinoService({
    homeDir: home,
    appName: 'Mino',
    appVersion: '0.0.0-bench',
    secrets: new MemorySecretStore(),
    pickFolder: picker.pick,
    env: { HOME: home, OPENAI_BASE_URL: paced.baseURL, OPENAI_API_KEY: 'bench-key', MINO_MODEL: 'mock-model' },
    openSessionWindow: () => undefined,
    focusClient: () => undefined,
    notifyApprovalWaiting: () => undefined,
  });
  const bridge = await startTestBridge({ service, rendererDir: RENDERER_DIR });
  const browser = await chromium.launch(chromiumLaunchOptions());
  const errors: string[] = [];
  try {
    let start = performance.now();
    const sessionId = await writeLongSession(home, project, TURNS);
    console.log(`(wrote the ${3 * TURNS}-record session log in ${ms(performance.now() - start)})`);
    const page = await browser.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    // tsx keeps function names with a __name() helper, which a function sent to the page calls.
    await page.addInitScript('globalThis.__name = (target) => target;');
    await page.addInitScript(installMinoOverSocket, bridge.clientConfig);
    await page.addInitScript(PAGE_PROBES);
    start = performance.now();
    await page.goto(bridge.url);
    await page.getByRole('button', { name: 'Open project…' }).waitFor();
    console.log(`(renderer loaded in ${ms(performance.now() - start)}; Chromium ${browser.version()})`);

    await scrollLongSession(page, picker, project, sessionId);
    console.log(`2. Streaming a ${(ANSWER_DELTAS * DELTA_CHARS) / 1000} KB answer in ${ANSWER_DELTAS} deltas of ${DELTA_CHARS} characters`);
    for (const streamCase of STREAM_CASES) await streamLongAnswer({ page, url: bridge.url, picker, project, server, paced }, streamCase);
    printTargets();
    if (errors.length > 0) console.log(`The renderer reported errors: ${errors.join('; ')}`);
  } finally {
    await browser.close();
    await bridge.close();
    await service.close();
    await paced.close();
    await server.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
