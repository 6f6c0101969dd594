import { runAuthTests } from '../../support/run-auth-tests.ts';
import { describeBackends } from '../../support/test-app.ts';
import { sharedBuild } from '../helpers.ts';

describeBackends('GET /v1/payment_links authentication', (build) => {
  runAuthTests(sharedBuild(build), (ctx) => ({
    method: 'GET',
    url: '/v1/payment_links',
    headers: ctx.merchant.authHeaders,
  }));
});
