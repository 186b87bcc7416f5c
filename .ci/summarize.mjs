// Sums the vitest and Playwright JSON reports into the one closing line CI
// reads, and fails the run on any failed test, failed step, or no test at all.
// Usage: summarize.mjs vitest=FILE... playwright=FILE FAILED_STEP_COUNT "FAILED STEPS"
// (one vitest report per Node the suite ran on).
import { existsSync, readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const reports = args.filter((arg) => /^(vitest|playwright)=/.test(arg)).map((arg) => arg.split(/=(.*)/s).slice(0, 2));
const [failedStepCount, failedSteps] = args.filter((arg) => !/^(vitest|playwright)=/.test(arg));
let passed = 0;
let failed = 0;
let skipped = 0;
const notes = [];

for (const [kind, file] of reports) {
  if (!existsSync(file)) {
    notes.push(`no ${kind} report at ${file}`);
    continue;
  }
  if (kind === 'vitest') countVitest(JSON.parse(readFileSync(file, 'utf8')), file);
  else countPlaywright(JSON.parse(readFileSync(file, 'utf8')));
}

function countVitest(report, file) {
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A test file that fails to load has no tests but is a failure.
  for (const suite of report.testResults ?? []) {
    if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) {
      failed += 1;
      notes.push(`vitest could not run ${suite.name} (${file})`);
    }
  }
}

function countPlaywright(report) {
  const stats = report.stats ?? {};
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  failed += stats.unexpected ?? 0;
  skipped += stats.skipped ?? 0;
}

const stepsFailed = Number(failedStepCount) || 0;
for (const note of notes) console.log(`note: ${note}`);
if (stepsFailed > 0) console.log(`failed steps: ${failedSteps}`);
if (passed + failed === 0) console.log('note: no test ran');
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || stepsFailed > 0 || passed === 0 || notes.length > 0 ? 1 : 0);
