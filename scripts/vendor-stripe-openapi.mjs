// Trims Stripe's published OpenAPI description (github.com/stripe/openapi, MIT) to what Cobro
// calls, for the Stripe stand-in the tests run against (test/support/stripe-stand-in.ts). The
// stand-in validates every request Cobro sends against the request schemas kept here, so a
// parameter Stripe does not know, or a value of the wrong type, fails a test instead of a live
// payment.
//
//   node scripts/vendor-stripe-openapi.mjs --spec PATH/openapi/spec3.json|spec3.yaml \
//     --commit UPSTREAM_SHA --date UPSTREAM_COMMIT_DATE --license PATH/LICENSE
//
// Kept: the paths in PATHS (every operation on them) and, transitively, every component schema
// they reference. Dropped: descriptions and Stripe's code-generation annotations (x-stripe*),
// which no validator reads. The upstream commit, its date and the licence go into the output's
// `info` and into vendor/stripe-openapi/LICENSE. A YAML description is read with the `yaml`
// package (installed with the Fastify OpenAPI plugins).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { componentCount, trimmed } from './openapi-trim.mjs';

const PATHS = [
  '/v1/account',
  '/v1/customers',
  '/v1/payment_intents',
  '/v1/payment_intents/{intent}',
  '/v1/payment_intents/{intent}/cancel',
  '/v1/refunds',
  '/v1/refunds/{refund}',
  '/v1/webhook_endpoints',
  '/v1/webhook_endpoints/{webhook_endpoint}',
];

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'vendor', 'stripe-openapi');

const { values } = parseArgs({
  options: {
    spec: { type: 'string' },
    commit: { type: 'string' },
    date: { type: 'string' },
    license: { type: 'string' },
  },
});
if (!values.spec || !values.commit || !/^[0-9a-f]{40}$/.test(values.commit) || !values.date || !values.license) {
  process.stderr.write(
    'usage: node scripts/vendor-stripe-openapi.mjs --spec FILE --commit SHA(40 hex) --date DATE --license FILE\n',
  );
  process.exit(2);
}

const text = readFileSync(values.spec, 'utf8');
const spec = values.spec.endsWith('.json') ? JSON.parse(text) : (await import('yaml')).parse(text);
const license = readFileSync(values.license, 'utf8');
if (!/MIT License/.test(license)) {
  throw new Error(`${values.license} is not the MIT licence this script expects`);
}

// `description` is dropped only where it is documentation: a schema member named so is kept.
const isDoc = (key, member) => (key === 'description' && typeof member === 'string') || key.startsWith('x-stripe');
const { paths, components } = trimmed(spec, PATHS, isDoc);

const vendored = {
  openapi: spec.openapi,
  info: {
    title: spec.info.title,
    version: spec.info.version,
    'x-vendored-from': {
      repository: 'https://github.com/stripe/openapi',
      file: values.spec.replace(/^.*\/(openapi\/)?/, 'openapi/'),
      commit: values.commit,
      commit_date: values.date,
      license: 'MIT (see LICENSE beside this file)',
      trimmed_by: 'scripts/vendor-stripe-openapi.mjs',
      paths: PATHS,
    },
  },
  paths,
  components,
};
writeFileSync(join(OUT, 'spec3.trimmed.json'), `${JSON.stringify(vendored, null, 1)}\n`);
writeFileSync(join(OUT, 'LICENSE'), license);
writeFileSync(
  join(OUT, 'README.md'),
  `# Stripe's OpenAPI description, trimmed

\`spec3.trimmed.json\` is Stripe's published OpenAPI description of its API, version
${spec.info.version}, from https://github.com/stripe/openapi (\`${vendored.info['x-vendored-from'].file}\`
at commit ${values.commit}, ${values.date}), under the MIT licence (\`LICENSE\`, Stripe's own).
It keeps only the paths Cobro calls and the schemas they reference, without descriptions:

${PATHS.map((p) => `- \`${p}\``).join('\n')}

The Stripe stand-in of the tests (\`test/support/stripe-stand-in.ts\`) checks every request
Cobro sends against it. Written by \`scripts/vendor-stripe-openapi.mjs\` (its first lines say
how to run it); do not edit by hand. Cobro's Stripe client asks for the same API version
(\`STRIPE_API_VERSION\` in \`src/providers/card/stripe/stripe.client.ts\`; a test keeps them equal).
`,
);
process.stdout.write(
  `vendor/stripe-openapi/spec3.trimmed.json: ${PATHS.length} paths, ${componentCount(components)} schemas, API ${spec.info.version}, commit ${values.commit}\n`,
);
