import type { Mode } from '../merchants/merchant.ts';
import type { Page, PageRequest } from '../shared/page.ts';
import type { PaymentLink, PaymentLinkStatus, PaymentLinkVersion, PlanTerms } from '../subscriptions/payment-link.ts';

export interface PaymentLinkRepository {
  insert(link: PaymentLink): Promise<void>;
  get(merchantId: string, mode: Mode, id: string): Promise<PaymentLink | undefined>;
  /** By id alone, whoever owns it: only for the public plan link `/l/{id}`, where the id is the link. */
  getById(id: string): Promise<PaymentLink | undefined>;
  list(
    merchantId: string,
    mode: Mode,
    page: PageRequest,
    filter: { status?: PaymentLinkStatus },
  ): Promise<Page<PaymentLink>>;
  setStatus(merchantId: string, mode: Mode, id: string, status: PaymentLinkStatus, at: number): Promise<void>;
  /**
   * Compare-and-set on the version: writes `terms` as version `current.version + 1` only if the
   * row is still at `current.version` and ACTIVE. Returns the new row, or undefined.
   */
  updateTerms(
    current: Pick<PaymentLink, 'id' | 'merchantId' | 'mode' | 'version'>,
    terms: PlanTerms,
    at: number,
  ): Promise<PaymentLink | undefined>;
  insertVersion(version: PaymentLinkVersion): Promise<void>;
  getVersion(paymentLinkId: string, version: number): Promise<PaymentLinkVersion | undefined>;
}
