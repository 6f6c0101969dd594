import { crc16Ccitt } from './crc16.ts';

/** What a merchant asks the payer to pay, before it is encoded as a BR Code. */
export interface PixBrCodeInput {
  /** A key registered in DICT for the receiving account (CPF, CNPJ, +phone, e-mail or EVP). */
  pixKey: string;
  /** Amount in centavos; BRL 12.34 is `1234n`. */
  amountMinor: bigint;
  merchantName: string;
  merchantCity: string;
  /** Reconciliation id echoed back by the payer's bank: 1–25 characters of [A-Za-z0-9]. */
  txid: string;
  /** Free text shown to the payer by some banking apps. */
  description?: string;
}

/** One TLV data object of an EMV QR payload. */
export interface EmvField {
  id: string;
  value: string;
}

/** The five key formats DICT accepts; `null` when the text is none of them. */
export type PixKeyType = 'cpf' | 'cnpj' | 'phone' | 'email' | 'evp';

const GUI = 'br.gov.bcb.pix';
const MAX_NAME = 25;
const MAX_CITY = 15;
const MAX_TXID = 25;
const MAX_KEY = 77;
const MAX_TEMPLATE = 99;
// Field 54 holds at most 13 characters, so "9999999999.99" is the largest amount it can carry.
const MAX_AMOUNT_MINOR = 999_999_999_999n;

// Formats from the DICT API specification: the key must be written exactly as registered, so a
// formatted CPF ("123.456.789-00") or an uppercase e-mail would produce an unpayable code.
const KEY_FORMATS: readonly (readonly [PixKeyType, RegExp])[] = [
  ['cpf', /^[0-9]{11}$/],
  ['cnpj', /^[0-9]{14}$/],
  ['phone', /^\+[1-9][0-9]{1,14}$/],
  ['evp', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/],
  [
    'email',
    /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/,
  ],
];

/**
 * Classifies a Pix key by the DICT formats.
 *
 * @returns The key type, or `null` when the text matches no format (or is longer than 77 characters).
 */
export function detectPixKeyType(key: string): PixKeyType | null {
  if (key.length === 0 || key.length > MAX_KEY) {
    return null;
  }
  for (const [type, pattern] of KEY_FORMATS) {
    if (pattern.test(key)) {
      return type;
    }
  }
  return null;
}

/**
 * Removes diacritics (`"São Paulo"` → `"Sao Paulo"`) and checks that what is left is printable ASCII,
 * because the BR Code text fields are restricted to that set and many banking apps reject anything else.
 *
 * @throws RangeError naming `field` when a character cannot be folded to printable ASCII.
 */
export function foldToAscii(text: string, field = 'text'): string {
  const folded = text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  if (!/^[\x20-\x7e]*$/.test(folded)) {
    throw new RangeError(`${field} contains characters that cannot be written in ASCII`);
  }
  return folded;
}

/**
 * Writes an amount in minor units with two decimals, without passing through floating point.
 *
 * @example formatMinorAmount(1234n) === '12.34'
 */
export function formatMinorAmount(amountMinor: bigint): string {
  const sign = amountMinor < 0n ? '-' : '';
  const abs = amountMinor < 0n ? -amountMinor : amountMinor;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

function tlv(id: string, value: string): string {
  if (value.length > 99) {
    throw new RangeError(`field ${id} is ${value.length} characters long; EMV allows at most 99`);
  }
  return `${id}${value.length.toString().padStart(2, '0')}${value}`;
}

function cleanLabel(value: string, field: string, max: number): string {
  const folded = foldToAscii(value, field).trim().replace(/\s+/g, ' ');
  if (folded.length === 0) {
    throw new RangeError(`${field} must not be empty`);
  }
  // Names and cities come from merchant settings; cutting them keeps the code payable, whereas
  // rejecting would block every checkout over a cosmetic limit.
  return folded.slice(0, max).trimEnd();
}

/**
 * Builds the Pix "copia e cola" text (the content of the QR code) following the BACEN BR Code manual:
 * EMV QRCPS data objects 00, 01 ("12": single use), 26 (GUI, key, description), 52, 53 ("986": BRL),
 * 54, 58, 59, 60, 62 (txid in 05) and the CRC16 in 63.
 *
 * @throws RangeError naming the offending input when it cannot be encoded faithfully.
 */
export function buildPixBrCode(input: PixBrCodeInput): string {
  const { pixKey, amountMinor, merchantName, merchantCity, txid, description } = input;

  if (detectPixKeyType(pixKey) === null) {
    throw new RangeError(
      'pixKey is not a DICT key: expected 11-digit CPF, 14-digit CNPJ, +E.164 phone, lowercase e-mail or lowercase EVP UUID',
    );
  }
  if (typeof amountMinor !== 'bigint') {
    throw new RangeError('amountMinor must be a bigint number of centavos');
  }
  if (amountMinor <= 0n) {
    throw new RangeError('amountMinor must be greater than zero');
  }
  if (amountMinor > MAX_AMOUNT_MINOR) {
    throw new RangeError('amountMinor exceeds 9999999999.99, the largest amount field 54 can hold');
  }
  if (!/^[A-Za-z0-9]{1,25}$/.test(txid)) {
    throw new RangeError(`txid must be 1 to ${MAX_TXID} characters of A-Z, a-z and 0-9`);
  }

  const name = cleanLabel(merchantName, 'merchantName', MAX_NAME);
  const city = cleanLabel(merchantCity, 'merchantCity', MAX_CITY);

  let accountInfo = tlv('00', GUI) + tlv('01', pixKey);
  if (description !== undefined) {
    const text = foldToAscii(description, 'description').trim();
    if (text.length > 0) {
      accountInfo += tlv('02', text);
    }
  }
  if (accountInfo.length > MAX_TEMPLATE) {
    throw new RangeError(
      `pixKey and description together take ${accountInfo.length} characters in field 26; at most ${MAX_TEMPLATE} fit`,
    );
  }

  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', accountInfo) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('54', formatMinorAmount(amountMinor)) +
    tlv('58', 'BR') +
    tlv('59', name) +
    tlv('60', city) +
    tlv('62', tlv('05', txid)) +
    '6304';
  return body + crc16Ccitt(body);
}

/**
 * Splits EMV TLV text (a whole payload, or the value of a template such as 26 or 62) into its data
 * objects, in order.
 *
 * @throws RangeError when an id or length is not two digits or a value runs past the end of the text.
 */
export function parseEmvTlv(payload: string): EmvField[] {
  const fields: EmvField[] = [];
  let at = 0;
  while (at < payload.length) {
    const head = payload.slice(at, at + 4);
    if (!/^[0-9]{4}$/.test(head)) {
      throw new RangeError(`malformed EMV data object header at offset ${at}`);
    }
    const length = Number(head.slice(2));
    const value = payload.slice(at + 4, at + 4 + length);
    if (value.length !== length) {
      throw new RangeError(`EMV data object ${head.slice(0, 2)} at offset ${at} is truncated`);
    }
    fields.push({ id: head.slice(0, 2), value });
    at += 4 + length;
  }
  return fields;
}

/**
 * Checks that a BR Code ends with data object 63 and that its CRC16 matches everything before it
 * (including the `6304` header).
 */
export function verifyBrCodeCrc(payload: string): boolean {
  let fields: EmvField[];
  try {
    fields = parseEmvTlv(payload);
  } catch {
    return false;
  }
  const last = fields.at(-1);
  if (last === undefined || last.id !== '63' || last.value.length !== 4) {
    return false;
  }
  return crc16Ccitt(payload.slice(0, -4)) === last.value.toUpperCase();
}
