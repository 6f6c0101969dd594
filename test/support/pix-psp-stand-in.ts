import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import { createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { after, afterEach, before } from 'node:test';
import type { TLSSocket } from 'node:tls';
import type { ValidateFunction } from 'ajv';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { crc16Ccitt } from '../../src/providers/pix/crc16.ts';
import type { IssuedCertificate } from './throwaway-ca.ts';
import { ThrowawayCa } from './throwaway-ca.ts';

/*
 * A stand-in for a PSP's API Pix, on loopback, for the tests: not a PSP. HTTPS with mutual TLS:
 * its server certificate and every client certificate come from a CA the test makes; a client
 * without a certificate of that CA is refused in the handshake, and a token is given only to the
 * client id whose certificate it was issued with. Every request Cobro sends, every answer the
 * stand-in gives and every notification it posts are checked against the Central Bank's
 * published description (vendor/pix-api-openapi/, trimmed to the paths Cobro calls): a breach is
 * answered 400 with the specification's problem details and recorded in `violations`, which the
 * tests assert is empty.
 *
 * It keeps charges (`cob`) and refunds (`devolucao`) in memory with the specification's
 * statuses; `PUT /cob/{txid}` with a txid already used answers the same charge (or refuses a
 * different body); it pays a txid on demand, in full or in part, and words the notification the
 * PSP would POST. What it cannot show: a real PSP's limits, its timing, settlement, and how it
 * words its errors.
 */

type Json = Record<string, unknown>;

type Spec = { paths: Record<string, Record<string, Json>>; components: Json; info: { version: string } };

type Operation = {
  method: string;
  template: string;
  pattern: RegExp;
  body: ValidateFunction | null;
  /** The members the request body's schema names (its objects leave others open; Cobro sends none). */
  bodyMembers: Set<string> | null;
  /** Answer schemas by status. */
  answers: Map<number, ValidateFunction | null>;
};

export type PixProfileName = 'bcb' | 'efi' | 'inter';

export type StandInClient = {
  clientId: string;
  clientSecret: string;
  certificate: IssuedCertificate;
};

export type StandInCharge = {
  txid: string;
  clientId: string;
  request: Json;
  status: string;
  revisao: number;
  criacao: string;
  location: string;
  locId: number;
  pixCopiaECola: string;
  pix: Json[];
};

const SPEC_FILE = new URL('../../vendor/pix-api-openapi/openapi.trimmed.json', import.meta.url);

const PROFILE_PATHS: Record<PixProfileName, { api: string; token: string }> = {
  // bcb: the API root is the stand-in's /api, and the token URL its default, {base}/oauth/token.
  bcb: { api: '/api', token: '/api/oauth/token' },
  efi: { api: '/v2', token: '/oauth/token' },
  inter: { api: '/pix/v2', token: '/oauth/v2/token' },
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv, formats: string[]) => Ajv;

function loadOperations(spec: Spec): { operations: Operation[]; notification: ValidateFunction } {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv, ['date-time', 'uri']);
  // `int32` is the specification's word for an integer that fits 32 bits.
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
  ajv.addSchema({ components: spec.components }, 'pix');
  const rebased = (schema: unknown) =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"pix#/components/')) as Json;
  const resolve = (value: Json): Json => {
    const ref = value.$ref;
    if (typeof ref !== 'string') {
      return value;
    }
    const [, kind, name] = /^#\/components\/([A-Za-z]+)\/(.+)$/.exec(ref) ?? [];
    return resolve(((spec.components[kind as string] as Json)[name as string] ?? {}) as Json);
  };
  const membersOf = (schema: Json, into: Set<string>): Set<string> => {
    const resolved = resolve(schema);
    for (const key of Object.keys((resolved.properties ?? {}) as Json)) {
      into.add(key);
    }
    for (const part of ['allOf', 'oneOf', 'anyOf']) {
      for (const sub of (resolved[part] ?? []) as Json[]) {
        membersOf(sub, into);
      }
    }
    return into;
  };
  const jsonSchemaOf = (content: Json | undefined): ValidateFunction | null => {
    const media = (content?.['application/json'] ?? content?.['application/problem+json']) as Json | undefined;
    return media?.schema ? ajv.compile(rebased(media.schema)) : null;
  };
  const operations: Operation[] = [];
  let notification: ValidateFunction | null = null;
  for (const [template, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (method === 'parameters') {
        continue;
      }
      const requestBody = op.requestBody ? resolve(op.requestBody as Json) : null;
      const answers = new Map<number, ValidateFunction | null>();
      for (const [status, answer] of Object.entries((op.responses ?? {}) as Json)) {
        answers.set(Number(status), jsonSchemaOf(resolve(answer as Json).content as Json | undefined));
      }
      operations.push({
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '([^/]+)')}$`),
        body: requestBody ? jsonSchemaOf(requestBody.content as Json) : null,
        bodyMembers: requestBody
          ? membersOf(((requestBody.content as Json)['application/json'] as Json).schema as Json, new Set())
          : null,
        answers,
      });
      for (const callback of Object.values((op.callbacks ?? {}) as Json)) {
        for (const post of Object.values(callback as Json)) {
          const body = resolve(((post as Json).post as Json).requestBody as Json);
          notification = jsonSchemaOf(body.content as Json);
        }
      }
    }
  }
  if (!notification) {
    throw new Error('the vendored description has no notification callback');
  }
  return { operations, notification };
}

function errorsOf(validate: ValidateFunction): string {
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
}

/** An EMV TLV field. */
const tlv = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;

const alnum = (length: number) => {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => chars[b % chars.length]).join('');
};

const centavos = (valor: string) => BigInt(valor.replace('.', ''));
const valorOf = (minor: bigint) => {
  const text = minor.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
};

export class PixPspStandIn {
  readonly violations: string[] = [];
  readonly requests: {
    method: string;
    path: string;
    operation: string | null;
    body: unknown;
    clientId: string | null;
  }[] = [];
  readonly clients = new Map<string, StandInClient>();
  readonly charges = new Map<string, StandInCharge>();
  readonly refunds = new Map<string, Json & { e2eid: string }>();
  readonly webhooks = new Map<string, { webhookUrl: string; clientId: string; criacao: string }>();
  /** Seconds a token lives (the PSP's `expires_in`). */
  tokenLifetimeSeconds = 3600;
  /** What a new refund's status is: DEVOLVIDO at once, or EM_PROCESSAMENTO until `settleRefunds()`. */
  refundStatus: 'DEVOLVIDO' | 'EM_PROCESSAMENTO' = 'DEVOLVIDO';
  url = '';
  tokensIssued = 0;
  private readonly tokens = new Map<string, { clientId: string; expiresAt: number }>();
  private readonly operations: Operation[];
  private readonly notificationSchema: ValidateFunction;
  private readonly faults: { path: RegExp; kind: 'hang' | 'status' | 'oversize'; status: number; count: number }[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;
  private locSeq = 0;

  private constructor(
    spec: Spec,
    readonly ca: ThrowawayCa,
    readonly profile: PixProfileName,
  ) {
    ({ operations: this.operations, notification: this.notificationSchema } = loadOperations(spec));
  }

  static async start(options: { ca?: ThrowawayCa; profile?: PixProfileName } = {}): Promise<PixPspStandIn> {
    const ca = options.ca ?? (await ThrowawayCa.create());
    const standIn = new PixPspStandIn(
      JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as Spec,
      ca,
      options.profile ?? 'bcb',
    );
    const serverCert = await ca.server();
    const server = createServer(
      // The PSP demands a client certificate of its own CA: anything else fails the handshake.
      { key: serverCert.key, cert: serverCert.cert, ca: [ca.cert], requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        standIn.handle(req, res).catch((error: unknown) => {
          standIn.violations.push(`stand-in failure: ${(error as Error).stack}`);
          if (!res.headersSent) {
            res.writeHead(500).end();
          }
        });
      },
    );
    server.on('connection', (socket: Socket) => {
      standIn.sockets.add(socket);
      socket.on('close', () => standIn.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standIn.server = server;
    standIn.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return standIn;
  }

  /** The base URL a merchant gives `--base-url` for this stand-in's profile (its API root, or the bare host where the profile adds the path). */
  get baseUrl(): string {
    return this.profile === 'bcb' ? `${this.url}${PROFILE_PATHS.bcb.api}` : this.url;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) {
      socket.destroy();
    }
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** A merchant's API credentials: a client id and secret, and the client certificate issued with them. */
  async addClient(): Promise<StandInClient> {
    const clientId = `Client_Id_${alnum(16)}`;
    const client = {
      clientId,
      clientSecret: `Client_Secret_${alnum(24)}`,
      certificate: await this.ca.client(clientId),
    };
    this.clients.set(clientId, client);
    return client;
  }

  /** Every token given so far stops working (the PSP revoked them, or they lapsed early). */
  expireTokens(): void {
    this.tokens.clear();
  }

  /** The next `count` requests to a path matching `path` are carried out but never answered. */
  hang(path: RegExp, count = 1): void {
    this.faults.push({ path, kind: 'hang', status: 0, count });
  }

  /** The next `count` requests to a path matching `path` answer a body of a megabyte. */
  oversize(path: RegExp, count = 1): void {
    this.faults.push({ path, kind: 'oversize', status: 200, count });
  }

  /** The next `count` requests to a path matching `path` answer `status` with a problem (503: the PSP is down). */
  fail(path: RegExp, status: number, count = 1): void {
    this.faults.push({ path, kind: 'status', status, count });
  }

  /**
   * The payer pays the charge: a Pix of `amountMinor` (its full amount by default) arrives, and the
   * charge is CONCLUIDA, as a PSP concludes it on the first Pix (a partial one only where the
   * charge let the payer change the amount; the stand-in takes it to show Cobro refuses it).
   */
  pay(txid: string, amountMinor?: bigint): Json {
    const charge = this.charge(txid);
    const amount = amountMinor ?? centavos(String((charge.request.valor as Json).original));
    const pix = {
      endToEndId: `E${alnum(31)}`,
      txid,
      valor: valorOf(amount),
      chave: charge.request.chave,
      horario: new Date().toISOString(),
    };
    charge.pix.push(pix);
    charge.status = 'CONCLUIDA';
    return pix;
  }

  /**
   * The notification the PSP POSTs for `txids` (paid ones list their Pix; others a made-up one, as
   * a spoofed notification would): where it goes and its body, checked against the specification.
   * `inter` sends a bare array to the URL as registered; the others `{"pix": [...]}` to `{url}/pix`.
   */
  notification(webhookUrl: string, txids: string[]): { url: string; path: string; body: string } {
    const pix = txids.flatMap((txid) => {
      const charge = this.charges.get(txid);
      return charge && charge.pix.length > 0
        ? charge.pix
        : [{ endToEndId: `E${alnum(31)}`, txid, valor: '1.00', horario: new Date().toISOString() }];
    });
    const wrapped = { pix };
    if (!this.notificationSchema(wrapped)) {
      this.violations.push(`notification: ${errorsOf(this.notificationSchema)}`);
    }
    const url = this.profile === 'inter' ? webhookUrl : `${webhookUrl}/pix`;
    return {
      url,
      path: new URL(url).pathname,
      body: JSON.stringify(this.profile === 'inter' ? pix : wrapped),
    };
  }

  /** Refunds EM_PROCESSAMENTO become DEVOLVIDO. */
  settleRefunds(): void {
    for (const refund of this.refunds.values()) {
      if (refund.status === 'EM_PROCESSAMENTO') {
        refund.status = 'DEVOLVIDO';
        (refund.horario as Json).liquidacao = new Date().toISOString();
      }
    }
  }

  charge(txid: string): StandInCharge {
    const charge = this.charges.get(txid);
    if (!charge) {
      throw new Error(`the stand-in has no charge ${txid}`);
    }
    return charge;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) {
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'https://stand-in');
    const method = req.method ?? 'GET';
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    const paths = PROFILE_PATHS[this.profile];
    const send = (status: number, body: Json | null, contentType = 'application/json') => {
      res.writeHead(status, body === null ? {} : { 'content-type': contentType });
      res.end(body === null ? undefined : JSON.stringify(body));
    };
    const problem = (status: number, title: string, detail: string, violacoes?: Json[]) =>
      send(
        status,
        {
          type: `https://pix.bcb.gov.br/api/v2/error/${title.replace(/\s/g, '')}`,
          title,
          status,
          detail,
          ...(violacoes ? { violacoes } : {}),
        },
        'application/problem+json',
      );

    if (method === 'POST' && url.pathname === paths.token) {
      this.requests.push({ method, path: url.pathname, operation: 'token', body: text, clientId: null });
      return this.issueToken(req, text, peer.fingerprint256, send);
    }
    if (!url.pathname.startsWith(`${paths.api}/`)) {
      this.violations.push(`${method} ${url.pathname}: outside the API root ${paths.api}`);
      return problem(404, 'Nao Encontrado', 'no such path');
    }
    const path = url.pathname.slice(paths.api.length);
    const operation = this.operations.find((op) => op.method === method && op.pattern.test(path));
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const token = this.tokens.get(bearer);
    const recorded = {
      method,
      path,
      operation: operation ? `${method} ${operation.template}` : null,
      body: text === '' ? null : (JSON.parse(text) as unknown),
      clientId: token?.clientId ?? null,
    };
    this.requests.push(recorded);
    if (!operation) {
      this.violations.push(`${method} ${path}: not an operation of the vendored description`);
      return problem(404, 'Nao Encontrado', `no operation ${method} ${path}`);
    }
    if (!token || token.expiresAt <= Date.now()) {
      return problem(401, 'Nao Autorizado', 'token missing, expired or revoked');
    }
    // The token is bound to the certificate it was issued with.
    if (this.clients.get(token.clientId)?.certificate.fingerprint256 !== peer.fingerprint256) {
      return problem(403, 'Acesso Negado', 'the client certificate is not the one of this token');
    }
    let body: unknown = null;
    if (operation.body) {
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        this.violations.push(`${recorded.operation}: a body sent as ${req.headers['content-type']}`);
      }
      body = recorded.body;
      const unknown = Object.keys((body ?? {}) as Json).filter((key) => !operation.bodyMembers?.has(key));
      if (unknown.length > 0) {
        this.violations.push(`${recorded.operation}: members the specification does not have: ${unknown.join(', ')}`);
      }
      if (!operation.body(body)) {
        const why = errorsOf(operation.body);
        this.violations.push(`${recorded.operation}: ${why}`);
        return problem(400, 'Requisicao Invalida', why, [{ razao: why, propriedade: 'body' }]);
      }
    } else if (text !== '') {
      this.violations.push(`${recorded.operation}: a body where the operation takes none`);
    }
    const params = operation.pattern.exec(path)?.slice(1).map(decodeURIComponent) ?? [];
    const fault = this.faults.find((f) => f.count > 0 && f.path.test(path));
    if (fault) {
      fault.count--;
      if (fault.kind === 'hang') {
        // Carried out, never answered: the caller's time limit decides (a lost answer, or a crash before it was read).
        this.execute(`${method} ${operation.template}`, token.clientId, params, body as Json);
        return;
      }
      if (fault.kind === 'oversize') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ padding: 'x'.repeat(1024 * 1024) }));
      }
      return problem(fault.status, 'Servico Indisponivel', 'the stand-in was told to fail');
    }
    const [status, answer] = this.execute(`${method} ${operation.template}`, token.clientId, params, body as Json);
    if (!operation.answers.has(status)) {
      this.violations.push(`${recorded.operation}: answered ${status}, a status the description does not list`);
    } else {
      const validate = operation.answers.get(status);
      if (validate && !validate(answer)) {
        this.violations.push(`${recorded.operation} answer ${status}: ${errorsOf(validate)}`);
      }
    }
    if (answer && typeof answer.title === 'string' && status >= 400) {
      return send(status, answer, 'application/problem+json');
    }
    return send(status, answer);
  }

  private issueToken(
    req: IncomingMessage,
    text: string,
    fingerprint: string,
    send: (status: number, body: Json | null) => void,
  ): void {
    let clientId = '';
    let secret = '';
    let grant = '';
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      clientId = decoded.slice(0, decoded.indexOf(':'));
      secret = decoded.slice(decoded.indexOf(':') + 1);
    }
    const type = req.headers['content-type'] ?? '';
    if (this.profile === 'efi') {
      if (!type.startsWith('application/json')) {
        this.violations.push(`token: efi takes a JSON body, got ${type}`);
      }
      grant = String((JSON.parse(text || '{}') as Json).grant_type ?? '');
    } else {
      if (!type.startsWith('application/x-www-form-urlencoded')) {
        this.violations.push(`token: a form body is expected, got ${type}`);
      }
      const form = new URLSearchParams(text);
      grant = form.get('grant_type') ?? '';
      if (this.profile === 'inter') {
        clientId = form.get('client_id') ?? '';
        secret = form.get('client_secret') ?? '';
        if (!form.get('scope')?.includes('cob.write')) {
          this.violations.push('token: inter needs the scope list');
        }
      }
    }
    if (grant !== 'client_credentials') {
      this.violations.push(`token: grant_type ${grant}`);
      send(400, { error: 'unsupported_grant_type' });
      return;
    }
    const client = this.clients.get(clientId);
    if (!client || client.clientSecret !== secret || client.certificate.fingerprint256 !== fingerprint) {
      send(401, { error: 'invalid_client', error_description: 'client authentication failed' });
      return;
    }
    const token = alnum(40);
    this.tokens.set(token, { clientId, expiresAt: Date.now() + this.tokenLifetimeSeconds * 1000 });
    this.tokensIssued++;
    send(200, {
      access_token: token,
      token_type: 'Bearer',
      expires_in: this.tokenLifetimeSeconds,
      scope: 'cob.write cob.read pix.write pix.read webhook.write webhook.read',
    });
  }

  private execute(operation: string, clientId: string, params: string[], body: Json): [number, Json | null] {
    const notFound = (what: string): [number, Json] => [
      404,
      { type: 'https://pix.bcb.gov.br/api/v2/error/NaoEncontrado', title: 'Nao Encontrado', status: 404, detail: what },
    ];
    const invalid = (detail: string, propriedade: string): [number, Json] => [
      400,
      {
        type: 'https://pix.bcb.gov.br/api/v2/error/RequisicaoInvalida',
        title: 'Requisicao Invalida',
        status: 400,
        detail,
        violacoes: [{ razao: detail, propriedade }],
      },
    ];
    const [first = '', second = ''] = params;
    switch (operation) {
      case 'PUT /cob/{txid}': {
        // The specification's patterns are not anchored; a PSP holds the txid to 26–35 characters.
        if (!/^[a-zA-Z0-9]{26,35}$/.test(first)) {
          this.violations.push(`PUT /cob: txid ${first} is not 26–35 letters or digits`);
          return invalid('txid must be 26 to 35 letters or digits', 'txid');
        }
        const existing = this.charges.get(first);
        if (existing) {
          if (existing.clientId !== clientId || JSON.stringify(existing.request) !== JSON.stringify(body)) {
            return invalid(`txid ${first} was already used for another charge`, 'txid');
          }
          return [201, this.cobView(existing, false)];
        }
        const locId = ++this.locSeq;
        const location = `${this.url}/qr/v2/${randomBytes(16).toString('hex')}`;
        const charge: StandInCharge = {
          txid: first,
          clientId,
          request: body,
          status: 'ATIVA',
          revisao: 0,
          criacao: new Date().toISOString(),
          location,
          locId,
          pixCopiaECola: brCode(location, String((body.valor as Json).original)),
          pix: [],
        };
        this.charges.set(first, charge);
        return [201, this.cobView(charge, false)];
      }
      case 'GET /cob/{txid}': {
        const charge = this.charges.get(first);
        return charge && charge.clientId === clientId ? [200, this.cobView(charge, true)] : notFound(`no cob ${first}`);
      }
      case 'PATCH /cob/{txid}': {
        const charge = this.charges.get(first);
        if (!charge || charge.clientId !== clientId) {
          return notFound(`no cob ${first}`);
        }
        if (body.status !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR') {
          this.violations.push(`PATCH /cob: Cobro revises charges only to remove them, got ${JSON.stringify(body)}`);
        }
        if (charge.status !== 'ATIVA') {
          return invalid(`the cob is ${charge.status} and cannot be revised`, 'cob.status');
        }
        charge.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
        charge.revisao++;
        return [200, this.cobView(charge, false)];
      }
      case 'PUT /pix/{e2eid}/devolucao/{id}': {
        if (!/^[a-zA-Z0-9]{1,35}$/.test(second)) {
          this.violations.push(`PUT devolucao: id ${second} is not 1–35 letters or digits`);
          return invalid('id must be 1 to 35 letters or digits', 'id');
        }
        const found = [...this.charges.values()].find(
          (c) => c.clientId === clientId && c.pix.some((p) => p.endToEndId === first),
        );
        const pix = found?.pix.find((p) => p.endToEndId === first);
        if (!found || !pix) {
          return notFound(`no pix ${first}`);
        }
        const key = `${first}/${second}`;
        const existing = this.refunds.get(key);
        if (existing) {
          return existing.valor === body.valor
            ? [201, refundAnswer(existing)]
            : invalid(`devolucao ${second} was already asked for another amount`, 'id');
        }
        const refunded = ((pix.devolucoes ?? []) as Json[]).reduce((sum, d) => sum + centavos(String(d.valor)), 0n);
        if (refunded + centavos(String(body.valor)) > centavos(String(pix.valor))) {
          return invalid('the refunds would exceed the pix', 'valor');
        }
        const refund = {
          e2eid: first,
          id: second,
          rtrId: `D${alnum(31)}`,
          valor: String(body.valor),
          horario: { solicitacao: new Date().toISOString() } as Json,
          status: this.refundStatus,
        };
        if (refund.status === 'DEVOLVIDO') {
          refund.horario.liquidacao = new Date().toISOString();
        }
        this.refunds.set(key, refund);
        pix.devolucoes = [...((pix.devolucoes ?? []) as Json[]), refund];
        return [201, refundAnswer(refund)];
      }
      case 'GET /pix/{e2eid}/devolucao/{id}': {
        const refund = this.refunds.get(`${first}/${second}`);
        return refund ? [200, refundAnswer(refund)] : notFound(`no devolucao ${second}`);
      }
      case 'PUT /webhook/{chave}': {
        this.webhooks.set(first, { webhookUrl: String(body.webhookUrl), clientId, criacao: new Date().toISOString() });
        return [200, null];
      }
      case 'GET /webhook/{chave}': {
        const hook = this.webhooks.get(first);
        return hook && hook.clientId === clientId
          ? [200, { webhookUrl: hook.webhookUrl, chave: first, cnpj: '12345678000195', criacao: hook.criacao }]
          : notFound(`no webhook for ${first}`);
      }
      case 'DELETE /webhook/{chave}': {
        const hook = this.webhooks.get(first);
        if (!hook || hook.clientId !== clientId) {
          return notFound(`no webhook for ${first}`);
        }
        this.webhooks.delete(first);
        return [204, null];
      }
      default:
        this.violations.push(`${operation}: in the description, but the stand-in does not carry it out`);
        return [503, null];
    }
  }

  private cobView(charge: StandInCharge, complete: boolean): Json {
    return {
      calendario: {
        criacao: charge.criacao,
        expiracao: (charge.request.calendario as Json | undefined)?.expiracao ?? 86400,
      },
      txid: charge.txid,
      revisao: charge.revisao,
      loc: { id: charge.locId, txid: charge.txid, location: charge.location, tipoCob: 'cob', criacao: charge.criacao },
      location: charge.location,
      status: charge.status,
      valor: { original: (charge.request.valor as Json).original },
      chave: charge.request.chave,
      ...(charge.request.solicitacaoPagador === undefined
        ? {}
        : { solicitacaoPagador: charge.request.solicitacaoPagador }),
      pixCopiaECola: charge.pixCopiaECola,
      ...(complete && charge.pix.length > 0 ? { pix: charge.pix } : {}),
    };
  }
}

function refundAnswer(refund: Json): Json {
  const { e2eid: _e2eid, ...visible } = refund;
  return visible;
}

/**
 * A dynamic BR Code as a PSP writes it for a `cob`: the payload's location (field 26, sub-field
 * 25) where the payer's bank fetches the charge, the amount (54) and the CRC (63).
 */
function brCode(location: string, valor: string): string {
  // The BR Code carries the location without its scheme (the payer's bank always uses https).
  const url = location.replace(/^https:\/\//, '');
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', url)) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('54', valor) +
    tlv('58', 'BR') +
    tlv('59', 'PSP STAND IN') +
    tlv('60', 'SAO PAULO') +
    tlv('62', tlv('05', '***')) +
    '6304';
  return body + crc16Ccitt(body);
}

/**
 * One stand-in for a test file: started (with its CA) before its first test, closed after its
 * last; after each test, nothing sent or answered may have broken the published contract.
 */
export function usePixStandIn(profile: PixProfileName = 'bcb'): () => PixPspStandIn {
  let standIn: PixPspStandIn | null = null;
  before(async () => {
    standIn = await PixPspStandIn.start({ profile });
  });
  after(async () => {
    await standIn?.close();
    await standIn?.ca.dispose();
  });
  afterEach(() => {
    assert.deepEqual(standIn?.violations ?? [], [], 'every request and answer fits the published contract');
  });
  return () => {
    if (!standIn) {
      throw new Error('the PSP stand-in starts with the first test of the file');
    }
    return standIn;
  };
}

/** What `connect pix` is given for a client of this stand-in (ConnectService.connectPix's input). */
export function connectInput(
  standIn: PixPspStandIn,
  client: StandInClient,
  mode: 'live' | 'test',
  pixKey = 'pagamentos@loja.com.br',
): {
  mode: 'live' | 'test';
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  certificate: { kind: 'pem'; cert: string; key: string };
  ca: string;
  pixKey: string;
  profile: PixProfileName;
} {
  return {
    mode,
    baseUrl: standIn.baseUrl,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    certificate: { kind: 'pem', cert: client.certificate.cert, key: client.certificate.key },
    ca: standIn.ca.cert,
    pixKey,
    profile: standIn.profile,
  };
}
