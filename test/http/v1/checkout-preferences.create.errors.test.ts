import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CATALOG } from '../../../src/domain/payment-methods/catalog.ts';
import { createPaymentLink, errorBody, paymentBody } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';
import {
  assertError,
  assertWrongInput,
  assertWrongInputAbout,
  createPreferenceRequest,
  get,
  UNKNOWN_ID,
  USD_BANK_TRANSFER_ID,
  USD_CARD_ID,
} from '../helpers.ts';

const BOUND = "amount must be between 0.1 and 3000 USD (converted from USD at the service's rate table)";
const boundIn = (currency: string) =>
  `amount must be between 0.1 and 3000 USD (converted from ${currency} at the service's rate table)`;
const LINK_UNUSABLE =
  'payment_link_id must be the id of an active subscription definition (payment link) of this account';
const URL_PROBLEM = (field: string) => `custom_urls.${field} must be an absolute http or https URL with a host`;
const CREDENTIALS_IN_URL = (field: string) => `custom_urls.${field} must not contain a user name or password`;
const DATE_FORMAT = 'expiration_date must be an RFC 3339 timestamp such as 2024-06-12T15:26:47Z';

/** R18: redirect and webhook targets that must never be stored. */
const REFUSED_URLS: string[] = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'java\tscript:alert(1)',
  '\x01javascript:alert(1)',
  ' javascript:alert(1)',
  'javascript://good.example/%0aalert(1)',
  '%6Aavascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'ftp://evil.example/',
  'ws://good.example/socket',
  'mailto:payer@good.example',
  'tel:+56912345678',
  'blob:https://good.example/3f6c2a1e',
  'intent://evil.example#Intent;scheme=http;end',
  '//evil.example',
  '//evil.example/path?x=1',
  '\\\\evil.example',
  '/\\evil.example',
  '\\/evil.example',
  'https:evil.example',
  'https:/evil.example',
  'https:\\\\evil.example',
  'https:///evil.example',
  'http://evil.example\\@good.example',
  'HTTPS://good.example\\evil',
  '/relative/path',
  'relative/path',
  'thanks.html',
  '?token=abc',
  '#fragment',
  'https://good.example/ok\r\nSet-Cookie: session=1',
  'https://good.example/a\nb',
  'https://good.example/a\rb',
  'https://evil.example\u0000.good.example/',
  'https://аpple.com/', // Cyrillic а
  'https://gооgle.com/login', // Cyrillic о
  'https://paypal.cοm/', // Greek ο
  'https://exa\u200bmple.com/', // zero-width space
  'https://',
  'http:// evil.example',
  'https://good.example /x',
  ' https://good.example/',
  'https://good.example/ ',
  'https://good.example\t/',
  'https://[::1',
  'http://good.example:99999/',
  `https://good.example/${'a'.repeat(2100)}`,
];
const WITH_CREDENTIALS: string[] = [
  'https://user:pass@good.example/',
  'https://user@good.example/',
  'https://@good.example/',
  'https://:@good.example/',
  'http://good.example:secret@evil.example/',
];

const URL_FIELDS = ['success_payment_redirect', 'error_payment_redirect', 'status_changes_webhook'] as const;

describeBackends('POST /v1/checkout_preferences rejects', (build) => {
  test('refuses a PAYMENT request that breaks a rule, naming the field', async (t) => {
    const { app, clock, merchant } = await build(t);
    await t.test('answers 400 WRONG_INPUT when type is missing or not PAYMENT or SUBSCRIPTION', async () => {
      assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ type: undefined })), [
        'type is required',
      ]);
      for (const type of ['ONE_TIME', 'payment', 'Subscription', '', 'RECURRENT']) {
        assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ type })), [
          'type must be one of PAYMENT, SUBSCRIPTION',
        ]);
      }
      assertWrongInputAbout(
        await createPreferenceRequest(app, merchant, paymentBody({ type: 1 })),
        'type',
        'type must be of type string',
      );
    });

    await t.test('answers 400 WRONG_INPUT when origin is missing or not API', async () => {
      assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ origin: undefined })), [
        'origin is required',
      ]);
      for (const origin of ['PAYMENT_LINK', 'api', 'WEB']) {
        assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ origin })), [
          'origin must be one of API',
        ]);
      }
    });

    await t.test('answers 400 WRONG_INPUT naming amount, currency and title when a PAYMENT lacks them', async () => {
      assertWrongInput(await createPreferenceRequest(app, merchant, { type: 'PAYMENT', origin: 'API' }), [
        'title is required for a PAYMENT preference',
        'currency is required for a PAYMENT preference',
        'amount is required for a PAYMENT preference',
      ]);
      assertWrongInput(
        await createPreferenceRequest(app, merchant, paymentBody({ amount: null, currency: '', title: '   ' })),
        [
          'title is required for a PAYMENT preference',
          'currency is required for a PAYMENT preference',
          'amount is required for a PAYMENT preference',
        ],
      );
    });

    await t.test('answers 400 WRONG_INPUT for an amount sent as a string instead of coercing it', async () => {
      for (const amount of ['10', '16.90', '', 'NaN', true, [10], { value: 10 }]) {
        assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ amount })), [
          'amount must be of type number or null',
        ]);
      }
    });

    await t.test('answers 400 WRONG_INPUT for a number too large to be finite', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/checkout_preferences',
        headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
        payload: '{"type":"PAYMENT","origin":"API","currency":"USD","title":"Tea","amount":1e309}',
      });
      assertWrongInput(res, ['amount must be of type number or null']);
    });

    await t.test('answers 400 WRONG_INPUT for amounts that are zero or negative after rounding', async () => {
      for (const amount of [0, -0, -5, 0.004, 1e-7]) {
        assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ amount })), [
          'amount must be greater than 0 after rounding to 2 decimals',
        ]);
      }
      assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ amount: 0.4, currency: 'CLP' })), [
        'amount must be greater than 0 after rounding to 0 decimals',
      ]);
    });

    await t.test('answers 400 WRONG_INPUT for amounts outside 0.10–3000.00 USD, in USD or converted', async (t) => {
      const cases: [number, string][] = [
        [0.09, 'USD'],
        [0.094, 'USD'],
        [3000.01, 'USD'],
        [3000.005, 'USD'],
        [10_000, 'USD'],
        [1e21, 'USD'],
        [93, 'CLP'],
        [2_820_001, 'CLP'],
        [117.99, 'ARS'],
        [3_540_000.01, 'ARS'],
        [0.5, 'BRL'],
        [1, 'UYU'],
      ];
      for (const [amount, currency] of cases) {
        await t.test(`refuses ${amount} ${currency}`, async () => {
          assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ amount, currency })), [
            currency === 'USD' ? BOUND : boundIn(currency),
          ]);
        });
      }
    });

    await t.test('answers 400 WRONG_INPUT for a currency the service does not support', async () => {
      for (const currency of ['XYZ', 'DOGE', 'US$', 'usd ']) {
        assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ currency })), [
          `currency must be one of the supported currencies (GET /v1/currencies), got ${currency}`,
        ]);
      }
      assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ currency: 840 })), [
        'currency must be of type string or null',
      ]);
    });

    await t.test('answers 400 WRONG_INPUT when the two payer spellings disagree', async () => {
      assertWrongInput(
        await createPreferenceRequest(app, merchant, paymentBody({ payer: { name: 'Ana', first_name: 'Eva' } })),
        ['payer: name and first_name are two spellings of one field and were given different values'],
      );
      assertWrongInput(
        await createPreferenceRequest(
          app,
          merchant,
          paymentBody({ payer: { phone: '+56912345678', phone_number: '+56987654321' } }),
        ),
        ['payer: phone and phone_number are two spellings of one field and were given different values'],
      );
    });

    await t.test('answers 400 WRONG_INPUT naming payer.email for an invalid e-mail address', async (t) => {
      for (const email of [
        'not-an-email',
        'ana@',
        '@example.com',
        'ana@example',
        'ana @example.com',
        'ana@exa mple.com',
      ]) {
        await t.test(`refuses ${email}`, async () => {
          assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ payer: { email } })), [
            'payer.email must be a valid e-mail address',
          ]);
        });
      }
    });

    await t.test(
      'answers 400 WRONG_INPUT naming the phone member the client sent when it is not a phone number',
      async () => {
        for (const phone of ['1234567', '1234567890123456', 'call me', '+56 9 1234 567x', '++56912345678']) {
          assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ payer: { phone } })), [
            'payer.phone must be an international phone number: 8 to 15 digits, optionally starting with +',
          ]);
          assertWrongInput(
            await createPreferenceRequest(app, merchant, paymentBody({ payer: { phone_number: phone } })),
            ['payer.phone_number must be an international phone number: 8 to 15 digits, optionally starting with +'],
          );
        }
      },
    );

    await t.test('answers 400 WRONG_INPUT when payer or one of its members has the wrong type', async () => {
      assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ payer: 'ana@example.com' })), [
        'payer must be of type object or null',
      ]);
      assertWrongInputAbout(
        await createPreferenceRequest(app, merchant, paymentBody({ payer: { email: 42 } })),
        'payer',
        'payer.email must be of type string or null',
      );
    });

    await t.test('answers 400 WRONG_INPUT for an expiration date in the past or now', async () => {
      clock.set('2026-01-15T12:00:00Z');
      for (const date of [
        '2026-01-15T11:59:59Z',
        '2026-01-15T12:00:00Z',
        '2020-01-01T00:00:00Z',
        '2026-01-15T09:00:00-03:00',
      ]) {
        assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ expiration_date: date })), [
          'expiration_date must be in the future',
        ]);
      }
    });

    await t.test('answers 400 WRONG_INPUT for an expiration date more than 7 days ahead', async () => {
      clock.set('2026-01-15T12:00:00Z');
      for (const date of [
        '2026-01-22T12:00:01Z',
        '2026-01-22T12:00:00.500Z',
        '2026-02-15T12:00:00Z',
        '2026-01-22T10:00:01-02:00',
      ]) {
        assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ expiration_date: date })), [
          'expiration_date must be at most 7 days from now',
        ]);
      }
    });

    await t.test('answers 400 WRONG_INPUT for impossible or malformed expiration dates', async (t) => {
      clock.set('2026-02-25T12:00:00Z');
      const dates = [
        '2024-02-30T00:00:00Z',
        '2026-02-29T12:00:00Z',
        '2026-02-30T12:00:00Z',
        '2026-13-01T00:00:00Z',
        '2026-02-26T24:00:00Z',
        '2026-02-26T12:60:00Z',
        '2026-02-26T12:00:60Z',
        '2026-02-26T12:00:00+24:00',
        '2026-02-26',
        '2026-02-26T12:00:00',
        '2026-02-26T12:00Z',
        '26-02-2026T12:00:00Z',
        'tomorrow',
        '1772107200',
        '2026-02-26T12:00:00.Z',
      ];
      for (const date of dates) {
        await t.test(`refuses ${date}`, async () => {
          assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ expiration_date: date })), [
            DATE_FORMAT,
          ]);
        });
      }
      assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ expiration_date: 1772107200 })), [
        'expiration_date must be of type string or null',
      ]);
    });

    await t.test('answers 400 WRONG_INPUT for an external_id longer than 255 characters', async () => {
      for (const externalId of ['x'.repeat(256), '😀'.repeat(256)]) {
        assertWrongInputAbout(
          await createPreferenceRequest(app, merchant, paymentBody({ external_id: externalId })),
          'external_id',
          'external_id must NOT have more than 255 characters',
        );
      }
      assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ external_id: 42 })), [
        'external_id must be of type string or null',
      ]);
    });

    await t.test('answers one message per problem for a member that may also be null', async () => {
      assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ external_id: 'x'.repeat(256) })), [
        'external_id must NOT have more than 255 characters',
      ]);
      assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ payer: { email: 42 } })), [
        'payer.email must be of type string or null',
      ]);
      assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ payment_method_types: ['X'] })), [
        'payment_method_types[0] must be one of BANK_TRANSFER, CRYPTO_ONCHAIN, CASH, CARD, PIX',
      ]);
    });

    await t.test('answers 400 WRONG_INPUT for an unknown payment method type', async () => {
      const types = 'BANK_TRANSFER, CRYPTO_ONCHAIN, CASH, CARD, PIX';
      assertWrongInputAbout(
        await createPreferenceRequest(app, merchant, paymentBody({ payment_method_types: ['CARD', 'WIRE'] })),
        'payment_method_types',
        `payment_method_types[1] must be one of ${types}`,
      );
      assertWrongInputAbout(
        await createPreferenceRequest(app, merchant, paymentBody({ payment_method_types: ['card'] })),
        'payment_method_types',
        `payment_method_types[0] must be one of ${types}`,
      );
      assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ payment_method_types: 'CARD' })), [
        'payment_method_types must be of type array or null',
      ]);
    });

    await t.test('answers 400 WRONG_INPUT when no payment method of the given types can take the amount', async () => {
      assertWrongInput(await createPreferenceRequest(app, merchant, paymentBody({ payment_method_types: ['PIX'] })), [
        'payment_method_types: no payment method can take USD for this amount among payment_method_types',
      ]);
      // USD bank transfers start at 1.00 and crypto is not among the types.
      assertWrongInput(
        await createPreferenceRequest(
          app,
          merchant,
          paymentBody({ amount: 0.5, payment_method_types: ['BANK_TRANSFER', 'CASH'] }),
        ),
        ['payment_method_types: no payment method can take USD for this amount among payment_method_types'],
      );
    });

    await t.test('answers 400 WRONG_INPUT for a selected_payment_method_id that does not exist', async () => {
      for (const id of ['nope', UNKNOWN_ID, USD_CARD_ID.toLowerCase()]) {
        assertWrongInput(
          await createPreferenceRequest(app, merchant, paymentBody({ selected_payment_method_id: id })),
          ['selected_payment_method_id: the payment method does not exist'],
        );
      }
    });

    await t.test('answers 400 WRONG_INPUT for a selected method in another currency', async () => {
      assertWrongInput(
        await createPreferenceRequest(
          app,
          merchant,
          paymentBody({ currency: 'EUR', selected_payment_method_id: USD_CARD_ID }),
        ),
        ['selected_payment_method_id: the payment method does not accept EUR'],
      );
      assertWrongInput(
        await createPreferenceRequest(
          app,
          merchant,
          paymentBody({ amount: 5000, currency: 'CLP', selected_payment_method_id: 'N40dHHngtwPHjotdU8u4rQ' }),
        ),
        ['selected_payment_method_id: the payment method does not accept CLP'],
      );
    });

    await t.test(
      'answers 400 WRONG_INPUT for a selected method whose type is not in payment_method_types',
      async () => {
        assertWrongInput(
          await createPreferenceRequest(
            app,
            merchant,
            paymentBody({ payment_method_types: ['BANK_TRANSFER'], selected_payment_method_id: USD_CARD_ID }),
          ),
          [
            'selected_payment_method_id: the payment method is of type CARD, which payment_method_types does not include',
          ],
        );
      },
    );

    await t.test('answers 400 WRONG_INPUT for a selected method whose limits exclude the amount', async () => {
      assertWrongInput(
        await createPreferenceRequest(
          app,
          merchant,
          paymentBody({ amount: 0.5, selected_payment_method_id: USD_BANK_TRANSFER_ID }),
        ),
        [
          'selected_payment_method_id: the payment method does not accept this amount (outside its min_amount and max_amount)',
        ],
      );
    });

    await t.test('answers 400 WRONG_INPUT for several problems at once, one message per problem', async () => {
      clock.set('2026-01-15T12:00:00Z');
      const res = await createPreferenceRequest(
        app,
        merchant,
        paymentBody({
          amount: 0.01,
          payer: { email: 'nope', phone: '12' },
          expiration_date: '2026-01-14T12:00:00Z',
          custom_urls: { success_payment_redirect: 'javascript:alert(1)', error_payment_redirect: '//evil.example' },
        }),
      );
      assertWrongInput(res, [
        BOUND,
        'payer.email must be a valid e-mail address',
        'payer.phone must be an international phone number: 8 to 15 digits, optionally starting with +',
        'expiration_date must be in the future',
        URL_PROBLEM('success_payment_redirect'),
        URL_PROBLEM('error_payment_redirect'),
      ]);
    });

    await t.test('answers 400 WRONG_INPUT when the body is not a JSON object or is empty', async () => {
      for (const payload of ['null', '"x"', '42', '[]', '[{"type":"PAYMENT"}]']) {
        const res = await app.inject({
          method: 'POST',
          url: '/v1/checkout_preferences',
          headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
          payload,
        });
        assertWrongInput(res, ['body must be an object']);
      }
      const empty = await app.inject({
        method: 'POST',
        url: '/v1/checkout_preferences',
        headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
        payload: '',
      });
      assertWrongInput(empty, ['type is required', 'origin is required']);
    });

    await t.test('answers 400 WRONG_INPUT for malformed JSON and for prototype-polluting keys', async () => {
      const bodies = ['{"type":"PAYMENT",', "{'type':'PAYMENT'}", '{"type":"PAYMENT","amount":16.9,}'];
      const polluting = [
        '{"type":"PAYMENT","origin":"API","currency":"USD","title":"x","amount":5,"__proto__":{"polluted":true}}',
        '{"type":"PAYMENT","origin":"API","currency":"USD","title":"x","amount":5,"constructor":{"prototype":{"polluted":true}}}',
      ];
      const send = (payload: string) =>
        app.inject({
          method: 'POST',
          url: '/v1/checkout_preferences',
          headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
          payload,
        });
      for (const payload of bodies) {
        assertWrongInput(await send(payload), ['request body is not valid JSON']);
      }
      for (const payload of polluting) {
        // The wording is the body parser's (src/server/json-body.ts); what matters here is 400 and no pollution.
        assertError(await send(payload), 400, 'WRONG_INPUT');
      }
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    await t.test('answers 415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON', async () => {
      for (const contentType of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ]) {
        const res = await app.inject({
          method: 'POST',
          url: '/v1/checkout_preferences',
          headers: { ...merchant.authHeaders, 'content-type': contentType },
          payload: 'type=PAYMENT&amount=10',
        });
        assertError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', [
          'request body must be JSON sent as Content-Type: application/json',
        ]);
      }
    });

    await t.test('answers 413 PAYLOAD_TOO_LARGE for a body over 64 KiB', async () => {
      const res = await createPreferenceRequest(app, merchant, paymentBody({ padding: 'a'.repeat(70_000) }));
      assertError(res, 413, 'PAYLOAD_TOO_LARGE', ['request body is larger than the limit']);
    });

    await t.test('creates nothing when it refuses a request', async () => {
      await createPreferenceRequest(app, merchant, paymentBody({ amount: 0.01, external_id: 'refused-1' }));
      await createPreferenceRequest(app, merchant, paymentBody({ type: 'ONE_TIME', external_id: 'refused-2' }));
      const list = await get(app, merchant, '/v1/checkout_preferences');
      assert.equal(list.statusCode, 200, list.body);
      assert.deepEqual(list.json(), { data: [], has_more: false, next_cursor: null });
    });
  });
});

describeBackends('POST /v1/checkout_preferences rejects redirect and webhook URLs (R18)', (build) => {
  test('refuses redirect and webhook URLs that are not absolute http(s) URLs with a host', async (t) => {
    const { app, merchant } = await build(t);
    await t.test('answers 400 WRONG_INPUT for every URL that is not an absolute http(s) URL with a host', async (t) => {
      assert.ok(REFUSED_URLS.length >= 30);
      for (const field of URL_FIELDS) {
        for (const url of REFUSED_URLS) {
          await t.test(`refuses ${field} ${JSON.stringify(url).slice(0, 60)}`, async () => {
            const res = await createPreferenceRequest(app, merchant, paymentBody({ custom_urls: { [field]: url } }));
            const expected = url.includes('\u0000')
              ? 'request body must not contain NUL characters or unpaired UTF-16 surrogates'
              : url.length > 2048
                ? `custom_urls.${field} must be at most 2048 characters`
                : URL_PROBLEM(field);
            assertWrongInput(res, [expected]);
          });
        }
      }
    });

    await t.test('answers 400 WRONG_INPUT for URLs carrying a user name or password', async (t) => {
      for (const field of URL_FIELDS) {
        for (const url of WITH_CREDENTIALS) {
          await t.test(`refuses ${field} ${url}`, async () => {
            const res = await createPreferenceRequest(app, merchant, paymentBody({ custom_urls: { [field]: url } }));
            assertWrongInput(res, [CREDENTIALS_IN_URL(field)]);
          });
        }
      }
    });

    await t.test('answers 400 WRONG_INPUT for a 4 KB URL', async () => {
      for (const field of URL_FIELDS) {
        const url = `https://good.example/?q=${'a'.repeat(4096)}`;
        assertWrongInputAbout(
          await createPreferenceRequest(app, merchant, paymentBody({ custom_urls: { [field]: url } })),
          'custom_urls',
          `custom_urls.${field} must NOT have more than 4096 characters`,
        );
      }
    });

    await t.test('answers 400 WRONG_INPUT when custom_urls or a member has the wrong type', async () => {
      assertWrongInput(
        await createPreferenceRequest(app, merchant, paymentBody({ custom_urls: 'https://shop.example/' })),
        ['custom_urls must be of type object or null'],
      );
      const res = await createPreferenceRequest(
        app,
        merchant,
        paymentBody({ custom_urls: { status_changes_webhook: 1 } }),
      );
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(
        errorBody(res.body).messages[0],
        'custom_urls.status_changes_webhook must be of type string or null',
      );
    });
  });
});

describeBackends('POST /v1/checkout_preferences with type SUBSCRIPTION rejects', (build) => {
  test('refuses a SUBSCRIPTION request without a usable payment link or method', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('answers 400 WRONG_INPUT when payment_link_id is missing or empty', async () => {
      const { app, merchant } = await fresh();
      for (const body of [
        { type: 'SUBSCRIPTION', origin: 'API' },
        { type: 'SUBSCRIPTION', origin: 'API', payment_link_id: '' },
        { type: 'SUBSCRIPTION', origin: 'API', payment_link_id: null },
      ]) {
        assertWrongInput(await createPreferenceRequest(app, merchant, body), [
          'payment_link_id is required for a SUBSCRIPTION preference',
        ]);
      }
    });

    await t.test('answers 400 WRONG_INPUT for an unknown payment_link_id, well-formed or not', async () => {
      const { app, merchant } = await fresh();
      for (const id of [UNKNOWN_ID, 'nope', 'plan_gold', 'x'.repeat(64)]) {
        assertWrongInput(
          await createPreferenceRequest(app, merchant, { type: 'SUBSCRIPTION', origin: 'API', payment_link_id: id }),
          [LINK_UNUSABLE],
        );
      }
    });

    await t.test('accepts payment_link_id given as a number and looks it up as a string id', async () => {
      const { app, merchant } = await fresh();
      assertWrongInput(
        await createPreferenceRequest(app, merchant, { type: 'SUBSCRIPTION', origin: 'API', payment_link_id: 12345 }),
        [LINK_UNUSABLE],
      );
      assertWrongInput(
        await createPreferenceRequest(app, merchant, { type: 'SUBSCRIPTION', origin: 'API', payment_link_id: 1.5 }),
        ['payment_link_id must be of type string or integer or null'],
      );
    });

    await t.test('answers 400 WRONG_INPUT for an archived payment link', async () => {
      const { app, merchant } = await fresh();
      const link = await createPaymentLink(app, merchant);
      const archived = await app.inject({
        method: 'POST',
        url: `/v1/payment_links/${link.id}/archive`,
        headers: merchant.authHeaders,
      });
      assert.equal(archived.statusCode, 200, archived.body);
      assertWrongInput(
        await createPreferenceRequest(app, merchant, { type: 'SUBSCRIPTION', origin: 'API', payment_link_id: link.id }),
        [LINK_UNUSABLE],
      );
    });

    await t.test("answers 400 WRONG_INPUT for another merchant's payment link, as for an unknown one", async () => {
      const { app, merchant, createMerchant } = await fresh();
      const other = await createMerchant();
      const link = await createPaymentLink(app, other);
      assertWrongInput(
        await createPreferenceRequest(app, merchant, { type: 'SUBSCRIPTION', origin: 'API', payment_link_id: link.id }),
        [LINK_UNUSABLE],
      );
    });

    await t.test('answers 400 WRONG_INPUT for a payment link of the same merchant in the other mode', async () => {
      const { app, merchant, cobro } = await fresh();
      const live = await cobro.services.merchants.createKeyPair(merchant.id, 'live');
      const liveMerchant = {
        id: merchant.id,
        apiKey: live.apiKey,
        apiSecret: live.apiSecret,
        mode: 'live' as const,
        authHeaders: { 'x-api-key': live.apiKey, 'x-api-secret': live.apiSecret },
      };
      const liveLink = await createPaymentLink(app, liveMerchant);
      assertWrongInput(
        await createPreferenceRequest(app, merchant, {
          type: 'SUBSCRIPTION',
          origin: 'API',
          payment_link_id: liveLink.id,
        }),
        [LINK_UNUSABLE],
      );
    });

    await t.test('answers 400 WRONG_INPUT when no recurrent method of the given types can take the plan', async () => {
      const { app, merchant } = await fresh();
      const link = await createPaymentLink(app, merchant);
      assertWrongInput(
        await createPreferenceRequest(app, merchant, {
          type: 'SUBSCRIPTION',
          origin: 'API',
          payment_link_id: link.id,
          payment_method_types: ['PIX', 'CASH'],
        }),
        [
          'payment_method_types: no payment method can take USD for this amount among payment_method_types with recurrent payments',
        ],
      );
    });

    await t.test('answers 400 WRONG_INPUT for a selected method that does not allow recurrent payments', async () => {
      const { app, merchant, cobro } = await fresh();
      // The built-in catalogue allows recurrence everywhere; add a method that does not.
      const oneOff = {
        id: 'TestNonRecurrentUsd001',
        type: 'CARD' as const,
        countryId: 'ALL',
        currency: 'USD',
        min: '0.10',
        max: '3000.00',
        network: null,
        cashProvider: null,
        cryptoProvider: null,
        allowRecurrentPayment: false,
      };
      await cobro.services.paymentMethods.installCatalog([...DEFAULT_CATALOG, oneOff]);
      const link = await createPaymentLink(app, merchant);
      assertWrongInput(
        await createPreferenceRequest(app, merchant, {
          type: 'SUBSCRIPTION',
          origin: 'API',
          payment_link_id: link.id,
          selected_payment_method_id: oneOff.id,
        }),
        ['selected_payment_method_id: the payment method does not allow recurrent payments'],
      );
      // The same method is fine for a one-time payment.
      const once = await createPreferenceRequest(app, merchant, paymentBody({ selected_payment_method_id: oneOff.id }));
      assert.equal(once.statusCode, 201, once.body);
    });
  });
});
