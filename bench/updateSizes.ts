/**
 * The sizes of the messages the panel is sent (JSON characters, as VS Code's postMessage serialises them), not their
 * times: the open's update, each step's update, and the node filter's answers to the keystrokes the webview bench
 * types. The Session alone, with no page: its node window is the open's first rows, as a panel that did not scroll.
 *
 *   node --import tsx bench/updateSizes.ts SCENARIO [--root CHECKOUT] [--steps 24]
 *
 * --root measures another checkout's Session (its src/ is imported), e.g. a worktree of main for A/B.
 */
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const scenario = resolve(args[0] ?? '');
const root = resolve(opt('--root') ?? join(__dirname, '..'));
const steps = Number(opt('--steps') ?? 24);

type Sent = { type: string; text: string };

async function main(): Promise<void> {
  const { openScenario } = (await import(join(root, 'src/extension/openScenario.ts'))) as typeof import('../src/extension/openScenario');
  const { Session } = (await import(join(root, 'src/extension/session.ts'))) as typeof import('../src/extension/session');
  const sent: Sent[] = [];
  const o = openScenario(scenario, '');
  const session = new Session({
    make: o.make,
    options: o.options,
    settings: { collapseNoise: true, playSpeed: 2 },
    post: (m) => sent.push({ type: m.type, text: JSON.stringify(m) }),
  });
  const kib = (n: number) => (n / 1024).toFixed(1);
  const part = (text: string, key: string) => JSON.stringify((JSON.parse(text) as Record<string, unknown>)[key] ?? null).length;
  const sizes = (m: Sent) => `${kib(m.text.length)} KiB (podCounts ${kib(part(m.text, 'podCounts'))}, nodes ${kib(part(m.text, 'nodes'))})`;
  session.sendAll();
  session.handle({ type: 'painted' }, { play() {}, pause() {} });
  console.log(`open's update ${sizes(sent.find((m) => m.type === 'update')!)}`);
  for (let i = 0; i < steps; i++) {
    sent.length = 0;
    session.step();
    for (const m of sent.filter((x) => x.type === 'update')) console.log(`pass ${(JSON.parse(m.text) as { pass: number }).pass}: ${sizes(m)}`);
  }
  // the webview bench's keystrokes: u n k n, four Backspaces, z, Backspace
  for (const text of ['u', 'un', 'unk', 'unkn', 'unk', 'un', 'u', '', 'z', '']) {
    sent.length = 0;
    session.nodeFilter(text);
    const m = sent.find((x) => x.type === 'nodes');
    if (!m) continue;
    const n = JSON.parse(m.text) as { keys?: string[]; mask?: string };
    console.log(
      `filter "${text}": ${kib(m.text.length)} KiB (keys ${n.keys?.length ?? '-'}, mask ${n.mask?.length ?? '-'}, podCounts ${kib(part(m.text, 'podCounts'))})`,
    );
  }
}

void main();
