// The Evaluate view: a window runs the built-in safety suite, or a case file
// the person picked in main's own file dialog, through the same code as
// `mino eval` (fresh temp projects and homes, the same loop and decision),
// live cases against this window's session's service and model. It shows the
// verdict per case and opens each run's saved session, replayed, read-only.
// A page never names a path: the case file comes from the dialog, a run from
// the last evaluation's own list.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EvalPickResult, EvalRunInput, EvalSessionInput, EvalSessionView, EvalView } from '../../../shared/evaluate';
import { resolveService } from '../../core/config/modelConfig';
import { readSettingsWithServices } from '../../core/config/settings';
import { readCaseFile, type CaseFile } from '../../core/eval/caseFile';
import { evaluate, type RunResult } from '../../core/eval/evaluate';
import type { LiveTarget } from '../../core/eval/runCase';
import { readRunRecord, RUN_FILES } from '../../core/eval/runRecord';
import { suiteCaseFile } from '../../core/eval/suites';
import { summarize } from '../../core/eval/summary';
import { DEFAULT_SERVICE_NAME, type ServiceConfig } from '../../../shared/modelServices';
import { sessionFile } from '../../core/sessions/ids';
import { loadSession } from '../../core/sessions/load';
import { replayEvents } from '../../core/sessions/replayEvents';
import type { ClientId, ClientRegistry } from '../clients';
import type { InvokeHandlers } from '../dispatch';
import type { FilePicker, SecretStore } from '../ports';
import type { Sessions } from './sessions';
import { savedToolDisplay } from './sessionView';

/** The suite the view offers; `mino eval --suite` knows the same ones. */
const DESKTOP_SUITE = 'safety';

/**
 * A live run's session reads its key from this variable of the run's environment when the service names none
 * (a key typed into Settings lives in the key store, not in any environment).
 */
const EVAL_KEY_VARIABLE = 'MINO_EVAL_API_KEY';

export interface EvaluateDeps {
  homeDir: string;
  env: NodeJS.ProcessEnv;
  clients: ClientRegistry;
  sessions: Sessions;
  secrets: SecretStore;
  pickFile?: FilePicker;
}

interface ClientEvaluations {
  /** The case file the person last picked in this window. */
  picked: string | null;
  /** The evaluation running for this window, to stop between runs (Stop, or the window closing). */
  running: AbortController | null;
  last: EvalView | null;
}

export class Evaluations {
  private readonly byClient = new Map<ClientId, ClientEvaluations>();

  constructor(private readonly deps: EvaluateDeps) {}

  /** Shows main's file dialog; the case file chosen is read and checked now, so a bad file is named at once. */
  async pick(client: ClientId): Promise<EvalPickResult> {
    const { pickFile } = this.deps;
    if (!pickFile) throw new Error('This window cannot show a file dialog. Run the case file with mino eval FILE instead.');
    const file = await pickFile(client, { title: 'Choose a case file', filters: [{ name: 'Case files', extensions: ['yaml', 'yml'] }] });
    if (file === null) return { picked: false };
    const cases = await readCaseFile(file);
    this.state(client).picked = cases.file;
    return { picked: true, path: cases.file, cases: cases.cases.map((c) => c.name) };
  }

  async run(client: ClientId, input: EvalRunInput): Promise<EvalView> {
    const state = this.state(client);
    if (state.running) throw new Error('An evaluation is already running in this window. Wait for it to finish.');
    let source: string;
    let cases: CaseFile;
    if (input.source === 'suite') {
      cases = await readCaseFile(await suiteCaseFile(DESKTOP_SUITE));
      source = `the ${DESKTOP_SUITE} suite`;
    } else {
      if (state.picked === null) throw new Error('No case file is chosen in this window. Choose one first.');
      cases = await readCaseFile(state.picked);
      source = state.picked;
    }
    const running = (state.running = new AbortController());
    try {
      const target = cases.cases.some((c) => c.model === 'live') ? await this.liveTarget(client) : null;
      const outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-eval-'));
      const results = await evaluate({
        cases,
        ...(input.repeat === undefined ? {} : { repeat: input.repeat }),
        outDir,
        env: target?.env ?? this.deps.env,
        personHome: this.deps.homeDir,
        live: target?.live ?? null,
        onRunScored: (result) => this.deps.clients.emitTo(client, 'eval:progress', { case: result.case, run: result.run, passed: result.passed }),
        signal: running.signal,
      });
      state.last = evalView(source, outDir, target ? `${target.live.service.name}: ${target.live.service.model}` : null, results);
      return state.last;
    } finally {
      state.running = null;
    }
  }

  /** A run of the last evaluation in this window, its session replayed from its log. */
  async session(client: ClientId, input: EvalSessionInput): Promise<EvalSessionView> {
    const last = this.state(client).last;
    const run = last?.runs.find((r) => r.case === input.case && r.run === input.run);
    if (!last || !run) throw new Error(`The last evaluation in this window has no run ${input.run} of case "${input.case}". Run the evaluation again.`);
    // The case's folder is where evaluate() put it: <dir>/<case>/run-<n>; names come from the case file.
    const runDir = path.join(last.dir, input.case, `run-${input.run}`);
    const record = await readRunRecord(runDir);
    if (!record.sessionId) throw new Error(`Run ${input.run} of "${input.case}" saved no session: it stopped before one began (${record.error ?? 'no reason was saved'}).`);
    const home = path.join(runDir, RUN_FILES.home);
    const loaded = await loadSession(home, record.sessionId, () => ({ ok: true }));
    return {
      case: input.case,
      run: input.run,
      log: sessionFile(home, record.sessionId),
      events: replayEvents(loaded.records, savedToolDisplay),
      problems: loaded.problems.map((problem) => `Line ${problem.line}: ${problem.message}`),
    };
  }

  /** Stops this window's evaluation before its next run (the run under way finishes and is kept). */
  stop(client: ClientId): { stopping: boolean } {
    const running = this.state(client).running;
    running?.abort();
    return { stopping: running !== null };
  }

  /** The Evaluate view's channels. */
  handlers(): Pick<InvokeHandlers, 'eval:pick' | 'eval:run' | 'eval:session' | 'eval:stop'> {
    return {
      'eval:pick': async (client) => this.pick(client),
      'eval:run': async (client, input) => this.run(client, input),
      'eval:session': async (client, input) => this.session(client, input),
      'eval:stop': async (client) => this.stop(client),
    };
  }

  /** The window is gone: its evaluation stops before its next run, so no live service is asked on its behalf. */
  forget(client: ClientId): void {
    this.byClient.get(client)?.running?.abort();
    this.byClient.delete(client);
  }

  private state(client: ClientId): ClientEvaluations {
    this.deps.clients.state(client);
    let state = this.byClient.get(client);
    if (!state) this.byClient.set(client, (state = { picked: null, running: null, last: null }));
    return state;
  }

  /**
   * The service and model this window's session uses (as picked in its window; else the configured default), with
   * its key put where the run's session reads it: the service's own variable, or a variable only the runs see.
   */
  private async liveTarget(client: ClientId): Promise<{ live: LiveTarget; env: NodeJS.ProcessEnv }> {
    const { homeDir, env, secrets, sessions } = this.deps;
    // What the session's next message would use: the person's pick in the header, even one not yet sent with.
    const choice = sessions.ownedBy(client)?.choice.chosen ?? {};
    const { settings, services } = await readSettingsWithServices(homeDir);
    let resolved;
    try {
      resolved = await resolveService(choice, { settings, services, env, storedApiKey: await secrets.getKey(DEFAULT_SERVICE_NAME), storedServiceKey: (name) => secrets.getKey(name) });
    } catch (error) {
      // Said for a message to send; here nothing is sent until the service can be used.
      const why = (error instanceof Error ? error.message : String(error)).replace(/,? then send your message again\.$/, '.');
      throw new Error(`Live cases ask this session's model service, which cannot be used yet: ${why} Then run the evaluation again.`, { cause: error });
    }
    const key = resolved.client.apiKey;
    const service: ServiceConfig = { ...resolved.service, model: resolved.model };
    if (service.name === DEFAULT_SERVICE_NAME) return { live: { service, settings }, env: { ...env, OPENAI_API_KEY: key } };
    const variable = service.apiKeyEnv ?? EVAL_KEY_VARIABLE;
    return { live: { service: { ...service, apiKeyEnv: variable }, settings }, env: { ...env, [variable]: key } };
  }
}

function evalView(source: string, dir: string, service: string | null, results: RunResult[]): EvalView {
  const summary = summarize(results);
  return {
    source,
    dir,
    service,
    passed: summary.passed,
    failed: summary.failed,
    cases: summary.cases.map((c) => ({ case: c.case, live: c.model === 'live', runs: c.runs, passes: c.passes, passed: c.passed, failures: c.failures })),
    runs: results.map((result) => ({
      case: result.case,
      run: result.run,
      passed: result.passed,
      failures: result.checks.filter((c) => !c.passed).map((c) => `${c.subject === undefined ? c.check : `${c.check} ${c.subject}`}: ${c.why ?? 'failed'}`),
      hasSession: result.sessionLog !== null,
    })),
  };
}
