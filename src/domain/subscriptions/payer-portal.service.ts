import { parseSavedCard } from '../connectors/saved-card.ts';
import type { Caller } from '../merchants/merchant.ts';
import type { CardInput, CardPaymentProvider } from '../payment-methods/payment-provider.ts';
import type { PaymentOrder } from '../payment-orders/payment-order.ts';
import { AppError } from '../shared/errors.ts';
import { isWellFormedId } from '../shared/ids.ts';
import type { LinkSigner } from '../shared/link-signer.ts';
import type { TestClocks } from '../shared/test-clocks.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { RecurrentPayment } from './recurrent-payment.ts';
import { SUBSCRIPTION_LINK_PURPOSE, subscriptionPageUrl } from './renewal-mail.ts';
import type { SubscriptionService } from './subscription.service.ts';

/** A card field the payer typed, as the card validator names it. */
export type CardField = 'number' | 'expiry' | 'cvc' | 'holderName';

/** Checks a typed card before the processor sees it (Luhn, expiry, CVC length, holder). */
export type CardValidator = (
  card: CardInput,
  now: Date,
) => { ok: true } | { ok: false; errors: { field: string; message: string }[] };

/**
 * A problem to show the payer: beside its field, or above the form when it names none. `code`:
 * the processor's refusal code (`card_declined`, `expired_card`…), null for the validator's own
 * checks; pages word the problem in the payer's language from the field and the code.
 */
export type CardProblem = { field: CardField | null; message: string; code: string | null };

export type CardChange = { ok: true; subscription: RecurrentPayment } | { ok: false; problems: CardProblem[] };

const CARD_FIELDS: readonly CardField[] = ['number', 'expiry', 'cvc', 'holderName'];

const asCardField = (field: string): CardField | null => CARD_FIELDS.find((f) => f === field) ?? null;

/** Processor refusals that name one field of the form. */
const REFUSED_FIELD: Readonly<Record<string, CardField>> = {
  incorrect_number: 'number',
  incorrect_cvc: 'cvc',
  invalid_expiry: 'expiry',
  expired_card: 'expiry',
};

/**
 * What a payer can do with their subscription from the signed link in its e-mails: see it,
 * cancel it, change the card of later renewals. The link's signature is the credential (no
 * account, no password); an unsigned or wrongly signed id is treated as unknown, so a guessed
 * id reveals nothing. Test mode also hands the link to the merchant (a test helper).
 */
export class PayerPortalService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly subscriptions: SubscriptionService,
    private readonly cards: CardPaymentProvider,
    private readonly validateCard: CardValidator,
    private readonly clocks: TestClocks,
    private readonly signer: LinkSigner,
    private readonly publicUrl: string,
  ) {}

  /** The subscription a signed link names; undefined for an unknown id or a missing or wrong signature. */
  async open(id: string, signature: string | null | undefined): Promise<RecurrentPayment | undefined> {
    if (!isWellFormedId(id) || typeof signature !== 'string' || signature.length === 0 || signature.length > 128) {
      return undefined;
    }
    if (!this.signer.verify(SUBSCRIPTION_LINK_PURPOSE, id, signature)) {
      return undefined;
    }
    return this.subscriptions.getById(id);
  }

  /** A push-method renewal the payer can pay now (its order page has the QR, address or voucher). */
  async payableRenewal(rec: RecurrentPayment): Promise<PaymentOrder | undefined> {
    if (rec.paymentMethodType === 'CARD') {
      return undefined;
    }
    const open = await this.uow.read.orders.openRenewals(rec.id);
    // The latest try of the latest period: older ones are expired by the cancellation or the retry.
    return open.sort(
      (a, b) => (b.periodIndex ?? 0) - (a.periodIndex ?? 0) || (b.periodAttempt ?? 0) - (a.periodAttempt ?? 0),
    )[0];
  }

  async cancel(id: string, signature: string | null | undefined): Promise<RecurrentPayment | undefined> {
    const rec = await this.open(id, signature);
    return rec ? this.subscriptions.cancelByPayer(rec.id) : undefined;
  }

  /**
   * Has the processor keep a new card and charges later renewals to it. Nothing is charged now.
   * The number and security code are checked, handed to the processor and dropped: never
   * stored, returned or logged. Undefined when the link is not valid.
   */
  async changeCard(id: string, signature: string | null | undefined, card: CardInput): Promise<CardChange | undefined> {
    const rec = await this.open(id, signature);
    if (!rec) {
      return undefined;
    }
    if (rec.paymentMethodType !== 'CARD') {
      throw new AppError('CONFLICT', ['this subscription is not paid by card']);
    }
    if (parseSavedCard(rec.cardToken)) {
      // Kept at the merchant's own processor, whose card fields are its own: no card number comes here.
      throw new AppError('CONFLICT', ["this subscription's card is kept by the merchant's card processor"]);
    }
    // The validator's messages never contain the number or the code, so they can be shown as they are.
    const checked = this.validateCard(card, this.clocks.clockFor(rec).now());
    if (!checked.ok) {
      return {
        ok: false,
        problems: checked.errors.map((e) => ({ field: asCardField(e.field), message: e.message, code: null })),
      };
    }
    const saved = await this.cards.saveCard({ card, mode: rec.mode });
    if (saved.status === 'FAILED') {
      return {
        ok: false,
        problems: [{ field: REFUSED_FIELD[saved.code] ?? null, message: saved.message, code: saved.code }],
      };
    }
    const subscription = await this.subscriptions.replaceCard(rec.id, saved.token, {
      brand: saved.brand,
      last4: saved.last4,
    });
    return { ok: true, subscription };
  }

  /** The signed link a payer receives by e-mail (test mode: for tests and merchants trying the page). */
  async payerLink(caller: Caller, id: string): Promise<{ subscription: RecurrentPayment; url: string }> {
    if (caller.mode !== 'test') {
      throw new AppError('FORBIDDEN', ['test helpers can only be used with test-mode keys (ck_test_…)']);
    }
    const subscription = await this.subscriptions.get(caller, id);
    return { subscription, url: subscriptionPageUrl(this.publicUrl, this.signer, subscription.id) };
  }
}
