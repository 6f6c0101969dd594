export interface CashVoucherInput {
  orderId: string;
  /** Amount in minor units (BRL 12.34 is `1234n`). */
  amountMinor: bigint;
  /** ISO 4217 code, e.g. `BRL`. */
  currency: string;
  /** Last day the voucher can be paid; encoded from its UTC calendar date. */
  dueDate: Date;
  /** Per-merchant running number that makes the reference unique (0 to 10^15 − 1). */
  sequence: bigint | number;
}

export interface CashVoucher {
  orderId: string;
  /** 16 digits the cashier can type: 15-digit sequence plus a mod-10 (Luhn) check digit. */
  reference: string;
  /** 36 digits: reference, due date as YYYYMMDD, amount in minor units over 12 digits. */
  barcode: { format: 'ITF'; value: string };
  amountMinor: bigint;
  currency: string;
  dueDate: Date;
}

const SEQUENCE_DIGITS = 15;
const AMOUNT_DIGITS = 12;
const MAX_SEQUENCE = 10n ** BigInt(SEQUENCE_DIGITS) - 1n;
const MAX_AMOUNT = 10n ** BigInt(AMOUNT_DIGITS) - 1n;

/**
 * Mod-10 check digit with weights 2,1,2,1… from the right (Luhn; the "módulo 10" of Brazilian
 * payment slips). It catches every single-digit typo and most swaps of adjacent digits.
 *
 * @param digits - The digits the check digit will follow.
 * @throws RangeError when `digits` is empty or not all digits.
 */
export function mod10CheckDigit(digits: string): string {
  if (!/^[0-9]+$/.test(digits)) {
    throw new RangeError('mod10CheckDigit needs a non-empty string of digits');
  }
  let sum = 0;
  let double = true;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) {
        d -= 9;
      }
    }
    sum += d;
    double = !double;
  }
  return String((10 - (sum % 10)) % 10);
}

/** True when the text is a 16-digit voucher reference whose last digit checks out. */
export function isValidVoucherReference(reference: string): boolean {
  if (!/^[0-9]{16}$/.test(reference)) {
    return false;
  }
  return mod10CheckDigit(reference.slice(0, -1)) === reference.slice(-1);
}

function toSequence(sequence: bigint | number): bigint {
  if (typeof sequence === 'number' && !Number.isSafeInteger(sequence)) {
    throw new RangeError('sequence must be an integer');
  }
  const value = BigInt(sequence);
  if (value < 0n || value > MAX_SEQUENCE) {
    throw new RangeError(`sequence must be from 0 to ${MAX_SEQUENCE}`);
  }
  return value;
}

function utcYyyymmdd(date: Date): string {
  const y = date.getUTCFullYear();
  if (y < 1000 || y > 9999) {
    throw new RangeError('dueDate must fall between the years 1000 and 9999');
  }
  return `${y}${String(date.getUTCMonth() + 1).padStart(2, '0')}${String(date.getUTCDate()).padStart(2, '0')}`;
}

/**
 * Builds the payment voucher a payer takes to a cash point: a typeable reference and an ITF barcode
 * that also carries the due date and amount, so the cashier's scanner needs no lookup to show them.
 *
 * @throws RangeError naming the offending input.
 */
export function buildCashVoucher(input: CashVoucherInput): CashVoucher {
  const { orderId, amountMinor, currency, dueDate, sequence } = input;
  if (orderId.trim().length === 0) {
    throw new RangeError('orderId must not be empty');
  }
  if (typeof amountMinor !== 'bigint' || amountMinor <= 0n) {
    throw new RangeError('amountMinor must be a positive bigint');
  }
  if (amountMinor > MAX_AMOUNT) {
    throw new RangeError(`amountMinor must fit in ${AMOUNT_DIGITS} digits`);
  }
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw new RangeError('currency must be a three-letter uppercase ISO 4217 code');
  }
  if (!(dueDate instanceof Date) || Number.isNaN(dueDate.getTime())) {
    throw new RangeError('dueDate must be a valid Date');
  }

  const body = toSequence(sequence).toString().padStart(SEQUENCE_DIGITS, '0');
  const reference = body + mod10CheckDigit(body);
  const value = reference + utcYyyymmdd(dueDate) + amountMinor.toString().padStart(AMOUNT_DIGITS, '0');
  return {
    orderId,
    reference,
    barcode: { format: 'ITF', value },
    amountMinor,
    currency,
    dueDate: new Date(dueDate.getTime()),
  };
}
