import type { FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';
import { AppError } from '../domain/shared/errors.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
// NUL and unpaired surrogates: PostgreSQL refuses them and SQLite would store them mangled,
// so they are refused at the door, where the answer is the same on every backend.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point of this pattern
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Valid UTF-8 decodes to no lone surrogate, and JSON refuses a raw NUL, so such characters can
// only come from \u escapes: a body without one is parsed without the (slower) per-value check.
const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

type ParsedBody = { ok: true; text: string; value: unknown } | { ok: false; message: string };

/** Strict JSON body parsing: valid UTF-8, no prototype-polluting keys, no unstorable characters. */
export function parseJsonBody(body: Buffer): ParsedBody {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { ok: false, message: 'request body must be valid UTF-8' };
  }
  if (text.trim() === '') {
    return { ok: true, text: '', value: undefined };
  }
  let unstorable = false;
  let value: unknown;
  try {
    value = sjson.parse(
      text,
      !UNSTORABLE_ESCAPE.test(text)
        ? null
        : (key: string, v: unknown) => {
            if (UNSTORABLE.test(key) || (typeof v === 'string' && UNSTORABLE.test(v))) {
              unstorable = true;
            }
            return v;
          },
      { protoAction: 'error', constructorAction: 'error' },
    );
  } catch (error) {
    // secure-json-parse reports poisoning as a SyntaxError too; its message tells the two apart.
    const forbidden = /prototype|constructor/i.test((error as Error).message);
    return {
      ok: false,
      message: forbidden
        ? 'request body must not contain __proto__ or constructor.prototype members'
        : 'request body is not valid JSON',
    };
  }
  if (unstorable) {
    return { ok: false, message: 'request body must not contain NUL characters or unpaired UTF-16 surrogates' };
  }
  return { ok: true, text, value };
}

/**
 * The server's only body parsers: JSON, parsed by `parseJsonBody`; an empty body (GET/DELETE
 * sent with a JSON content type) is no body; any other media type is refused with the API's
 * error body. (The pages add a form parser in their own scopes.)
 */
export function registerJsonBodies(app: FastifyInstance, bodyLimitBytes: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i,
    { parseAs: 'buffer', bodyLimit: bodyLimitBytes },
    (req, body, done) => {
      const parsed = parseJsonBody(body as Buffer);
      if (parsed.ok) {
        req.rawBody = parsed.text;
        done(null, parsed.value);
      } else {
        done(new AppError('WRONG_INPUT', [parsed.message]), undefined);
      }
    },
  );
  app.addContentTypeParser('*', (req, _payload, done) => {
    const length = Number(req.headers['content-length'] ?? '0');
    if (length === 0 && req.headers['transfer-encoding'] === undefined) {
      done(null, undefined);
      return;
    }
    done(
      new AppError('UNSUPPORTED_MEDIA_TYPE', ['request body must be JSON sent as Content-Type: application/json']),
      undefined,
    );
  });

  // A POST without a body is an empty object: optional-body operations (refunds, test helpers)
  // then validate normally, and required members are reported by name instead of "body must be an object".
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.method === 'POST' && req.body === undefined) {
      req.body = {};
    }
    done();
  });
}
