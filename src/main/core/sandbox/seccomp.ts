// The seccomp filter every bwrap-sandboxed command runs under: it refuses to
// create a Unix (AF_UNIX) socket. A network namespace cuts the network, but a
// path socket is reached through the file system, and one can sit where the
// command may look (an allowed home folder, the project, /etc): the Docker
// socket, a D-Bus bus, an agent. socketpair() stays allowed, so pipes between
// processes (Node's child IPC, Python's multiprocessing) keep working: an
// unconnected pair reaches nothing outside.
//
// The filter is classic BPF, built here rather than through libseccomp (a
// native dependency for a dozen instructions). bwrap loads it from a
// descriptor (`--seccomp FD`): see openSeccompFilter.
import type { FileHandle } from 'node:fs/promises';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadOnce } from '../../../shared/loadOnce';

/** `seccomp_data.arch` values (linux/audit.h). */
export const AUDIT_ARCH = { X86_64: 0xc000003e, I386: 0x40000003, AARCH64: 0xc00000b7 } as const;

/** On x86_64, a system call number with this bit set is one of the x32 ABI, which has its own numbers: all refused. */
export const X32_SYSCALL_BIT = 0x40000000;
export const AF_UNIX = 1;
/** socketcall(2)'s first argument for socket(). */
export const SYS_SOCKET = 1;
export const EPERM = 1;

export const SECCOMP_RET = { KILL_PROCESS: 0x80000000, ERRNO: 0x00050000, ALLOW: 0x7fff0000 } as const;

/** Classic BPF opcodes the filter uses. */
export const BPF = { LD_W_ABS: 0x20, JEQ_K: 0x15, JSET_K: 0x45, RET_K: 0x06 } as const;

/** Offsets into struct seccomp_data; args[0]'s low 32 bits on a little-endian machine (the only kind the filter is built for). */
export const SECCOMP_DATA = { NR: 0, ARCH: 4, ARG0_LOW: 16 } as const;

/** What to refuse for one architecture a process on this machine may run as. */
interface ArchRules {
  arch: number;
  /** The socket(2) call, refused when its domain is AF_UNIX. */
  socket: number;
  /** socketcall(2) (i386): its real arguments sit behind a pointer the filter cannot read, so every socket() through it is refused. */
  socketcall?: number;
  /** Any call whose number has these bits set is refused (x32 on x86_64). */
  refuseBits?: number;
}

/**
 * The architectures system calls can arrive as, by Node's process.arch: a
 * 64-bit x86 kernel also runs i386 and x32 programs. A call from any other
 * architecture kills the process.
 */
const RULES: Readonly<Record<string, readonly ArchRules[]>> = {
  x64: [
    { arch: AUDIT_ARCH.X86_64, socket: 41, refuseBits: X32_SYSCALL_BIT },
    { arch: AUDIT_ARCH.I386, socket: 359, socketcall: 102 },
  ],
  arm64: [{ arch: AUDIT_ARCH.AARCH64, socket: 198 }],
};

export class UnsupportedArchitectureError extends Error {
  constructor(arch: string) {
    super(
      `Mino has no seccomp filter for this processor (${arch}; it knows x64 and arm64), without which a sandboxed command ` +
        "could reach this machine's services through their Unix sockets, so it does not start sandboxed commands here",
    );
    this.name = 'UnsupportedArchitectureError';
  }
}

type Target = 'next' | 'allow' | 'refuse' | 'kill' | `arch${number}` | `arg${number}` | `call${number}`;
type Step =
  | { label: Target }
  | { load: number }
  | { ret: number }
  | { jump: 'eq' | 'set'; k: number; yes: Target; no: Target };

/** The filter for a machine whose Node reports `arch` (process.arch), as the bytes bwrap reads. */
export function seccompProgram(arch: string = process.arch, endianness: 'LE' | 'BE' = os.endianness()): Buffer {
  const rules = RULES[arch];
  if (rules === undefined || endianness !== 'LE') throw new UnsupportedArchitectureError(arch);
  const steps: Step[] = [{ load: SECCOMP_DATA.ARCH }];
  rules.forEach((rule, i) => {
    const otherArch: Target = i + 1 < rules.length ? `arch${i + 1}` : 'kill';
    steps.push({ label: `arch${i}` }, { jump: 'eq', k: rule.arch, yes: 'next', no: otherArch }, { load: SECCOMP_DATA.NR });
    if (rule.refuseBits !== undefined) steps.push({ jump: 'set', k: rule.refuseBits, yes: 'refuse', no: 'next' });
    steps.push({ jump: 'eq', k: rule.socket, yes: `arg${i}`, no: rule.socketcall === undefined ? 'allow' : 'next' });
    if (rule.socketcall !== undefined) steps.push({ jump: 'eq', k: rule.socketcall, yes: `call${i}`, no: 'allow' });
    steps.push({ label: `arg${i}` }, { load: SECCOMP_DATA.ARG0_LOW }, { jump: 'eq', k: AF_UNIX, yes: 'refuse', no: 'allow' });
    if (rule.socketcall !== undefined) {
      steps.push({ label: `call${i}` }, { load: SECCOMP_DATA.ARG0_LOW }, { jump: 'eq', k: SYS_SOCKET, yes: 'refuse', no: 'allow' });
    }
  });
  steps.push(
    { label: 'kill' }, { ret: SECCOMP_RET.KILL_PROCESS },
    { label: 'allow' }, { ret: SECCOMP_RET.ALLOW },
    { label: 'refuse' }, { ret: SECCOMP_RET.ERRNO | EPERM },
  );
  return assemble(steps);
}

/** struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; } per instruction; jumps are forward offsets from the next one. */
function assemble(steps: readonly Step[]): Buffer {
  const at = new Map<Target, number>();
  let count = 0;
  for (const step of steps) {
    if ('label' in step) at.set(step.label, count);
    else count += 1;
  }
  const out = Buffer.alloc(count * 8);
  let pc = 0;
  const offset = (target: Target): number => {
    if (target === 'next') return 0;
    const distance = at.get(target)! - (pc + 1);
    if (!(distance >= 0 && distance <= 255)) throw new Error(`seccomp filter: no forward jump of ${distance} to ${target}`);
    return distance;
  };
  for (const step of steps) {
    if ('label' in step) continue;
    const [code, jt, jf, k] =
      'load' in step ? [BPF.LD_W_ABS, 0, 0, step.load]
      : 'ret' in step ? [BPF.RET_K, 0, 0, step.ret]
      : [step.jump === 'eq' ? BPF.JEQ_K : BPF.JSET_K, offset(step.yes), offset(step.no), step.k];
    out.writeUInt16LE(code, pc * 8);
    out.writeUInt8(jt, pc * 8 + 2);
    out.writeUInt8(jf, pc * 8 + 3);
    out.writeUInt32LE(k >>> 0, pc * 8 + 4);
    pc += 1;
  }
  return out;
}

// Written once per process; a failed write is forgotten: the launch that asked reports it, the next one tries again.
const hiddenFilter = loadOnce(() => writeUnnamed(seccompProgram()));

/**
 * A descriptor from which bwrap reads the filter, opened afresh for each
 * command (bwrap reads to the end, so each needs its own offset); the caller
 * closes it once the command has started. The bytes are written once per
 * Mino process into a private (0700) temp folder, opened and deleted at once:
 * what stays is a file no path leads to, reopened through /proc/self/fd, so
 * nothing is left behind and nothing else can change it.
 */
export async function openSeccompFilter(): Promise<FileHandle> {
  const holder = await hiddenFilter();
  return fs.open(`/proc/self/fd/${holder.fd}`, 'r');
}

async function writeUnnamed(program: Buffer): Promise<FileHandle> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mino-seccomp-'));
  try {
    const file = path.join(dir, 'filter.bpf');
    await fs.writeFile(file, program, { mode: 0o600, flag: 'wx' });
    return await fs.open(file, 'r');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
