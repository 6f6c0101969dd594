import type { Caller } from '../merchants/merchant.ts';
import { AppError } from '../shared/errors.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { OutboundEmail } from './email.ts';

/**
 * The test-mode mailbox: every mail Cobro wrote to this merchant's payers in test mode, sent
 * (SMTP_URL set) or kept (no SMTP), so an integration can be tried without a mail server and
 * tests can read the links a payer would click. Live mail is not listed: it is the payers'.
 */
export class TestMailboxService {
  constructor(private readonly uow: UnitOfWork) {}

  list(caller: Caller, page: PageRequest): Promise<Page<OutboundEmail>> {
    if (caller.mode !== 'test') {
      throw new AppError('FORBIDDEN', ['test helpers can only be used with test-mode keys (ck_test_…)']);
    }
    return this.uow.read.emails.page(caller.merchantId, caller.mode, page);
  }
}
