import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, afterEach, before } from 'node:test';
import type { ValidateFunction } from 'ajv';
import { Ajv } from 'ajv';
import Stripe from 'stripe';

/*
 * A stand-in for Stripe's API, on loopback, for the tests: not Stripe. Every request Cobro's
 * client sends is checked against the request schema of Stripe's published OpenAPI description
 * (vendor/stripe-openapi/, trimmed to the paths Cobro calls): an unknown path or parameter, or a
 * value of the wrong type, is answered 400 as Stripe would and recorded in `violations`, which
 * the tests assert is empty. Objects are kept in memory with Stripe's statuses; POSTs with an
 * Idempotency-Key are replayed as Stripe replays them (the same answer, 500s included; another
 * request under the same key refused); events are signed with the official package's helper.
 *
 * What it cannot show: Stripe's own behaviour (which cards decline, 3-D Secure, Radar, payouts,
 * its limits). It checks shapes and keeps state, nothing more.
 */

type Json = Record<string, unknown>;

type Operation = {
  method: string;
  template: string;
  pattern: RegExp;
  pathParams: string[];
  body: ValidateFunction | null;
  query: ValidateFunction;
};

type Spec = {
  info: { version: string };
  paths: Record<string, Record<string, Json>>;
  components: Json;
};

/** The stand-in's test-only confirm endpoint (not part of Stripe's API; see confirmForTest). */
export const TEST_CONFIRM_PATH = '/_stand-in/confirm';

const SPEC_FILE = new URL('../../vendor/stripe-openapi/spec3.trimmed.json', import.meta.url);

export type StandInAccount = { id: string; secretKey: string; name: string; livemode: boolean };

export type RecordedRequest = {
  method: string;
  path: string;
  operation: string | null;
  idempotencyKey: string | null;
  stripeVersion: string | null;
  params: Json;
};

type Stored = { fingerprint: string; status: number; body: Json };

/** What an off-session charge of a saved card does at the stand-in. */
export type OffSessionOutcome = 'succeed' | 'decline' | 'authentication_required';

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * `a=1&b[c]=2&d[0]=x&d[1]=y` → `{ a: '1', b: { c: '2' }, d: ['x', 'y'] }`: the bracket notation
 * Stripe's form bodies use (an object whose keys are 0..n-1 is the array it encodes).
 */
export function decodeForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) {
      throw new Error(`malformed parameter name ${key}`);
    }
    const path = [match[1] as string, ...[...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] as string)];
    let node = root;
    for (const [i, part] of path.entries()) {
      if (i === path.length - 1) {
        node[part] = value;
      } else {
        node[part] ??= {};
        node = node[part] as Json;
      }
    }
  }
  const arrays = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') {
      return value;
    }
    const entries = Object.entries(value as Json).map(([k, v]) => [k, arrays(v)] as const);
    const keys = entries.map(([k]) => k);
    if (keys.length > 0 && keys.every((k, i) => k === String(i))) {
      return entries.map(([, v]) => v);
    }
    return Object.fromEntries(entries);
  };
  return arrays(root) as Json;
}

function loadOperations(spec: Spec): Operation[] {
  // Form values arrive as text: coercion turns "1000" into the integer the schema wants, as Stripe's own parser does.
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: 'array', validateFormats: false });
  ajv.addSchema({ components: spec.components }, 'stripe');
  const rebased = (schema: unknown) =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"stripe#/components/')) as Json;
  const operations: Operation[] = [];
  for (const [template, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = (op.parameters ?? []) as { in: string; name: string; schema: Json }[];
      const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name);
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '([^/]+)')}$`);
      const bodySchema = (op.requestBody as Json | undefined)?.content as Json | undefined;
      const form = bodySchema?.['application/x-www-form-urlencoded'] as { schema: Json } | undefined;
      const query = {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, p.schema])),
      };
      operations.push({
        method: method.toUpperCase(),
        template,
        pattern,
        pathParams,
        body: form ? ajv.compile(rebased(form.schema)) : null,
        query: ajv.compile(rebased(query)),
      });
    }
  }
  return operations;
}

function errorsOf(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .map((e) =>
      e.keyword === 'additionalProperties'
        ? `unknown parameter ${e.instancePath || '/'}${String((e.params as Json).additionalProperty)}`
        : `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`,
    )
    .join('; ');
}

export class StripeStandIn {
  /** Requests that broke the published contract; every test expects none. */
  readonly violations: string[] = [];
  readonly requests: RecordedRequest[] = [];
  readonly accounts = new Map<string, StandInAccount>();
  readonly webhookEndpoints = new Map<string, Json & { id: string; url: string; secret: string; account: string }>();
  readonly paymentIntents = new Map<string, Json & { id: string; account: string }>();
  readonly refunds = new Map<string, Json & { id: string; account: string }>();
  readonly customers = new Map<string, Json & { id: string; account: string }>();
  /** What the test-only confirm endpoint was asked, in order: `intent id:card`. */
  readonly confirmations: string[] = [];
  /** Cards kept at the stand-in (a payer's card after a first payment that saved it). */
  readonly paymentMethods = new Map<string, Json & { id: string; account: string }>();
  /** What the next off-session charges do, in order (then: they succeed). */
  private readonly offSession: OffSessionOutcome[] = [];
  /** The status the next refunds are created in, as Stripe would answer for a slow payment method or bank. */
  refundStatus: 'succeeded' | 'pending' | 'failed' = 'succeeded';
  readonly apiVersion: string;
  private readonly operations: Operation[];
  private readonly idempotency = new Map<string, Stored>();
  /** `kept: false`: a refusal Stripe makes before starting (429), not kept under the idempotency key. */
  private readonly faults: {
    path: RegExp;
    kind: 'hang' | 'status' | 'drop';
    status: number;
    count: number;
    kept?: boolean;
  }[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;
  url = '';

  private constructor(spec: Spec) {
    this.apiVersion = spec.info.version;
    this.operations = loadOperations(spec);
  }

  static async start(): Promise<StripeStandIn> {
    const standIn = new StripeStandIn(JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as Spec);
    const server = createServer((req, res) => {
      standIn.handle(req, res).catch((error: unknown) => {
        standIn.violations.push(`stand-in failure: ${(error as Error).stack}`);
        if (!res.headersSent) {
          res.writeHead(500).end();
        }
      });
    });
    server.on('connection', (socket) => {
      standIn.sockets.add(socket);
      socket.on('close', () => standIn.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standIn.server = server;
    standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return standIn;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) {
      socket.destroy();
    }
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** An account whose secret key the stand-in accepts; test keys unless `live`. */
  addAccount(options: { live?: boolean; name?: string } = {}): StandInAccount & { publishableKey: string } {
    const mode = options.live ? 'live' : 'test';
    const tail = randomBytes(16).toString('hex');
    const account = {
      id: id('acct'),
      secretKey: `sk_${mode}_${tail}`,
      name: options.name ?? 'Tienda Stand-in',
      livemode: options.live === true,
    };
    this.accounts.set(account.secretKey, account);
    return { ...account, publishableKey: `pk_${mode}_${randomBytes(16).toString('hex')}` };
  }

  /** The next `count` requests to a path matching `path` are carried out but never answered. */
  hang(path: RegExp, count = 1): void {
    this.faults.push({ path, kind: 'hang', status: 0, count, kept: true });
  }

  /**
   * The next `count` requests to a path matching `path` never reach the API: the connection is
   * cut before anything is read or done (Stripe unreachable), so nothing is kept under their key.
   */
  drop(path: RegExp, count = 1): void {
    this.faults.push({ path, kind: 'drop', status: 0, count });
  }

  /** The next `count` requests to a path matching `path` answer `status` (kept under their idempotency key, as Stripe does). */
  fail(path: RegExp, status: number, count = 1): void {
    this.faults.push({ path, kind: 'status', status, count, kept: true });
  }

  /**
   * The next `count` requests to a path matching `path` are turned away with `status` before
   * Stripe starts on them (429: rate limited): nothing is done and nothing is kept under their
   * idempotency key, so a retry under the same key is carried out (Stripe keeps only the answers
   * of requests it began).
   */
  refuse(path: RegExp, status = 429, count = 1): void {
    this.faults.push({ path, kind: 'status', status, count, kept: false });
  }

  /** The next off-session charges of saved cards decline or need the payer, in this order; later ones succeed. */
  nextOffSession(...outcomes: OffSessionOutcome[]): void {
    this.offSession.push(...outcomes);
  }

  /** The payer confirmed and the card was charged: the intent succeeds. */
  succeed(intentId: string, received?: number): Json {
    const intent = this.intent(intentId);
    // The card the payer typed into Stripe's fields; kept for the customer when the intent saves it.
    intent.payment_method ??= this.newCard(intent.account, intent.setup_future_usage ? intent.customer : null).id;
    intent.last_payment_error = null;
    intent.status = 'succeeded';
    intent.last_payment_error = null;
    intent.next_action = null;
    intent.amount_received = received ?? intent.amount;
    intent.latest_charge = id('ch');
    return { ...intent };
  }

  /** A try was declined: the intent goes back to requires_payment_method with the decline. */
  decline(intentId: string): Json {
    const intent = this.intent(intentId);
    intent.status = 'requires_payment_method';
    intent.last_payment_error = {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    };
    return { ...intent };
  }

  /** A refund moves on at Stripe (a pending one done, or failed): its object, for a refund.updated event. */
  settleRefund(refundId: string, status: 'succeeded' | 'failed' = 'succeeded'): Json {
    const refund = this.refunds.get(refundId);
    if (!refund) {
      throw new Error(`the stand-in has no refund ${refundId}`);
    }
    refund.status = status;
    return { ...refund };
  }

  /**
   * The merchant refunds the intent in Stripe's own dashboard, without Cobro: `amount` in
   * Stripe's units (the whole of it by default). The charge, for the charge.refunded event.
   */
  refundInDashboard(intentId: string, amount?: number): Json {
    const intent = this.intent(intentId);
    const refunded = amount ?? Number(intent.amount_received);
    const refund = {
      id: id('re'),
      object: 'refund',
      amount: refunded,
      currency: intent.currency,
      payment_intent: intent.id,
      charge: intent.latest_charge,
      metadata: {},
      status: 'succeeded',
      account: intent.account,
      livemode: intent.livemode,
      created: Math.floor(Date.now() / 1000),
    };
    this.refunds.set(refund.id, refund);
    return this.charge(intentId, { refunded });
  }

  /** The intent's charge as a charge.* event carries it; `refunded` in Stripe's units (the whole of it by default). */
  charge(intentId: string, options: { refunded?: number } = {}): Json {
    const intent = this.intent(intentId);
    const amount = Number(intent.amount_received);
    const refunded = options.refunded ?? amount;
    return {
      id: intent.latest_charge,
      object: 'charge',
      amount,
      amount_captured: amount,
      amount_refunded: refunded,
      refunded: refunded >= amount,
      captured: true,
      paid: true,
      status: 'succeeded',
      currency: intent.currency,
      payment_intent: intent.id,
      metadata: {},
      livemode: intent.livemode,
    };
  }

  /** The payer disputed the intent's charge with their bank: the dispute, for a charge.dispute.created event. */
  dispute(intentId: string, options: { reason?: string; dueBy?: number } = {}): Json {
    const intent = this.intent(intentId);
    return {
      id: id('dp'),
      object: 'dispute',
      amount: intent.amount_received,
      currency: intent.currency,
      charge: intent.latest_charge,
      payment_intent: intent.id,
      reason: options.reason ?? 'fraudulent',
      status: 'needs_response',
      is_charge_refundable: false,
      evidence_details: {
        due_by: options.dueBy ?? Math.floor(Date.now() / 1000) + 7 * 86_400,
        has_evidence: false,
        past_due: false,
        submission_count: 0,
      },
      metadata: {},
      livemode: intent.livemode,
      created: Math.floor(Date.now() / 1000),
    };
  }

  /** The bank asks the payer to authenticate (3-D Secure): the intent waits for the payer. */
  requireAction(intentId: string): Json {
    const intent = this.intent(intentId);
    intent.status = 'requires_action';
    intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: {} };
    return { ...intent };
  }

  /** Stripe is working on it (some payment methods settle later). */
  process(intentId: string): Json {
    const intent = this.intent(intentId);
    intent.status = 'processing';
    return { ...intent };
  }

  /**
   * An event as Stripe would POST it to `endpoint`: the body and its Stripe-Signature, signed
   * with the endpoint's secret (or `secret`) at `timestamp` (seconds; now by default).
   */
  event(
    endpoint: { secret: string; livemode?: boolean },
    type: string,
    object: Json,
    options: { timestamp?: number; secret?: string; id?: string } = {},
  ): { id: string; payload: string; headers: Record<string, string> } {
    const eventId = options.id ?? id('evt');
    const payload = JSON.stringify({
      id: eventId,
      object: 'event',
      api_version: this.apiVersion,
      created: Math.floor(Date.now() / 1000),
      data: { object: { ...object, account: undefined } },
      livemode: endpoint.livemode ?? false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? endpoint.secret,
      ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
    });
    return {
      id: eventId,
      payload,
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
    };
  }

  private newCard(account: string, customer: unknown): Json & { id: string; account: string } {
    const card = {
      id: id('pm'),
      object: 'payment_method',
      type: 'card',
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 },
      customer: typeof customer === 'string' ? customer : null,
      account,
    };
    this.paymentMethods.set(card.id, card);
    return card;
  }

  /** POST /v1/payment_intents with confirm=true and off_session=true: the saved card charged without the payer. */
  private chargeOffSession(intent: Json & { id: string; account: string }, params: Json): [number, Json] {
    const card = this.paymentMethods.get(String(params.payment_method));
    if (!card || card.account !== intent.account || card.customer !== params.customer) {
      return [
        400,
        {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such PaymentMethod: '${String(params.payment_method)}' for this customer`,
          },
        },
      ];
    }
    intent.payment_method = card.id;
    const outcome = this.offSession.shift() ?? 'succeed';
    if (outcome === 'succeed') {
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
      intent.latest_charge = id('ch');
      return [200, { ...intent, account: undefined }];
    }
    // Stripe answers a failed off-session try 402, the intent back in requires_payment_method
    // (docs.stripe.com/payments/save-and-reuse: authentication_required is such a decline).
    const error =
      outcome === 'decline'
        ? { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' }
        : {
            code: 'authentication_required',
            decline_code: 'authentication_required',
            message: 'Your card was declined. This transaction requires authentication.',
          };
    intent.status = 'requires_payment_method';
    intent.last_payment_error = { type: 'card_error', ...error, payment_method: { ...card, account: undefined } };
    return [402, { error: { type: 'card_error', ...error, payment_intent: { ...intent, account: undefined } } }];
  }

  /**
   * Test-only, not Stripe's API: what Stripe does when the payer presses Pay in the Payment
   * Element, for the stand-in Stripe.js of the browser tests. Body: `{ client_secret, card }`,
   * card `good` (succeeds; also completes a pending 3-D Secure), `decline` or `action` (3-D
   * Secure asked). Answers the intent's status, or a card error as Stripe.js reports one.
   */
  private confirmForTest(body: string, res: ServerResponse): void {
    const { client_secret: secret, card } = JSON.parse(body || '{}') as { client_secret?: string; card?: string };
    const intent = [...this.paymentIntents.values()].find((candidate) => candidate.client_secret === secret);
    this.confirmations.push(`${intent?.id ?? 'unknown'}:${card ?? ''}`);
    const answer = (status: number, payload: Json) => {
      res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end(JSON.stringify(payload));
    };
    if (!intent || intent.status === 'succeeded' || intent.status === 'canceled') {
      answer(400, {
        error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'not confirmable' },
      });
      return;
    }
    if (card === 'decline') {
      const declined = this.decline(intent.id);
      answer(402, { error: declined.last_payment_error as Json });
      return;
    }
    if (card === 'action') {
      answer(200, { id: intent.id, status: this.requireAction(intent.id).status });
      return;
    }
    answer(200, { id: intent.id, status: this.succeed(intent.id).status });
  }

  private intent(intentId: string): Json & { id: string; account: string } {
    const intent = this.paymentIntents.get(intentId);
    if (!intent) {
      throw new Error(`the stand-in has no intent ${intentId}`);
    }
    return intent;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const method = req.method ?? 'GET';
    if (url.pathname === TEST_CONFIRM_PATH) {
      this.confirmForTest(Buffer.concat(chunks).toString('utf8'), res);
      return;
    }
    const header = (name: string) => {
      const value = req.headers[name];
      return typeof value === 'string' ? value : null;
    };
    const send = (status: number, body: Json, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...headers });
      res.end(JSON.stringify(body));
    };
    const refuse = (status: number, type: string, message: string, code?: string) =>
      send(status, { error: { type, message, ...(code ? { code } : {}) } });

    const operation = this.operations.find((op) => op.method === method && op.pattern.test(url.pathname));
    const recorded: RecordedRequest = {
      method,
      path: url.pathname,
      operation: operation ? `${method} ${operation.template}` : null,
      idempotencyKey: header('idempotency-key'),
      stripeVersion: header('stripe-version'),
      params: {},
    };
    this.requests.push(recorded);
    if (!operation) {
      this.violations.push(`${method} ${url.pathname}: not an operation of the vendored description`);
      return refuse(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${url.pathname}).`);
    }
    const auth = /^Bearer (.+)$/.exec(header('authorization') ?? '');
    const account = auth ? this.accounts.get(auth[1] as string) : undefined;
    if (!account) {
      // Stripe masks the key it refuses the same way.
      return refuse(401, 'invalid_request_error', 'Invalid API Key provided: sk_****');
    }
    if (recorded.stripeVersion !== this.apiVersion) {
      this.violations.push(
        `${recorded.operation}: Stripe-Version ${recorded.stripeVersion}, the description is ${this.apiVersion}`,
      );
    }

    // The contract: the body (form-encoded, bracket notation) and the query, against the description.
    const text = Buffer.concat(chunks).toString('utf8');
    let params: Json;
    try {
      params = text === '' ? {} : decodeForm(text);
    } catch (error) {
      this.violations.push(`${recorded.operation}: ${(error as Error).message}`);
      return refuse(400, 'invalid_request_error', (error as Error).message);
    }
    if (text !== '' && !(header('content-type') ?? '').startsWith('application/x-www-form-urlencoded')) {
      this.violations.push(`${recorded.operation}: a body sent as ${header('content-type')}`);
    }
    if (operation.body ? !operation.body(params) : text !== '') {
      const why = operation.body ? errorsOf(operation.body) : 'a body where the operation takes none';
      this.violations.push(`${recorded.operation}: ${why}`);
      return refuse(400, 'invalid_request_error', why, 'parameter_invalid');
    }
    const query = decodeForm(url.search.slice(1));
    if (!operation.query(query)) {
      const why = errorsOf(operation.query);
      this.violations.push(`${recorded.operation} query: ${why}`);
      return refuse(400, 'invalid_request_error', why, 'parameter_invalid');
    }
    recorded.params = params;
    const pathValues = Object.fromEntries(
      operation.pathParams.map((name, i) => [
        name,
        decodeURIComponent(operation.pattern.exec(url.pathname)?.[i + 1] ?? ''),
      ]),
    );

    // Faults apply in the order they were asked for: a drop only when it is the next one due.
    const down = this.faults.find((f) => f.count > 0 && f.path.test(url.pathname));
    if (down?.kind === 'drop') {
      down.count--;
      req.socket.destroy();
      return;
    }

    // Idempotency, as Stripe keeps it: per account and key, the first answer replayed.
    const key = method === 'POST' ? recorded.idempotencyKey : null;
    const storeKey = key ? `${account.id}:${key}` : null;
    const fingerprint = `${method} ${url.pathname} ${JSON.stringify(params)}`;
    const stored = storeKey ? this.idempotency.get(storeKey) : undefined;
    if (stored) {
      if (stored.fingerprint !== fingerprint) {
        return send(400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          },
        });
      }
      return send(stored.status, stored.body, { 'idempotent-replayed': 'true' });
    }
    const fault = this.faults.find((f) => f.count > 0 && f.kind !== 'drop' && f.path.test(url.pathname));
    if (fault) {
      fault.count--;
    }
    const [status, body] =
      fault?.kind === 'status'
        ? [fault.status, { error: { type: 'api_error', message: 'Something went wrong on the stand-in.' } }]
        : this.execute(`${method} ${operation.template}`, account, params, pathValues, query);
    if (storeKey && status !== 400 && status !== 401 && fault?.kept !== false) {
      this.idempotency.set(storeKey, { fingerprint, status, body });
    }
    if (fault?.kind === 'hang') {
      // Carried out, never answered: the caller's timeout decides.
      return;
    }
    return send(status, body, fault?.kind === 'status' ? { 'stripe-should-retry': 'false' } : {});
  }

  private execute(
    operation: string,
    account: StandInAccount,
    params: Json,
    path: Record<string, string>,
    query: Json = {},
  ): [number, Json] {
    const created = Math.floor(Date.now() / 1000);
    const common = { livemode: account.livemode, created };
    const missing = (what: string, value: string): [number, Json] => [
      404,
      { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${value}'` } },
    ];
    const own = <T extends { account: string }>(map: Map<string, T>, key: string) => {
      const found = map.get(key);
      return found && found.account === account.id ? found : undefined;
    };
    const visible = (object: Json) => ({ ...object, account: undefined });
    switch (operation) {
      case 'GET /v1/account':
        return [
          200,
          {
            id: account.id,
            object: 'account',
            business_profile: { name: account.name },
            settings: { dashboard: { display_name: account.name } },
            charges_enabled: true,
            payouts_enabled: true,
            country: 'MX',
          },
        ];
      case 'POST /v1/webhook_endpoints': {
        const endpoint = {
          id: id('we'),
          object: 'webhook_endpoint',
          url: String(params.url),
          enabled_events: params.enabled_events,
          description: params.description ?? null,
          metadata: params.metadata ?? {},
          api_version: params.api_version ?? null,
          status: 'enabled',
          secret: `whsec_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`,
          account: account.id,
          ...common,
        };
        this.webhookEndpoints.set(endpoint.id, endpoint);
        return [200, visible(endpoint)];
      }
      case 'GET /v1/webhook_endpoints/{webhook_endpoint}': {
        const endpoint = own(this.webhookEndpoints, path.webhook_endpoint ?? '');
        return endpoint
          ? [200, visible({ ...endpoint, secret: undefined })]
          : missing('webhook endpoint', path.webhook_endpoint ?? '');
      }
      case 'DELETE /v1/webhook_endpoints/{webhook_endpoint}': {
        const endpoint = own(this.webhookEndpoints, path.webhook_endpoint ?? '');
        if (!endpoint) {
          return missing('webhook endpoint', path.webhook_endpoint ?? '');
        }
        this.webhookEndpoints.delete(endpoint.id);
        return [200, { id: endpoint.id, object: 'webhook_endpoint', deleted: true }];
      }
      case 'POST /v1/customers': {
        const customer = {
          id: id('cus'),
          object: 'customer',
          email: params.email ?? null,
          name: params.name ?? null,
          metadata: params.metadata ?? {},
          account: account.id,
          ...common,
        };
        this.customers.set(customer.id, customer);
        return [200, visible(customer)];
      }
      case 'POST /v1/payment_intents': {
        if (params.customer !== undefined && !own(this.customers, String(params.customer))) {
          return missing('customer', String(params.customer));
        }
        const intentId = id('pi');
        const intent = {
          id: intentId,
          object: 'payment_intent',
          amount: Number(params.amount),
          amount_received: 0,
          currency: String(params.currency),
          status: 'requires_payment_method',
          client_secret: `${intentId}_secret_${randomBytes(12).toString('hex')}`,
          capture_method: 'automatic',
          confirmation_method: 'automatic',
          customer: params.customer ?? null,
          description: params.description ?? null,
          metadata: params.metadata ?? {},
          payment_method: null,
          payment_method_types: params.payment_method_types ?? ['card'],
          setup_future_usage: params.setup_future_usage ?? null,
          last_payment_error: null,
          latest_charge: null,
          account: account.id,
          ...common,
        };
        if (String(params.confirm) === 'true' && String(params.off_session) === 'true') {
          const [status, body] = this.chargeOffSession(intent, params);
          if (status !== 400) {
            this.paymentIntents.set(intentId, intent);
          }
          return [status, body];
        }
        this.paymentIntents.set(intentId, intent);
        return [200, visible(intent)];
      }
      case 'GET /v1/payment_intents': {
        const listed = [...this.paymentIntents.values()]
          .filter((i) => i.account === account.id && (query.customer === undefined || i.customer === query.customer))
          .reverse()
          .slice(0, Number(query.limit ?? 10));
        return [
          200,
          { object: 'list', url: '/v1/payment_intents', has_more: false, data: listed.map((i) => visible(i)) },
        ];
      }
      case 'GET /v1/payment_intents/{intent}': {
        const intent = own(this.paymentIntents, path.intent ?? '');
        if (!intent) {
          return missing('payment_intent', path.intent ?? '');
        }
        const expand = Array.isArray(query.expand) ? query.expand : [];
        const card = expand.includes('payment_method') ? this.paymentMethods.get(String(intent.payment_method)) : null;
        return [200, visible({ ...intent, ...(card ? { payment_method: visible(card) } : {}) })];
      }
      case 'POST /v1/payment_intents/{intent}/cancel': {
        const intent = own(this.paymentIntents, path.intent ?? '');
        if (!intent) {
          return missing('payment_intent', path.intent ?? '');
        }
        if (intent.status === 'succeeded' || intent.status === 'canceled') {
          return [
            400,
            {
              error: {
                type: 'invalid_request_error',
                code: 'payment_intent_unexpected_state',
                message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
              },
            },
          ];
        }
        intent.status = 'canceled';
        intent.cancellation_reason = params.cancellation_reason ?? null;
        intent.canceled_at = created;
        return [200, visible(intent)];
      }
      case 'POST /v1/refunds': {
        const intent = own(this.paymentIntents, String(params.payment_intent ?? ''));
        if (!intent) {
          return missing('payment_intent', String(params.payment_intent ?? ''));
        }
        if (intent.status !== 'succeeded') {
          return [
            400,
            {
              error: {
                type: 'invalid_request_error',
                code: 'charge_not_refundable',
                message: `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
              },
            },
          ];
        }
        const refunded = [...this.refunds.values()].some(
          (r) => r.payment_intent === intent.id && r.status !== 'failed' && r.status !== 'canceled',
        );
        if (refunded) {
          return [
            400,
            {
              error: {
                type: 'invalid_request_error',
                code: 'charge_already_refunded',
                message: `Charge ${String(intent.latest_charge)} has already been refunded.`,
              },
            },
          ];
        }
        const refund = {
          id: id('re'),
          object: 'refund',
          amount: intent.amount_received,
          currency: intent.currency,
          payment_intent: intent.id,
          charge: intent.latest_charge,
          metadata: params.metadata ?? {},
          status: this.refundStatus,
          account: account.id,
          ...common,
        };
        this.refunds.set(refund.id, refund);
        return [200, visible(refund)];
      }
      case 'GET /v1/refunds/{refund}': {
        const refund = own(this.refunds, path.refund ?? '');
        return refund ? [200, visible(refund)] : missing('refund', path.refund ?? '');
      }
      default:
        this.violations.push(`${operation}: in the description, but the stand-in does not carry it out`);
        return [501, { error: { type: 'api_error', message: `the stand-in does not carry out ${operation}` } }];
    }
  }
}

/**
 * One stand-in for a test file: started before its first test, closed after its last; after
 * each test, no request may have broken the published contract. Returns a getter (the stand-in
 * exists once the file's tests start).
 */
export function useStripeStandIn(): () => StripeStandIn {
  let standIn: StripeStandIn | null = null;
  before(async () => {
    standIn = await StripeStandIn.start();
  });
  after(async () => {
    await standIn?.close();
  });
  afterEach(() => {
    assert.deepEqual(standIn?.violations ?? [], [], 'every request Cobro sent fits the published contract');
  });
  return () => {
    if (!standIn) {
      throw new Error('the Stripe stand-in starts with the first test of the file');
    }
    return standIn;
  };
}
