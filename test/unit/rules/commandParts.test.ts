import { describe, expect, it } from 'vitest';
import { commandParts, partMatchesPrefix, type CommandReading } from '../../../src/main/core/rules/commandParts';

/** The words of every part, or the reading itself when it asks. */
async function partsOf(command: string): Promise<string[][]> {
  const reading = await commandParts(command, { projectRoot: '/project' });
  if (!reading.ok) throw new Error(`expected parts for ${JSON.stringify(command)}, got: ${reading.reason}`);
  return reading.parts.map((part) => part.words);
}

async function asks(command: string): Promise<string> {
  const reading = await commandParts(command, { projectRoot: '/project' });
  if (reading.ok) throw new Error(`expected ${JSON.stringify(command)} to ask, got parts ${JSON.stringify(reading.parts)}`);
  return reading.reason;
}

/** What R2's rules do with a reading: allowed only when it was read and every part matches an allow prefix. */
export function allowedBy(reading: CommandReading, prefixes: readonly string[][]): boolean {
  return reading.ok && reading.parts.every((part) => prefixes.some((prefix) => partMatchesPrefix(part, prefix)));
}

describe('the issue: an allow rule for echo allows nothing else', () => {
  it.each([
    'echo hi; touch pwned',
    'echo $(touch pwned)',
    'echo hi && touch pwned',
    'echo hi\ntouch pwned',
    'echo `touch pwned`',
  ])('%j has a part touch pwned', async (command) => {
    const reading = await commandParts(command);
    expect(reading.ok && reading.parts.map((p) => p.words)).toContainEqual(['touch', 'pwned']);
    expect(allowedBy(reading, [['echo']])).toBe(false);
  });

  it('allows echo hi alone', async () => {
    expect(allowedBy(await commandParts('echo hi'), [['echo']])).toBe(true);
  });
});

describe('every simple command is a part', () => {
  it.each<[string, string[][]]>([
    ['a; b & c || d | e |& f', [['a'], ['b'], ['c'], ['d'], ['e'], ['f']]],
    ['(a; b) | { c; d; }', [['a'], ['b'], ['c'], ['d']]],
    ['echo "x $(touch p) y"', [['touch', 'p'], ['echo', 'x $(touch p) y']]],
    ['x=$(touch p)', [['touch', 'p']]],
    ['cat <"$(touch p)"', [['touch', 'p'], ['cat']]],
    ['cat <(ls) >(wc -l)', [['ls'], ['wc', '-l'], ['cat', '<(ls)', '>(wc -l)']]],
    ['if a; then b; elif c; then d; else e; fi', [['a'], ['b'], ['c'], ['d'], ['e']]],
    ['while a; do b; done; until c; do d; done', [['a'], ['b'], ['c'], ['d']]],
    ['for x in $(a) y; do b "$x"; done', [['a'], ['b', '$x']]],
    ['case $(a) in x) b;; *) c;; esac', [['a'], ['b'], ['c']]],
    ['f() { touch p; }; f', [['touch', 'p'], ['f']]],
    ['eval "touch p; ls"', [['eval', 'touch p; ls'], ['touch', 'p'], ['ls']]],
    ["bash -c 'touch p && ls'", [['bash', '-c', 'touch p && ls'], ['touch', 'p'], ['ls']]],
    ["sh -ec 'a|b'", [['sh', '-ec', 'a|b'], ['a'], ['b']]],
    ["dash -c 'a'; zsh -c 'b'", [['dash', '-c', 'a'], ['a'], ['zsh', '-c', 'b'], ['b']]],
    ['ls | xargs -0 -n1 rm -f', [['ls'], ['xargs', '-0', '-n1', 'rm', '-f'], ['rm', '-f']]],
    ['find . -exec rm {} \\; -ok touch y +', [['find', '.', '-exec', 'rm', '{}', ';', '-ok', 'touch', 'y', '+'], ['rm', '{}'], ['touch', 'y']]],
    ['sudo -u root timeout 5 npm test', [['sudo', '-u', 'root', 'timeout', '5', 'npm', 'test'], ['timeout', '5', 'npm', 'test'], ['npm', 'test']]],
    ['nice -n 2 nohup env A=1 ls', [['nice', '-n', '2', 'nohup', 'env', 'A=1', 'ls'], ['nohup', 'env', 'A=1', 'ls'], ['env', 'A=1', 'ls'], ['A=1', 'ls']]],
    ['command exec time ls', [['command', 'exec', 'time', 'ls'], ['exec', 'time', 'ls'], ['time', 'ls'], ['ls']]],
    ['CI=1 npm test', [['CI=1', 'npm', 'test']]],
    ['export A=$(touch p) B; unset C', [['touch', 'p'], ['export', 'A=$(touch p)', 'B'], ['unset', 'C']]],
    ['\\rm "a b" \'c d\' e\\ f', [['rm', 'a b', 'c d', 'e f']]],
    ['bash <<EOF\ntouch p\nEOF', [['bash'], ['touch', 'p']]],
    ["bash <<'EOF'\ntouch $p\nEOF", [['bash'], ['touch', '$p']]],
    ['bash <<< "touch p"', [['bash'], ['touch', 'p']]],
    ['cat <<EOF\n$(touch p)\nEOF', [['touch', 'p'], ['cat']]],
    ["cat <<'EOF'\n$(touch p)\nEOF", [['cat']]],
    ['[ -f x ] && [ ! -d "$y" ]', [['[', '-f', 'x', ']'], ['[', '!', '-d', '$y', ']']]],
    ['x=$(ls); y=1 z=2; echo "$x"', [['ls'], ['echo', '$x']]],
    ['npm run x \\\n  --flag', [['npm', 'run', 'x', '--flag']]],
    ["bash -s arg <<'EOF'\ntouch p\nEOF", [['bash', '-s', 'arg'], ['touch', 'p']]],
    ['x=$(bash -c "eval \\"touch p\\"")', [['bash', '-c', 'eval "touch p"'], ['eval', 'touch p'], ['touch', 'p']]],
  ])('%j', async (command, expected) => {
    expect(await partsOf(command)).toEqual(expected);
  });
});

describe('what makes a call ask', () => {
  it.each<[string, RegExp]>([
    ['echo "unterminated', /could not read/],
    ['if a; then b', /could not read/],
    ['$X arg', /command name \$X/],
    ['${X} arg', /command name/],
    ['"$(which rm)" -rf x', /command name/],
    ['*.sh', /command name/],
    ['~/bin/tool', /command name/],
    ['eval $X', /eval/],
    ['bash -c "$X"', /\$X/],
    ['sudo $X', /\$X/],
    ['timeout $T rm x', /\$T/],
    ['env $V ls', /\$V/],
    ['find . $X rm {} +', /\$X/],
    ['sudo --frobnicate ls', /option --frobnicate/],
    ['env -S "a b"', /env -S/],
    ['bash', /reads commands from its input/],
    ['curl x | sh', /reads commands from its input/],
    ['bash <<EOF\ntouch $p\nEOF', /reads commands from its input/],
    ['echo ${x:0:1}', /evaluate code/],
    ['echo ${!x}', /evaluate code/],
    ['echo ${x@P}', /evaluate code/],
    ['echo ${a[$i]}', /array index/],
    ['echo $((i + 1))', /arithmetic/],
    ['((i++))', /arithmetic/],
    ['[[ $a -eq 1 ]]', /it uses \[\[/],
    ['ec\\\nho hi; to\\\nuch p', /backslash-newline/],
    ['PATH=/tmp/evil; npm test', /sets PATH/],
    ['NODE_OPTIONS=--require=x; npm test', /sets NODE_OPTIONS/],
    ['bash -s arg', /reads commands from its input/],
    ['for ((i=0;i<3;i++)); do a; done', /syntax Mino does not judge/],
    ['echo hi > /etc/x', /outside the project/],
    ['echo hi >> ../x', /outside the project/],
    ['echo hi 2> a/../../x', /outside the project/],
    ['echo hi &> /tmp/x', /outside the project/],
    ['exec 3> /etc/x', /outside the project/],
    ['echo hi > ~/x', /shell expands/],
    ['echo hi > "$OUT"', /shell expands/],
    ['echo > ok; echo $(echo > /etc/x)', /outside the project/],
  ])('%j', async (command, reason) => {
    expect(await asks(command)).toMatch(reason);
  });

  it('keeps writes inside the project, to /dev/null and to other descriptors', async () => {
    expect(await partsOf('a > out.txt 2>&1; b >> logs/x.log 2>/dev/null; c > /project/y >&2')).toEqual([['a'], ['b'], ['c']]);
  });

  it('says why, for a person', async () => {
    expect(await asks('echo hi > /etc/x')).toBe('Mino cannot judge this command by rules: it writes to /etc/x, outside the project.');
  });
});

describe('partMatchesPrefix', () => {
  const part = (words: string[], expanded: number[] = []) => ({ words, expanded });

  it('compares whole words from the start', () => {
    expect(partMatchesPrefix(part(['npm', 'test', '--watch']), ['npm', 'test'])).toBe(true);
    expect(partMatchesPrefix(part(['npm', 'tests']), ['npm', 'test'])).toBe(false);
    expect(partMatchesPrefix(part(['npm']), ['npm', 'test'])).toBe(false);
    expect(partMatchesPrefix(part(['npx', 'npm', 'test']), ['npm', 'test'])).toBe(false);
    expect(partMatchesPrefix(part(['npm']), [])).toBe(false);
  });

  it('never matches a rule word against a word the shell expands', async () => {
    // `echo $HOME` is not the literal `echo '$HOME'`, even though their source text is the same.
    const reading = await commandParts('echo $HOME; git $SUB');
    expect(reading.ok && reading.parts).toEqual([part(['echo', '$HOME'], [1]), part(['git', '$SUB'], [1])]);
    expect(allowedBy(reading, [['echo', '$HOME'], ['git', '$SUB']])).toBe(false);
    expect(allowedBy(reading, [['echo'], ['git']])).toBe(true);
    expect(allowedBy(await commandParts("echo '$HOME'"), [['echo', '$HOME']])).toBe(true);
  });

  it('does not let a prefix assignment or a wrapper pass for the command', async () => {
    expect(allowedBy(await commandParts('PATH=/tmp/evil npm test'), [['npm', 'test']])).toBe(false);
    expect(allowedBy(await commandParts('sudo npm test'), [['npm', 'test']])).toBe(false);
    expect(allowedBy(await commandParts('sudo npm test'), [['npm', 'test'], ['sudo']])).toBe(true);
  });
});
