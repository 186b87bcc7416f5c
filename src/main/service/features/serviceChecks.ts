// Which services passed Test connection as they are configured now, kept in
// ~/.mino/services-tested.json so a local service that needs no key (Ollama,
// LM Studio) stays "working" after a restart. A pass is for the protocol,
// base URL and model it was made with: an edit makes the service untested.
// The file holds no secret; a damaged one is read as "nothing tested".
import * as path from 'node:path';
import { z } from 'zod';
import { ensureMinoHome, minoPaths, writePrivateFile } from '../../core/config/minoHome';
import { KiB, readPrivateText } from '../../core/config/readPrivateFile';
import { errorText, log } from '../../core/log/log';
import type { ServiceConfig } from '../../../shared/modelServices';

const PassSchema = z.object({ protocol: z.string(), baseUrl: z.string(), model: z.string() });
const ChecksFileSchema = z.record(z.string(), PassSchema);
type Pass = z.infer<typeof PassSchema>;

export class ServiceChecks {
  private readonly file: string;

  constructor(private readonly homeDir: string) {
    this.file = path.join(minoPaths(homeDir).root, 'services-tested.json');
  }

  /** Whether `service`, as configured now, passed a test. */
  async passed(service: ServiceConfig): Promise<boolean> {
    const pass = (await this.read())[service.name];
    return pass !== undefined && samePass(pass, service);
  }

  /** Notes the outcome of a test of `service`: a pass is kept, a failure forgets an earlier pass. */
  async record(service: ServiceConfig, ok: boolean): Promise<void> {
    const passes = await this.read();
    if (ok) passes[service.name] = { protocol: service.protocol, baseUrl: service.baseUrl, model: service.model };
    else if (passes[service.name] === undefined) return;
    else delete passes[service.name];
    await this.write(passes);
  }

  async forget(name: string): Promise<void> {
    const passes = await this.read();
    if (passes[name] === undefined) return;
    delete passes[name];
    await this.write(passes);
  }

  private async read(): Promise<Record<string, Pass>> {
    try {
      const text = await readPrivateText(this.file, 64 * KiB);
      return text === null ? {} : ChecksFileSchema.parse(JSON.parse(text));
    } catch (error) {
      // A damaged note only means the services must be tested again.
      log.warn('services.checks_unreadable', { file: this.file, error: errorText(error) });
      return {};
    }
  }

  private async write(passes: Record<string, Pass>): Promise<void> {
    await ensureMinoHome(this.homeDir);
    await writePrivateFile(this.file, `${JSON.stringify(passes, null, 2)}\n`);
  }
}

function samePass(pass: Pass, service: ServiceConfig): boolean {
  return pass.protocol === service.protocol && pass.baseUrl === service.baseUrl && pass.model === service.model;
}
