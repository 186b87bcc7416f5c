// Sums the vitest and Playwright JSON reports into the one closing line CI
// reads, and fails the run on any failed test, failed step, or no test at all.
import { existsSync, readFileSync } from 'node:fs';

const [vitestFile, playwrightFile, failedStepCount, failedSteps] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const notes = [];

if (existsSync(vitestFile)) {
  const report = JSON.parse(readFileSync(vitestFile, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A test file that fails to load has no tests but is a failure.
  for (const suite of report.testResults ?? []) {
    if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) {
      failed += 1;
      notes.push(`vitest could not run ${suite.name}`);
    }
  }
} else {
  notes.push(`no vitest report at ${vitestFile}`);
}

if (existsSync(playwrightFile)) {
  const stats = JSON.parse(readFileSync(playwrightFile, 'utf8')).stats ?? {};
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  failed += stats.unexpected ?? 0;
  skipped += stats.skipped ?? 0;
} else {
  notes.push(`no Playwright report at ${playwrightFile}`);
}

const stepsFailed = Number(failedStepCount) || 0;
for (const note of notes) console.log(`note: ${note}`);
if (stepsFailed > 0) console.log(`failed steps: ${failedSteps}`);
if (passed + failed === 0) console.log('note: no test ran');
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || stepsFailed > 0 || passed === 0 || notes.length > 0 ? 1 : 0);
