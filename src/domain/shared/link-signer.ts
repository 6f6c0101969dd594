import { createHmac, timingSafeEqual } from 'node:crypto';

/** Signs ids for links sent to payers (their subscription page), so the link itself is the credential. */
export class LinkSigner {
  constructor(private readonly key: Buffer) {}

  sign(purpose: string, id: string): string {
    return createHmac('sha256', this.key).update(`${purpose}:${id}`).digest('base64url');
  }

  verify(purpose: string, id: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(purpose, id));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
