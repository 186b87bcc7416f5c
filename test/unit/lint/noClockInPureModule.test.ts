import rule from '../../../eslint-rules/no-clock-in-pure-module.mjs';
import { ruleTester } from './ruleTester';

const clock = (what: string) => ({ messageId: 'clock', data: { what } });
const defaultClock = (what: string) => ({ messageId: 'defaultClock', data: { what } });
const timer = (what: string) => ({ messageId: 'timer', data: { what } });

ruleTester.run('mino/no-clock-in-pure-module', rule, {
  valid: [
    // The time comes in from the caller.
    'export function fold(events: string[], now: number) { return { events, at: now }; }',
    'export function stamp(now: () => number) { return now(); }',
    // A date made from a value is not the clock.
    "export const day = new Date('2026-01-01T00:00:00Z');",
    'export const parsed = (iso: string) => new Date(iso).getTime();',
    'export const at = Date.parse("2026-01-01");',
    // Other members of the same globals.
    'export const big = Math.max(1, 2);',
    // A parameter or local that shadows a global is the caller's.
    'export function later(setTimeout: (run: () => void) => void) { setTimeout(() => undefined); }',
    'export function pick(Math: { random(): number }) { return Math.random(); }',
    // Types only.
    'export type Timer = ReturnType<typeof setTimeout>;',
    "import type { randomUUID } from 'node:crypto';\nexport type Id = ReturnType<typeof randomUUID>;",
    // Hashing is not randomness.
    "import { createHash } from 'node:crypto';\nexport const hash = (text: string) => createHash('sha256').update(text).digest('hex');",
  ],
  invalid: [
    { code: 'export const at = Date.now();', errors: [clock('Date.now')] },
    { code: 'export const clockFn = { now: Date.now };', errors: [clock('Date.now')] },
    { code: 'export const at = new Date();', errors: [clock('new Date()')] },
    { code: 'export const text = Date();', errors: [clock('Date()')] },
    { code: 'export const t = performance.now();', errors: [clock('performance.now')] },
    { code: 'export const r = Math.random();', errors: [clock('Math.random')] },
    { code: 'export const id = crypto.randomUUID();', errors: [clock('crypto.randomUUID')] },
    { code: 'export const bytes = crypto.getRandomValues(new Uint8Array(4));', errors: [clock('crypto.getRandomValues')] },
    { code: 'export const t = globalThis.Date.now();', errors: [clock('globalThis.Date.now')] },
    { code: 'setTimeout(() => undefined, 10);', errors: [timer('setTimeout')] },
    { code: 'export const id = setInterval(() => undefined, 10);', errors: [timer('setInterval')] },
    { code: 'window.setTimeout(() => undefined, 10);', errors: [timer('window.setTimeout')] },
    { code: 'export const schedule = setTimeout;', errors: [timer('setTimeout')] },
    // As default parameter values: read whenever a caller leaves the argument out.
    { code: 'export function fold(events: string[], now: number = Date.now()) { return now; }', errors: [defaultClock('Date.now')] },
    { code: 'export function since(now = performance.now()) { return now; }', errors: [defaultClock('performance.now')] },
    { code: 'export function updated(now: Date = new Date()) { return now; }', errors: [defaultClock('new Date()')] },
    { code: 'export const jitter = (random: () => number = Math.random) => random();', errors: [defaultClock('Math.random')] },
    { code: 'export class Clocked { constructor(private readonly now: () => number = Date.now) {} }', errors: [defaultClock('Date.now')] },
    // From Node, by name or through a namespace.
    { code: "import { randomUUID } from 'node:crypto';\nexport const id = randomUUID();", errors: [{ messageId: 'nodeImport', data: { what: 'randomUUID', source: 'node:crypto' } }] },
    { code: "import { setTimeout as sleep } from 'node:timers/promises';\nexport const nap = () => sleep(5);", errors: [{ messageId: 'nodeImport', data: { what: 'setTimeout', source: 'node:timers/promises' } }] },
    { code: "import { performance } from 'perf_hooks';\nexport const t = performance.now();", errors: [{ messageId: 'nodeImport', data: { what: 'performance', source: 'perf_hooks' } }] },
    { code: "import * as nodeCrypto from 'node:crypto';\nexport const id = nodeCrypto.randomUUID();", errors: [clock("nodeCrypto.randomUUID (from 'node:crypto')")] },
  ],
});
