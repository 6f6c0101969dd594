import { test } from 'node:test';
import { createPreference } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';
import { assertWrongInput, assertWrongInputAbout, get } from '../helpers.ts';

const LIMIT = 'limit must be an integer from 1 to 100';
const LIMIT_PATTERN = 'limit must be an integer from 1 to 100';
const CURSOR = 'cursor must be the next_cursor of a previous page';

describeBackends('GET /v1/checkout_preferences errors', (build) => {
  test('refuses query parameters it cannot honour with 400 WRONG_INPUT naming the parameter', async (t) => {
    const { app, merchant } = await build(t);
    await createPreference(app, merchant);
    const list = (query: string) => get(app, merchant, `/v1/checkout_preferences?${query}`);

    await t.test('answers 400 WRONG_INPUT for limit 0 and 101', async () => {
      assertWrongInput(await list('limit=0'), [LIMIT]);
      assertWrongInput(await list('limit=101'), [LIMIT]);
      assertWrongInput(await list('limit=999'), [LIMIT]);
    });

    await t.test('answers 400 WRONG_INPUT for a limit that is not a whole number', async () => {
      for (const limit of ['abc', '-1', '1.5', '', '1e2', '0x10', '1000', '%2010']) {
        assertWrongInput(await list(`limit=${limit}`), [LIMIT_PATTERN]);
      }
    });

    await t.test('answers 400 WRONG_INPUT for a cursor that no page produced', async () => {
      const forged = [
        'zzz',
        'not-a-cursor',
        Buffer.from('123.short').toString('base64url'),
        Buffer.from(`abc.${'A'.repeat(22)}`).toString('base64url'),
        Buffer.from(`1768478400000.${'A'.repeat(23)}`).toString('base64url'),
        Buffer.from(`1768478400000;${'A'.repeat(22)}`).toString('base64url'),
        Buffer.from(`-1.${'A'.repeat(22)}`).toString('base64url'),
        Buffer.from(`1768478400000.${'A'.repeat(21)}!`).toString('base64url'),
      ];
      for (const cursor of forged) {
        assertWrongInput(await list(`cursor=${cursor}`), [CURSOR]);
      }
    });

    await t.test('answers 400 WRONG_INPUT with one message per bad parameter', async () => {
      assertWrongInput(await list('limit=0&cursor=zzz'), [LIMIT, CURSOR]);
    });

    await t.test('answers 400 WRONG_INPUT for an unknown status or type', async () => {
      assertWrongInput(await list('status=CLOSED'), ['querystring status must be one of OPEN, PAID, EXPIRED']);
      assertWrongInput(await list('status=open'), ['querystring status must be one of OPEN, PAID, EXPIRED']);
      assertWrongInput(await list('type=ONE_TIME'), ['querystring type must be one of PAYMENT, SUBSCRIPTION']);
    });

    await t.test('answers 400 WRONG_INPUT for an external_id longer than 255 characters', async () => {
      assertWrongInputAbout(
        await list(`external_id=${'x'.repeat(256)}`),
        'querystring external_id',
        'querystring external_id must NOT have more than 255 characters',
      );
    });
  });
});
