// Preloaded into a benchmarked server (`node --require bench/statement-timer.cjs dist/serve.js`)
// by `BENCH_ONLY=profile npm run bench`: times every better-sqlite3 statement run, by its SQL,
// and writes the totals as JSON to the file named by COBRO_BENCH_STATEMENTS when the process
// exits. A CPU profile shows SQLite's native work only as the JavaScript frame that called it;
// this says which statement it was (a COMMIT, or a read that SQLite plans again on every run).
'use strict';
const { writeFileSync } = require('node:fs');
const Database = require('better-sqlite3');

const out = process.env.COBRO_BENCH_STATEMENTS;
if (out) {
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1'));
  probe.close();
  const totals = new Map();
  for (const method of ['all', 'get', 'run']) {
    const original = proto[method];
    proto[method] = function timed(...args) {
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        const ns = Number(process.hrtime.bigint() - started);
        const entry = totals.get(this.source);
        if (entry) {
          entry.calls++;
          entry.ns += ns;
        } else {
          totals.set(this.source, { calls: 1, ns });
        }
      }
    };
  }
  process.on('exit', () => {
    const rows = [...totals.entries()].map(([sql, t]) => ({ sql, calls: t.calls, ns: t.ns }));
    writeFileSync(out, JSON.stringify(rows));
  });
}
