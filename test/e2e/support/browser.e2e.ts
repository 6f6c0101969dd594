import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BROWSER_BOUNDS, launchChromium, SharedBrowser } from './browser.ts';

/**
 * The bounds of the browser suites themselves: a browser that does not start ends the test
 * with a reason, and what it printed, instead of holding the test file for ever.
 */

/** True while a process with this id exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('[E2E HARNESS] every browser wait has a bound', () => {
  test('a Chromium that never starts fails the test within a minute, with what it printed', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'cobro-stub-chromium-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const stub = join(dir, 'chromium');
    writeFileSync(
      stub,
      `#!/bin/sh\necho $$ > '${dir}/pid'\necho 'stub chromium: stuck before opening its pipe' >&2\nexec sleep 600\n`,
    );
    chmodSync(stub, 0o755);
    const browser = new SharedBrowser(() => launchChromium({ executablePath: stub }));
    t.after(() => browser.close());

    const started = Date.now();
    await assert.rejects(browser.context(t), (error: Error) => {
      assert.match(error.message, /Chromium \(.*chromium\) did not start within 30000 ms/);
      assert.match(error.message, /stub chromium: stuck before opening its pipe/, 'the message holds its stderr');
      return true;
    });
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 60_000, `failed after ${elapsed} ms`);
    assert.ok(elapsed >= BROWSER_BOUNDS.launchMs - 1_000, `failed after ${elapsed} ms, before the bound`);
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    for (let i = 0; i < 50 && alive(pid); i++) {
      await sleep(100);
    }
    assert.equal(alive(pid), false, 'the stuck browser process was killed');
  });
});
