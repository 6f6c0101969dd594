import { paymentBody } from '../../support/builders.ts';
import { runAuthTests } from '../../support/run-auth-tests.ts';
import { describeBackends } from '../../support/test-app.ts';
import { sharedBuild } from '../helpers.ts';

describeBackends('POST /v1/checkout_preferences authentication', (build) => {
  runAuthTests(sharedBuild(build), (ctx) => ({
    method: 'POST',
    url: '/v1/checkout_preferences',
    headers: ctx.merchant.authHeaders,
    payload: paymentBody(),
  }));
});
