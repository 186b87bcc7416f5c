// The launcher's order: Electron's installer, then (Linux) the sandbox check,
// then electron-vite; each step that fails stops the ones after it.
import { describe, expect, it } from 'vitest';
import { launch } from '../../../scripts/launch.mjs';

function recorder(options: { installs?: boolean; problem?: string[] | null; platform?: NodeJS.Platform; args?: string[]; mode?: string }) {
  const steps: string[] = [];
  const printed: string[] = [];
  const deps = {
    mode: options.mode ?? 'preview',
    electronArgs: options.args ?? [],
    platform: options.platform ?? ('linux' as NodeJS.Platform),
    installElectron: () => {
      steps.push('install');
      return { ok: options.installs ?? true };
    },
    diagnose: () => {
      steps.push('diagnose');
      return options.problem ? { lines: options.problem } : null;
    },
    startElectronVite: async (mode: string, args: string[]) => {
      steps.push(`electron-vite ${mode} ${args.join(' ')}`.trim());
      return 0;
    },
    print: (line: string) => printed.push(line),
  };
  return { deps, steps, printed };
}

describe('launch', () => {
  it('installs Electron, checks the sandbox, then starts electron-vite with the switches', async () => {
    const { deps, steps } = recorder({ args: ['--password-store=kwallet6'] });
    expect(await launch(deps)).toBe(0);
    expect(steps).toEqual(['install', 'diagnose', 'electron-vite preview --password-store=kwallet6']);
  });

  it('stops after a failed install, saying what to do', async () => {
    const { deps, steps, printed } = recorder({ installs: false, mode: 'dev' });
    expect(await launch(deps)).toBe(1);
    expect(steps).toEqual(['install']);
    expect(printed.join('\n')).toMatch(/could not install Electron's binary[\s\S]*run the command again/);
  });

  it('stops before Electron when the sandbox cannot start, printing the diagnosis', async () => {
    const { deps, steps, printed } = recorder({ problem: ['AppArmor blocks it', 'do this'] });
    expect(await launch(deps)).toBe(1);
    expect(steps).toEqual(['install', 'diagnose']);
    expect(printed).toEqual(['AppArmor blocks it', 'do this']);
  });

  it('skips the check with --no-sandbox, and says what that costs', async () => {
    const { deps, steps, printed } = recorder({ problem: ['never shown'], args: ['--no-sandbox'] });
    expect(await launch(deps)).toBe(0);
    expect(steps).toEqual(['install', 'electron-vite preview --no-sandbox']);
    expect(printed.join('\n')).toMatch(/without Chromium's sandbox[\s\S]*rights/);
  });

  it('checks the Chromium sandbox on Linux only', async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const { deps, steps } = recorder({ platform, problem: ['linux only'] });
      expect(await launch(deps)).toBe(0);
      expect(steps).toEqual(['install', 'electron-vite preview']);
    }
  });

  it('refuses an unknown mode before installing anything', async () => {
    const { deps, steps, printed } = recorder({ mode: 'build' });
    expect(await launch(deps)).toBe(2);
    expect(steps).toEqual([]);
    expect(printed[0]).toMatch(/usage: node scripts\/launch\.mjs <preview\|dev>/);
  });
});
