// The seccomp filter's bytes, run through a small classic-BPF interpreter that
// does what the kernel does with them: load a word of seccomp_data, compare,
// jump forward, return a verdict. The real kernel runs them in
// test/integration/sandbox/view.test.ts.
import * as fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  AF_UNIX,
  AUDIT_ARCH,
  BPF,
  EPERM,
  openSeccompFilter,
  SECCOMP_DATA,
  SECCOMP_RET,
  seccompProgram,
  SYS_SOCKET,
  UnsupportedArchitectureError,
  X32_SYSCALL_BIT,
} from '../../../src/main/core/sandbox/seccomp';

interface Call {
  arch: number;
  nr: number;
  arg0?: number;
}

/** Runs a filter on one call as the kernel would; throws on anything the filter must never do (a backward jump, running off the end). */
function run(program: Buffer, call: Call): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr, SECCOMP_DATA.NR);
  data.writeUInt32LE(call.arch, SECCOMP_DATA.ARCH);
  data.writeBigUInt64LE(BigInt(call.arg0 ?? 0), SECCOMP_DATA.ARG0_LOW);
  let accumulator = 0;
  for (let pc = 0; pc < program.length / 8; ) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case BPF.LD_W_ABS:
        accumulator = data.readUInt32LE(k);
        pc += 1;
        break;
      case BPF.JEQ_K:
        pc += 1 + (accumulator === k ? jt : jf);
        break;
      case BPF.JSET_K:
        pc += 1 + ((accumulator & k) !== 0 ? jt : jf);
        break;
      case BPF.RET_K:
        return k;
      default:
        throw new Error(`unknown opcode ${code}`);
    }
  }
  throw new Error('the filter ran off its end');
}

const ALLOW = SECCOMP_RET.ALLOW;
const REFUSE = (SECCOMP_RET.ERRNO | EPERM) >>> 0;
const KILL = SECCOMP_RET.KILL_PROCESS;
const AF_INET = 2;
const AF_NETLINK = 16;

describe('the seccomp filter on x86_64', () => {
  const program = seccompProgram('x64', 'LE');

  it.each([
    ['socket(AF_UNIX)', { arch: AUDIT_ARCH.X86_64, nr: 41, arg0: AF_UNIX }, REFUSE],
    ['socket(AF_UNIX) with junk in the upper half of the argument', { arch: AUDIT_ARCH.X86_64, nr: 41, arg0: 0x1_0000_0001 }, REFUSE],
    ['socket(AF_INET)', { arch: AUDIT_ARCH.X86_64, nr: 41, arg0: AF_INET }, ALLOW],
    ['socket(AF_NETLINK)', { arch: AUDIT_ARCH.X86_64, nr: 41, arg0: AF_NETLINK }, ALLOW],
    ['socketpair(AF_UNIX)', { arch: AUDIT_ARCH.X86_64, nr: 53, arg0: AF_UNIX }, ALLOW],
    ['connect', { arch: AUDIT_ARCH.X86_64, nr: 42, arg0: 3 }, ALLOW],
    ['read', { arch: AUDIT_ARCH.X86_64, nr: 0, arg0: AF_UNIX }, ALLOW],
    ['an x32 socket(AF_UNIX)', { arch: AUDIT_ARCH.X86_64, nr: X32_SYSCALL_BIT | 41, arg0: AF_UNIX }, REFUSE],
    ['any x32 call (x32 write)', { arch: AUDIT_ARCH.X86_64, nr: X32_SYSCALL_BIT | 1, arg0: 1 }, REFUSE],
    ['i386 socket(AF_UNIX)', { arch: AUDIT_ARCH.I386, nr: 359, arg0: AF_UNIX }, REFUSE],
    ['i386 socket(AF_INET)', { arch: AUDIT_ARCH.I386, nr: 359, arg0: AF_INET }, ALLOW],
    ['i386 socketcall(SYS_SOCKET, ...), whose family it cannot read', { arch: AUDIT_ARCH.I386, nr: 102, arg0: SYS_SOCKET }, REFUSE],
    ['i386 socketcall(SYS_SOCKETPAIR, ...)', { arch: AUDIT_ARCH.I386, nr: 102, arg0: 8 }, ALLOW],
    ['i386 socketcall(SYS_CONNECT, ...)', { arch: AUDIT_ARCH.I386, nr: 102, arg0: 3 }, ALLOW],
    ['i386 call 41 (dup, not socket)', { arch: AUDIT_ARCH.I386, nr: 41, arg0: AF_UNIX }, ALLOW],
    ['an aarch64 call, which cannot come from this machine', { arch: AUDIT_ARCH.AARCH64, nr: 198, arg0: AF_INET }, KILL],
    ['an unknown architecture', { arch: 0x12345678, nr: 0 }, KILL],
  ] as const)('%s', (_name, call, verdict) => {
    expect(run(program, call)).toBe(verdict);
  });
});

describe('the seccomp filter on aarch64', () => {
  const program = seccompProgram('arm64', 'LE');

  it.each([
    ['socket(AF_UNIX)', { arch: AUDIT_ARCH.AARCH64, nr: 198, arg0: AF_UNIX }, REFUSE],
    ['socket(AF_INET)', { arch: AUDIT_ARCH.AARCH64, nr: 198, arg0: AF_INET }, ALLOW],
    ['socketpair(AF_UNIX)', { arch: AUDIT_ARCH.AARCH64, nr: 199, arg0: AF_UNIX }, ALLOW],
    ['call 41 (not socket here)', { arch: AUDIT_ARCH.AARCH64, nr: 41, arg0: AF_UNIX }, ALLOW],
    ['an x86_64 call', { arch: AUDIT_ARCH.X86_64, nr: 41, arg0: AF_UNIX }, KILL],
  ] as const)('%s', (_name, call, verdict) => {
    expect(run(program, call)).toBe(verdict);
  });
});

describe('a machine the filter does not know', () => {
  it('gets no filter, with a reason that says the command is not sandboxed', () => {
    for (const [arch, endianness] of [['riscv64', 'LE'], ['ppc64', 'BE'], ['x64', 'BE']] as const) {
      expect(() => seccompProgram(arch, endianness)).toThrow(UnsupportedArchitectureError);
    }
    expect(() => seccompProgram('riscv64', 'LE')).toThrow(/no seccomp filter for this processor \(riscv64; it knows x64 and arm64\)/);
  });
});

describe.skipIf(!['x64', 'arm64'].includes(process.arch) || process.platform !== 'linux')('the descriptor bwrap reads the filter from', () => {
  it('reads the whole filter from the start each time it is opened, from a file no path leads to', async () => {
    const first = await openSeccompFilter();
    const second = await openSeccompFilter();
    try {
      const expected = seccompProgram();
      expect(await first.readFile()).toEqual(expected);
      expect(await second.readFile()).toEqual(expected);
      expect(await fs.readlink(`/proc/self/fd/${first.fd}`)).toMatch(/ \(deleted\)$/);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
