import { createPreference } from '../../support/builders.ts';
import { runAuthTests } from '../../support/run-auth-tests.ts';
import { describeBackends } from '../../support/test-app.ts';
import { sharedBuild } from '../helpers.ts';

describeBackends('GET /v1/checkout_preferences/{id} authentication', (build) => {
  runAuthTests(sharedBuild(build), async (ctx) => {
    const created = await createPreference(ctx.app, ctx.merchant);
    return { method: 'GET', url: `/v1/checkout_preferences/${created.id}`, headers: ctx.merchant.authHeaders };
  });
});
