import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { dashboardMessages } from '../../../src/web/dashboard/i18n.ts';
import type { DashboardText } from '../../../src/web/dashboard/words/index.ts';
import { AREAS } from '../../../src/web/dashboard/words/index.ts';

const ROOT = join(import.meta.dirname, '../../../src/web/dashboard');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      return e.name === 'words' ? [] : sources(path);
    }
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Every text a page translates: the string literals passed to a `t(`/`tr(` call. A text built at
 * run time could not be found here, so the rule is literals only (values go in `{name}` holes).
 */
function textsInSources(): Map<string, string> {
  const found = new Map<string, string>();
  const call = /\b(?:t|tr)\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\$]|\\.)*)`)/g;
  for (const file of sources(ROOT)) {
    for (const m of readFileSync(file, 'utf8').matchAll(call)) {
      const text = (m[1] ?? m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1');
      found.set(text, file.slice(ROOT.length + 1));
    }
  }
  return found;
}

const holes = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('dashboard translations', () => {
  const used = textsInSources();

  test('every text a page translates has a Spanish and a Portuguese version', () => {
    const known = new Set(Object.values(AREAS).flatMap((w) => Object.keys(w)));
    const missing = [...used].filter(([text]) => !known.has(text)).map(([text, file]) => `${file}: ${text}`);
    assert.deepEqual(missing, [], 'add these to src/web/dashboard/words/');
    assert.ok(used.size > 30, `only ${used.size} translated texts found: is the scan still finding the calls?`);
  });

  test('no dictionary entry is left unused', () => {
    const unused = Object.entries(AREAS).flatMap(([area, words]) =>
      Object.keys(words)
        .filter((text) => !used.has(text))
        .map((text) => `${area}: ${text}`),
    );
    assert.deepEqual(unused, []);
  });

  test('an English text used in two areas translates the same way in both', () => {
    const seen = new Map<string, { es: string; pt: string; area: string }>();
    const clashes: string[] = [];
    for (const [area, words] of Object.entries(AREAS)) {
      for (const [text, tr] of Object.entries(words)) {
        const before = seen.get(text);
        if (before && (before.es !== tr.es || before.pt !== tr.pt)) {
          clashes.push(`${text}: ${before.area} and ${area} differ`);
        }
        seen.set(text, { ...tr, area });
      }
    }
    assert.deepEqual(clashes, []);
  });

  test('each translation keeps the placeholders of its English text and is not empty', () => {
    const wrong = Object.values(AREAS).flatMap((words) =>
      Object.entries(words).flatMap(([text, tr]) =>
        (['es', 'pt'] as const)
          .filter((lang) => tr[lang].trim() === '' || holes(tr[lang]).join() !== holes(text).join())
          .map((lang) => `${lang}: ${text} → ${tr[lang]}`),
      ),
    );
    assert.deepEqual(wrong, []);
  });

  test('a page text is shown in the reader language with its values filled in', () => {
    assert.equal(dashboardMessages('es').t('Last {days} days', { days: 7 }), 'Últimos 7 días');
    assert.equal(dashboardMessages('pt').t('Gross volume'), 'Volume bruto');
    assert.equal(dashboardMessages('en').t('Last {days} days', { days: 30 }), 'Last 30 days');
    // Outside the typed words only by a cast: the fallback is for a table edited without a rebuild.
    const untranslated = 'A text nobody translated' as DashboardText;
    assert.equal(dashboardMessages('es').t(untranslated), 'A text nobody translated');
  });
});
