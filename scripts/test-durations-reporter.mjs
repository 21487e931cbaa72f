// node:test reporter for scripts/test-durations.mjs: one JSON line per finished test, with the
// file it belongs to (the group's describe named by the file's path, scripts/test-groups.mjs).
export default async function* durations(source) {
  for await (const e of source) {
    if (e.type !== 'test:pass' && e.type !== 'test:fail') continue;
    const { name, nesting, file, details } = e.data;
    yield `${JSON.stringify({ name, nesting, file, ms: details?.duration_ms ?? 0, ok: e.type === 'test:pass' })}\n`;
  }
}
