import { test } from 'node:test';
import { describeBackends } from '../../support/test-app.ts';
import { assertWrongInput, get } from '../helpers.ts';

describeBackends('GET /v1/payment_links errors', (build) => {
  test('refuses query parameters it cannot honour with 400 WRONG_INPUT naming the parameter', async (t) => {
    const { app, merchant } = await build(t);
    const list = (query: string) => get(app, merchant, `/v1/payment_links?${query}`);
    await t.test('answers 400 WRONG_INPUT for limit 0, 101 and abc', async () => {
      assertWrongInput(await list('limit=0'), ['limit must be an integer from 1 to 100']);
      assertWrongInput(await list('limit=101'), ['limit must be an integer from 1 to 100']);
      assertWrongInput(await list('limit=abc'), ['limit must be an integer from 1 to 100']);
    });
    await t.test('answers 400 WRONG_INPUT for a cursor that no page produced', async () => {
      assertWrongInput(await list('cursor=zzz'), ['cursor must be the next_cursor of a previous page']);
      assertWrongInput(await list(`cursor=${Buffer.from('1.2').toString('base64url')}`), [
        'cursor must be the next_cursor of a previous page',
      ]);
    });
    await t.test('answers 400 WRONG_INPUT for an unknown status', async () => {
      assertWrongInput(await list('status=DELETED'), ['querystring status must be one of ACTIVE, ARCHIVED']);
    });
  });
});
