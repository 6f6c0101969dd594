import { runAuthTests } from '../../support/run-auth-tests.ts';
import { describeBackends } from '../../support/test-app.ts';
import { sharedBuild } from '../helpers.ts';

describeBackends('GET /v1/payment_methods authentication', (build) => {
  runAuthTests(sharedBuild(build), (ctx) => ({
    method: 'GET',
    url: '/v1/payment_methods',
    headers: ctx.merchant.authHeaders,
  }));
});
