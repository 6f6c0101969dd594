// A second test reporter beside TAP: it prints nothing while tests pass and, at the end, one
// block naming every failed test with its file and error. A long TAP stream buries a failure
// thousands of lines above its summary; this puts it last, where a CI log's tail shows it.
import { inspect } from 'node:util';

// biome-ignore lint/style/noDefaultExport: node --test loads a reporter by its default export.
export default async function* failures(source) {
  const failed = [];
  for await (const event of source) {
    if (event.type !== 'test:fail') {
      continue;
    }
    const { name, file, line, details } = event.data;
    // A suite fails when one of its tests does; the test itself is the useful line.
    if (details?.type === 'suite') {
      continue;
    }
    failed.push({ name, where: file ? `${file}:${line ?? '?'}` : '(unknown file)', error: details?.error });
  }
  if (failed.length === 0) {
    return;
  }
  yield `\n# ${failed.length} failed:\n`;
  for (const { name, where, error } of failed) {
    const cause = error?.cause ?? error;
    const text = inspect(cause, { depth: 4, breakLength: 120 }).split('\n').slice(0, 30);
    yield `# ✖ ${name}\n#   at ${where}\n${text.map((l) => `#     ${l}`).join('\n')}\n`;
  }
}
