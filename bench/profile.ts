/**
 * Where a server's CPU goes: a V8 CPU profile (`node --cpu-prof`, written when the process
 * exits) reduced to the functions with the most self time. `BENCH_ONLY=profile npm run bench`
 * profiles the server under each target's load, one server per target, and writes the top
 * frames into bench/RESULTS.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const PROFILES_START = '<!-- profiles: start -->';
export const PROFILES_END = '<!-- profiles: end -->';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
};
type CpuProfile = { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[] };

export type Frame = { name: string; where: string; selfShare: number };
/** One SQL statement's runs in a profiled server (bench/statement-timer.cjs). */
export type StatementTime = { sql: string; calls: number; share: number; usPerCall: number };
export type Profile = { target: string; frames: Frame[]; samples: number; statements?: StatementTime[] };

/** Reads the one .cpuprofile in `dir`. */
export function readProfile(dir: string): CpuProfile {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) {
    throw new Error(`no .cpuprofile written in ${dir}`);
  }
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
}

/** The `top` functions by self time (idle time left out), as shares of the busy samples. */
export function topFrames(profile: CpuProfile, top: number): { frames: Frame[]; samples: number } {
  const self = new Map<string, { name: string; where: string; hits: number }>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (hits === 0 || functionName === '(idle)') {
      continue;
    }
    busy += hits;
    const file = url.replace(/^file:\/\/.*?\/(node_modules|dist|src)\//, '$1/').replace(/^node:/, 'node:');
    const where = url ? `${file}:${lineNumber + 1}` : '';
    const key = `${functionName}|${where}`;
    const entry = self.get(key) ?? { name: functionName || '(anonymous)', where, hits: 0 };
    entry.hits += hits;
    self.set(key, entry);
  }
  const frames = [...self.values()]
    .sort((a, b) => b.hits - a.hits)
    .slice(0, top)
    .map((e) => ({ name: e.name, where: e.where, selfShare: busy === 0 ? 0 : e.hits / busy }));
  return { frames, samples: busy };
}

/** The `top` statements by total time, from the JSON bench/statement-timer.cjs wrote (none if it wrote nothing). */
export function readStatements(file: string, top: number): StatementTime[] {
  let rows: { sql: string; calls: number; ns: number }[];
  try {
    rows = JSON.parse(readFileSync(file, 'utf8')) as typeof rows;
  } catch {
    return [];
  }
  const total = rows.reduce((sum, r) => sum + r.ns, 0);
  return rows
    .sort((a, b) => b.ns - a.ns)
    .slice(0, top)
    .map((r) => ({
      sql: r.sql.replace(/\s+/g, ' ').trim(),
      calls: r.calls,
      share: total === 0 ? 0 : r.ns / total,
      usPerCall: r.ns / r.calls / 1000,
    }));
}

/** A statement for a Markdown table cell: its start, pipes escaped. */
function sqlCell(sql: string): string {
  const short = sql.length > 110 ? `${sql.slice(0, 110)}…` : sql;
  return `\`${short.replace(/\|/g, '\\|')}\``;
}

export function renderProfilesSection(profiles: Profile[], note: string): string {
  const lines = [
    PROFILES_START,
    '## Where the CPU goes (V8 CPU profiles under load)',
    '',
    `${note} Self time: the share of the server's busy samples spent in the function itself, not in what it calls. ` +
      '`BENCH_ONLY=profile npm run bench` measures these alone and rewrites only this section.',
  ];
  for (const p of profiles) {
    lines.push(
      '',
      `**${p.target}** (${p.samples.toLocaleString('en-US')} busy samples)`,
      '',
      '| self | function | where |',
      '|---:|---|---|',
    );
    for (const f of p.frames) {
      lines.push(`| ${(f.selfShare * 100).toFixed(1)} % | \`${f.name}\` | ${f.where || '—'} |`);
    }
    if (p.statements && p.statements.length > 0) {
      lines.push(
        '',
        'SQLite statements by their own time (wall time inside better-sqlite3, the start-up and the creates before the load included):',
        '',
        '| share | runs | µs per run | statement |',
        '|---:|---:|---:|---|',
      );
      for (const st of p.statements) {
        lines.push(
          `| ${(st.share * 100).toFixed(1)} % | ${st.calls.toLocaleString('en-US')} | ${st.usPerCall.toFixed(1)} | ${sqlCell(st.sql)} |`,
        );
      }
    }
  }
  lines.push(PROFILES_END);
  return lines.join('\n');
}
