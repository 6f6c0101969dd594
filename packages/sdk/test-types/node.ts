// Node only (tsconfig.nodenext.json): the headers and body as node:http and Express give them.
import type { IncomingHttpHeaders } from 'node:http';
import type { CobroEvent } from '@cobro/sdk';
import { verifyWebhook } from '@cobro/sdk';

export function fromNode(body: Buffer, headers: IncomingHttpHeaders, secret: string): CobroEvent {
  return verifyWebhook(body, headers, secret);
}

export function notParsed(body: Record<string, unknown>, headers: IncomingHttpHeaders, secret: string): CobroEvent {
  // @ts-expect-error the raw body, not parsed JSON
  return verifyWebhook(body, headers, secret);
}
