// Trims the Central Bank's API Pix description (github.com/bacen/pix-api, `openapi.yaml`,
// Apache-2.0) to what Cobro calls, for the PSP stand-in the tests run against
// (test/support/pix-psp-stand-in.ts). The stand-in validates every request Cobro sends, and
// every answer and notification it gives, against the schemas kept here, so a member the
// specification does not have, or a value of the wrong form, fails a test instead of a charge.
//
//   node scripts/vendor-pix-openapi.mjs --spec PATH/openapi.yaml --commit UPSTREAM_SHA \
//     --date UPSTREAM_COMMIT_DATE --license-text PATH/TO/APACHE-2.0.txt
//
// The upstream repository ships no licence file; its description declares Apache 2.0 in
// `info.license`, which this script checks. `--license-text` is the licence's standard text (any
// verbatim copy), written beside the output with a note of where the description comes from.
//
// Kept: the paths in PATHS (every operation on them, their callbacks included) and, transitively,
// every component they reference (schemas, request bodies, responses, parameters). Dropped:
// descriptions, titles, examples, which no validator reads. The upstream commit and its date go
// into the output's `info`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { componentCount, trimmed } from './openapi-trim.mjs';

const PATHS = ['/cob/{txid}', '/pix/{e2eid}/devolucao/{id}', '/webhook/{chave}'];

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'vendor', 'pix-api-openapi');

const { values } = parseArgs({
  options: {
    spec: { type: 'string' },
    commit: { type: 'string' },
    date: { type: 'string' },
    'license-text': { type: 'string' },
  },
});
if (
  !values.spec ||
  !values.commit ||
  !/^[0-9a-f]{40}$/.test(values.commit) ||
  !values.date ||
  !values['license-text']
) {
  process.stderr.write(
    'usage: node scripts/vendor-pix-openapi.mjs --spec FILE --commit SHA(40 hex) --date DATE --license-text FILE\n',
  );
  process.exit(2);
}

const spec = (await import('yaml')).parse(readFileSync(values.spec, 'utf8'));
if (!/^Apache 2\.0$/.test(spec.info?.license?.name ?? '')) {
  throw new Error(
    `the description declares the licence "${spec.info?.license?.name}", not the Apache 2.0 this script expects`,
  );
}
const licenseText = readFileSync(values['license-text'], 'utf8');
if (!/Apache License\s+Version 2\.0, January 2004/.test(licenseText)) {
  throw new Error(`${values['license-text']} is not the Apache License 2.0 text`);
}

// Dropped only where they are documentation: a schema property so named is an object, kept.
const isDoc = (key, member) =>
  ((key === 'description' || key === 'title' || key === 'summary') && typeof member === 'string') ||
  key === 'examples' ||
  key === 'example';
const { paths, components } = trimmed(spec, PATHS, isDoc);

const vendored = {
  openapi: spec.openapi,
  info: {
    title: spec.info.title,
    version: spec.info.version,
    license: spec.info.license,
    'x-vendored-from': {
      repository: 'https://github.com/bacen/pix-api',
      file: 'openapi.yaml',
      commit: values.commit,
      commit_date: values.date,
      license: 'Apache-2.0, as the description declares (see LICENSE beside this file)',
      trimmed_by: 'scripts/vendor-pix-openapi.mjs',
      paths: PATHS,
    },
  },
  paths,
  components,
};
mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, 'openapi.trimmed.json'), `${JSON.stringify(vendored, null, 1)}\n`);
writeFileSync(
  join(OUT, 'LICENSE'),
  `The API Pix description in this folder is derived from openapi.yaml of
https://github.com/bacen/pix-api (commit ${values.commit}), published by the
Banco Central do Brasil, whose info.license declares the Apache License 2.0
(${spec.info.license.url}). It was trimmed (paths and documentation removed) by
scripts/vendor-pix-openapi.mjs. The licence's text follows.

${licenseText}`,
);
writeFileSync(
  join(OUT, 'README.md'),
  `# The API Pix description, trimmed

\`openapi.trimmed.json\` is the Central Bank of Brazil's published description of the API Pix,
version ${spec.info.version}, from https://github.com/bacen/pix-api (\`openapi.yaml\` at commit
${values.commit}, ${values.date}), under the Apache License 2.0 (\`LICENSE\`). It keeps only the
paths Cobro calls and the components they reference, without descriptions, titles or examples:

${PATHS.map((p) => `- \`${p}\``).join('\n')}

The PSP stand-in of the tests (\`test/support/pix-psp-stand-in.ts\`) checks every request Cobro
sends, every answer it gives and every notification it posts against it. Written by
\`scripts/vendor-pix-openapi.mjs\` (its first lines say how to run it); do not edit by hand.
`,
);
process.stdout.write(
  `vendor/pix-api-openapi/openapi.trimmed.json: ${PATHS.length} paths, ${componentCount(components)} components, API Pix ${spec.info.version}, commit ${values.commit}\n`,
);
