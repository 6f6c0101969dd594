import { test } from 'node:test';
import { describeBackends } from '../../support/test-app.ts';
import { assertWrongInput, get } from '../helpers.ts';

describeBackends('GET /v1/payment_methods errors', (build) => {
  test('refuses filter values it cannot honour with 400 WRONG_INPUT naming the filter', async (t) => {
    const { app, merchant } = await build(t);
    const list = (query: string) => get(app, merchant, `/v1/payment_methods?${query}`);

    await t.test('answers 400 WRONG_INPUT for an unknown type', async () => {
      for (const type of ['WIRE', 'card', '']) {
        assertWrongInput(await list(`type=${type}`), [
          'querystring type must be one of BANK_TRANSFER, CRYPTO_ONCHAIN, CASH, CARD, PIX',
        ]);
      }
    });

    await t.test('answers 400 WRONG_INPUT for a currency the service does not support', async () => {
      for (const currency of ['XYZ', 'DOGE']) {
        assertWrongInput(await list(`currency=${currency}`), [
          `querystring currency must be a supported currency, got ${currency}`,
        ]);
      }
      for (const currency of ['US', 'DOLLARS', 'U$D', '840']) {
        assertWrongInput(await list(`currency=${encodeURIComponent(currency)}`), [
          'querystring currency must match pattern "^[A-Za-z]{3,5}$"',
        ]);
      }
    });

    await t.test('answers 400 WRONG_INPUT for a country that is not ALL or three letters', async () => {
      for (const country of ['CL', 'CHILE', '152', 'A1B']) {
        assertWrongInput(await list(`country_id=${country}`), [
          'querystring country_id must match pattern "^([A-Za-z]{3}|ALL)$"',
        ]);
      }
    });

    await t.test('answers 400 WRONG_INPUT for an amount that is not a plain decimal', async () => {
      for (const amount of ['abc', '-1', '1e3', '1,5', '', '.5', 'NaN', 'Infinity']) {
        assertWrongInput(await list(`amount=${encodeURIComponent(amount)}`), [
          'querystring amount must match pattern "^[0-9]{1,12}(\\.[0-9]{1,18})?$"',
        ]);
      }
    });

    await t.test('answers 400 WRONG_INPUT for allow_recurrent_payment other than true or false', async () => {
      for (const value of ['yes', '1', 'TRUE', '']) {
        assertWrongInput(await list(`allow_recurrent_payment=${value}`), [
          'querystring allow_recurrent_payment must be one of true, false',
        ]);
      }
    });

    await t.test('answers 400 WRONG_INPUT with one message per bad filter', async () => {
      assertWrongInput(await list('type=WIRE&allow_recurrent_payment=maybe'), [
        'querystring type must be one of BANK_TRANSFER, CRYPTO_ONCHAIN, CASH, CARD, PIX',
        'querystring allow_recurrent_payment must be one of true, false',
      ]);
    });
  });
});
