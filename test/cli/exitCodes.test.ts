/**
 * The exit codes of spec 4 ("Exit codes"), through the real command run as
 * a process: 0 ok, 1 an expectation or validation failed, 2 bad usage or an
 * error in the input, reported with file:line:column and nothing simulated
 * (no trace on stdout). Each case of issue 13 §1 is a row.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runBin } from '../helpers/binRun';

const EXAMPLE = 'examples/one-node-stops.yaml';
const F = 'test/fixtures/cli';

interface Case {
  name: string;
  argv: string[];
  code: number;
  /** on stderr */
  err?: RegExp;
  /** on stdout; `null`: stdout is empty (nothing was simulated) */
  out?: RegExp | null;
  /** never on stderr */
  notErr?: RegExp;
}

const cases: Case[] = [
  {
    name: 'replay of a file that does not exist is exit 2',
    argv: ['replay', 'no/such/file.yaml'],
    code: 2,
    err: /cannot read no\/such\/file\.yaml: no such file or folder/,
    out: null,
  },
  {
    name: 'replay of a scenario whose snapshot does not exist is exit 2 at the snapshot: line, with no simulation',
    argv: ['replay', `${F}/missing-snapshot.yaml`],
    code: 2,
    err: /missing-snapshot\.yaml:7:11: error file-not-found: snapshot "\.\/clusters\/no-such-cluster\.yaml" not found[\s\S]*nothing was simulated/,
    out: null,
  },
  {
    name: 'replay package.json is exit 2: it is not a snapshot, and the message says what it looks like',
    argv: ['replay', 'package.json'],
    code: 2,
    err: /package\.json:1:1: error not-kubernetes: package\.json looks like a mapping without apiVersion and kind[\s\S]*expected Kubernetes objects/,
    out: null,
  },
  {
    // the README shows a scenario in a code fence: it was read as a broken scenario (77 errors, paragraphs as unknown fields)
    name: 'replay of a Markdown file (the README) is exit 2 with one message that names it as Markdown, and no start-time warning',
    argv: ['replay', 'README.md'],
    code: 2,
    err: /^README\.md:1:1: error not-kubernetes: README\.md looks like a Markdown document[^\n]*\ncontroller-stepper: README\.md: 1 error\(s\) in the input; nothing was simulated\n$/,
    notErr: /no-start-time|unknown-field|yaml-syntax/,
    out: null,
  },
  {
    name: "replay's input errors are listed in the file's order, whatever phase found them, and a kind run together with its verb is named",
    argv: ['replay', `${F}/errors-out-of-order.yaml`],
    code: 2,
    err: /^[^\n]*:5:1: error unknown-field: unknown field "name"[^\n]*metadata: \{name[^\n]*\n[^\n]*:6:11: error file-not-found[^\n]*\n[^\n]*:7:1: error unknown-field: unknown field "settings"[^\n]*controllerManager:[^\n]*\n[^\n]*:11:5: error missing-event-kind: event 1: says nothing happens \(unknown field "kubeletStops"\)[^\n]*did you mean kubelet\?\)\n/,
    out: null,
  },
  {
    name: 'replay --set with an unknown setting is exit 2, not a run with a warning',
    argv: ['replay', EXAMPLE, '--set', 'foo=bar'],
    code: 2,
    err: /error unknown-setting: unknown controllerManager setting --set foo/,
    out: null,
  },
  {
    name: 'replay --set with a value that is not a duration is exit 2',
    argv: ['replay', EXAMPLE, '--set', 'nodeMonitorGracePeriod=abc'],
    code: 2,
    err: /error bad-duration: --set nodeMonitorGracePeriod: "abc" is not a duration/,
    out: null,
  },
  {
    name: 'replay --version outside 1.12–1.37 is exit 2',
    argv: ['replay', EXAMPLE, '--version', '1.99'],
    code: 2,
    err: /error unknown-version: --version "1\.99" is not a supported version \(1\.12 to 1\.37\)/,
    out: null,
  },
  {
    name: 'replay --version 1.38, the release after the newest, is exit 2',
    argv: ['replay', EXAMPLE, '--version', '1.38'],
    code: 2,
    err: /error unknown-version: --version "1\.38" is not a supported version \(1\.12 to 1\.37\)/,
    out: null,
  },
  {
    name: 'replay of a scenario with an ill-typed and a misspelt setting is exit 2 at both lines',
    argv: ['replay', `${F}/bad-setting.yaml`],
    code: 2,
    err: /bad-setting\.yaml:8:3: error bad-duration[\s\S]*bad-setting\.yaml:9:3: error unknown-setting: .*did you mean nodeMonitorPeriod/,
    out: null,
  },
  {
    name: 'replay with an unknown option is exit 2 with the usage',
    argv: ['replay', EXAMPLE, '--untill', '5m'],
    code: 2,
    err: /unknown option --untill \(did you mean --until\?\)[\s\S]*Usage/,
    out: null,
  },
  {
    name: 'test of a scenario whose snapshot does not exist is exit 2, not "1 passed"',
    argv: ['test', `${F}/missing-snapshot.yaml`],
    code: 2,
    err: /missing-snapshot\.yaml:7:11: error file-not-found[\s\S]*nothing was run/,
    out: null,
  },
  {
    name: 'test with deleted: yes is exit 2 at the value, and the other expectations are not run',
    argv: ['test', `${F}/expect-not-boolean.yaml`],
    code: 2,
    err: /expect-not-boolean\.yaml:9:54: error wrong-type: expected deleted as true or false, found the string "yes"/,
    out: null,
  },
  {
    name: 'test with a misspelt key hasTaints: is exit 2 at the key, with the key it meant',
    argv: ['test', `${F}/expect-misspelt-key.yaml`],
    code: 2,
    err: /expect-misspelt-key\.yaml:11:5: error unknown-field: unknown field "hasTaints" in expectation 2 \(did you mean hasTaint\?\)/,
    out: null,
  },
  {
    name: 'test of a folder is exit 2 and says to give the scenario files, first (no warnings about the snapshot before it)',
    argv: ['test', 'examples/'],
    code: 2,
    err: /^controller-stepper: examples\/: a snapshot, not a scenario: only a scenario's expect: entries are tested \(for the scenarios in a folder, give their files, e.g\. examples\/\*\.yaml\)\n[\s\S]*nothing was run/,
    out: null,
  },
  {
    name: 'test of a good and a broken file is exit 2 and runs neither',
    argv: ['test', EXAMPLE, `${F}/expect-not-boolean.yaml`],
    code: 2,
    err: /1 of 2 file\(s\) cannot be tested; nothing was run/,
    out: null,
  },
  {
    name: 'test with deleted: true for a pod that never existed fails (exit 1) and says it never existed',
    argv: ['test', `${F}/expect-never-existed.yaml`],
    code: 1,
    out: /FAIL .*Pod\/default\/toleration-unsett[\s\S]*never existed: it is not in the snapshot and no event or controller created it[\s\S]*\n1 passed, 1 failed\n$/,
  },
  {
    name: 'test of an expectation that is too early fails (exit 1) with what was found and the command that says why not',
    argv: ['test', `${F}/expect-too-early.yaml`],
    code: 1,
    out: / {2}FAIL {2}at \+2m09s \(2026-01-01T00:02:09\.000Z\): Pod\/default\/toleration-sixty is deleted\n {8}found: it exists on node-a1 {2}\(test\/fixtures\/cli\/expect-too-early\.yaml:11:5\)\n {8}why: {3}controller-stepper explain test\/fixtures\/cli\/expect-too-early\.yaml --object Pod\/default\/toleration-sixty --until 2026-01-01T00:02:09\.000Z\n0 passed, 1 failed\n$/,
  },
  { name: 'test of a passing scenario is exit 0 and ends with the plain summary line', argv: ['test', EXAMPLE], code: 0, out: /\n\d+ passed, 0 failed\n$/ },
  {
    name: 'validate of a scenario with an invalid expectation is exit 1 at the same place',
    argv: ['validate', `${F}/expect-not-boolean.yaml`],
    code: 1,
    err: /expect-not-boolean\.yaml:9:54: error wrong-type/,
  },
  // validate said "0 error(s)" for what replay refuses (exit 2, nothing to simulate): an empty export, an empty
  // List (kubectl get in an empty namespace), objects of no kind the controllers read
  ...['empty-export.yaml', 'empty-list.yaml', 'configmap-only.yaml'].map((file) => ({
    name: `validate of ${file}, which replay refuses, is exit 1 with an error that says there is nothing to simulate`,
    argv: ['validate', `${F}/${file}`],
    code: 1,
    err: new RegExp(
      `${file.replace('.', '\\.')}:1:1: error nothing-to-simulate: [^\\n]*holds no Node, Pod, ReplicaSet, DaemonSet or Lease: nothing to simulate`,
    ),
  })),
  {
    name: 'validate names an expectation about an object nothing creates, as a warning (exit 0)',
    argv: ['validate', `${F}/expect-never-existed.yaml`],
    code: 0,
    err: /expect-never-existed\.yaml:12:19: warning unknown-pod: .*no Pod\/default\/toleration-unsett in the snapshot, nor created by an event.*did you mean Pod\/default\/toleration-unset/,
  },
  {
    name: 'explain of an object that never existed (a typo) is exit 2, says so on stderr with the name it meant, and prints nothing',
    argv: ['explain', EXAMPLE, '--object', 'Pod/default/web-7d9f-6wlhx'],
    code: 2,
    err: /^explain: Pod\/default\/web-7d9f-6wlhx never existed up to \+30m00s: it is not in the snapshot and nothing in the timeline created it \(did you mean Pod\/default\/web-7d9f-6wlhb\?\)\n$/,
    out: null,
  },
  {
    name: 'explain of a node that never existed is exit 2 with the closest node',
    argv: ['explain', EXAMPLE, '--object', 'Node/node-a9', '--format', 'json'],
    code: 2,
    err: /Node\/node-a9 never existed up to \+30m00s.*\(did you mean Node\/node-a1\?\)/,
    out: null,
  },
  {
    name: 'explain of an object that exists is exit 0',
    argv: ['explain', EXAMPLE, '--object', 'Pod/default/web-7d9f-6wlhb'],
    code: 0,
    out: /^Pod\/default\/web-7d9f-6wlhb/,
  },
  { name: 'replay of a good scenario is exit 0', argv: ['replay', EXAMPLE, '--until', '2m'], code: 0, out: /TaintAdded/ },
  { name: 'replay --version 1.37, the newest, is exit 0', argv: ['replay', EXAMPLE, '--until', '2m', '--version', '1.37'], code: 0, out: /TaintAdded/ },
  {
    name: "version prints the tool's version and the Kubernetes versions it simulates, exit 0",
    argv: ['version'],
    code: 0,
    out: /^controller-stepper \d+\.\d+\.\d+\nsimulates kube-controller-manager 1\.12 to 1\.37\n$/,
  },
  {
    name: "--version alone prints the tool's version, as the version command does",
    argv: ['--version'],
    code: 0,
    out: /^controller-stepper \d+\.\d+\.\d+\nsimulates kube-controller-manager 1\.12 to 1\.37\n$/,
  },
  {
    name: '--version without a value after a command is bad usage',
    argv: ['replay', EXAMPLE, '--version'],
    code: 2,
    err: /--version needs a value/,
    out: null,
  },
  { name: '--help goes to stdout with exit 0', argv: ['--help'], code: 0, out: /^Usage:/ },
  { name: "a command's --help goes to stdout with exit 0", argv: ['replay', '--help'], code: 0, out: /^Usage:/ },
  { name: 'no command at all is bad usage: the usage on stderr, exit 2', argv: [], code: 2, err: /^Usage:/, out: null },
];

for (const c of cases) {
  test(c.name, () => {
    const r = runBin(c.argv);
    assert.equal(r.code, c.code, `exit code\n--- stdout\n${r.out.slice(0, 2000)}\n--- stderr\n${r.err}`);
    if (c.err) assert.match(r.err, c.err);
    if (c.notErr) assert.doesNotMatch(r.err, c.notErr);
    if (c.out === null) assert.equal(r.out, '', 'nothing is printed on stdout');
    else if (c.out) assert.match(r.out, c.out);
    assert.doesNotMatch(r.err, /\n\s+at .*\(.*:\d+:\d+\)/, 'no stack trace');
  });
}

test("a failed expectation's why line is a command that runs and names the time the deletion would come", () => {
  const failed = runBin(['test', `${F}/expect-too-early.yaml`]);
  const why = / {8}why: {3}controller-stepper (.*)\n/.exec(failed.out);
  assert.ok(why, failed.out);
  // the words as a shell would split them: the fixture's path and the ref need no quotes
  const r = runBin(why[1].split(' '));
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Why not \(yet\):\n.*toleration has not run out yet.*would fire at \+2m10s/);
});

test('the why line repeats the flags that made the run (--set, --version): the explanation is of the same simulation', () => {
  // with a 50 s grace the taint, and so the eviction 60 s after it, comes 10 s later: 2m20s, not 2m10s
  const failed = runBin(['test', `${F}/expect-too-early.yaml`, '--set', 'nodeMonitorGracePeriod=50s', '--version', '1.31']);
  const why = / {8}why: {3}controller-stepper (.*)\n/.exec(failed.out);
  assert.ok(why, failed.out);
  assert.match(why[1], / --version 1\.31 --set nodeMonitorGracePeriod=50s$/);
  const r = runBin(why[1].split(' '));
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Why not \(yet\):\n.*would fire at \+2m20s/);
});
