import { createPaymentLink } from '../../support/builders.ts';
import { runAuthTests } from '../../support/run-auth-tests.ts';
import { describeBackends } from '../../support/test-app.ts';
import { sharedBuild } from '../helpers.ts';

describeBackends('POST /v1/payment_links/{id} authentication', (build) => {
  runAuthTests(sharedBuild(build), async (ctx) => {
    const link = await createPaymentLink(ctx.app, ctx.merchant);
    return {
      method: 'POST',
      url: `/v1/payment_links/${link.id}`,
      headers: ctx.merchant.authHeaders,
      payload: { amount: 12 },
    };
  });
});

describeBackends('PATCH /v1/payment_links/{id} authentication', (build) => {
  runAuthTests(sharedBuild(build), async (ctx) => {
    const link = await createPaymentLink(ctx.app, ctx.merchant);
    return {
      method: 'PATCH',
      url: `/v1/payment_links/${link.id}`,
      headers: ctx.merchant.authHeaders,
      payload: { amount: 12 },
    };
  });
});
