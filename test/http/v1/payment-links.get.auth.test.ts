import { createPaymentLink } from '../../support/builders.ts';
import { runAuthTests } from '../../support/run-auth-tests.ts';
import { describeBackends } from '../../support/test-app.ts';
import { sharedBuild } from '../helpers.ts';

describeBackends('GET /v1/payment_links/{id} authentication', (build) => {
  runAuthTests(sharedBuild(build), async (ctx) => {
    const link = await createPaymentLink(ctx.app, ctx.merchant);
    return { method: 'GET', url: `/v1/payment_links/${link.id}`, headers: ctx.merchant.authHeaders };
  });
});
