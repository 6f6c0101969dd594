import { createPaymentLink } from '../../support/builders.ts';
import { runAuthTests } from '../../support/run-auth-tests.ts';
import { describeBackends } from '../../support/test-app.ts';
import { sharedBuild } from '../helpers.ts';

describeBackends('POST /v1/payment_links/{id}/archive authentication', (build) => {
  runAuthTests(sharedBuild(build), async (ctx) => {
    const link = await createPaymentLink(ctx.app, ctx.merchant);
    return { method: 'POST', url: `/v1/payment_links/${link.id}/archive`, headers: ctx.merchant.authHeaders };
  });
});
