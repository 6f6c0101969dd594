import type { LinkSigner } from '../shared/link-signer.ts';

export const MAILBOX_LINK_PURPOSE = 'test-mailbox';

/** The signed address of a merchant's test-mode mailbox page (the signature is the credential). */
export function mailboxPageUrl(publicUrl: string, signer: LinkSigner, merchantId: string): string {
  return `${publicUrl}/test-mailbox/${merchantId}?sig=${signer.sign(MAILBOX_LINK_PURPOSE, merchantId)}`;
}
