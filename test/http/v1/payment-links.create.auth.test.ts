import { subscriptionPlanBody } from '../../support/builders.ts';
import { runAuthTests } from '../../support/run-auth-tests.ts';
import { describeBackends } from '../../support/test-app.ts';
import { sharedBuild } from '../helpers.ts';

describeBackends('POST /v1/payment_links authentication', (build) => {
  runAuthTests(sharedBuild(build), (ctx) => ({
    method: 'POST',
    url: '/v1/payment_links',
    headers: ctx.merchant.authHeaders,
    payload: subscriptionPlanBody(),
  }));
});
