import { Writable } from 'node:stream';

/**
 * A stream that keeps every line written to it: given to a test app as its log stream (with
 * the production logger, its scrubbing included), it lets a test read what the server logged.
 */
export function logSink(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}
