import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { CurrencyTable, DEFAULT_CURRENCIES } from '../../../src/domain/currencies/currency.ts';
import { DEFAULT_CATALOG } from '../../../src/domain/payment-methods/catalog.ts';
import { methodName } from '../../../src/web/kit/format.ts';
import { negotiateLanguage } from '../../../src/web/kit/locale.ts';
import { formatMoney, moneyLocale } from '../../../src/web/kit/money.ts';

const currencies = new CurrencyTable(DEFAULT_CURRENCIES);
/** Intl puts a no-break space between symbol and digits where the locale does; readers see a space. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('money as the payer writes it', () => {
  test('a Brazilian reads reais as R$ 49,90, whether or not the header names Brazil', () => {
    assert.equal(plain(formatMoney(4990n, 'BRL', currencies, negotiateLanguage('pt-BR,pt;q=0.9'))), 'R$ 49,90');
    assert.equal(plain(formatMoney(4990n, 'BRL', currencies, negotiateLanguage('pt'))), 'R$ 49,90');
  });

  test('pesos follow the region: $ 1.234,50 in Argentina, $1,234.50 in Mexico', () => {
    assert.equal(plain(formatMoney(123450n, 'ARS', currencies, negotiateLanguage('es-AR'))), '$ 1.234,50');
    assert.equal(plain(formatMoney(123450n, 'MXN', currencies, negotiateLanguage('es-MX'))), '$1,234.50');
    // A language without a region writes the currency the way its home country does.
    assert.equal(plain(formatMoney(123450n, 'ARS', currencies, negotiateLanguage('es'))), '$ 1.234,50');
    assert.equal(plain(formatMoney(123450n, 'MXN', currencies, negotiateLanguage('es'))), '$1,234.50');
  });

  test('Chilean pesos have no decimals', () => {
    assert.equal(plain(formatMoney(12345n, 'CLP', currencies, 'es')), '$12.345');
  });

  test('crypto amounts keep every decimal and their code', () => {
    assert.equal(formatMoney(12_500_000n, 'USDT', currencies, 'en'), '12.500000 USDT');
    assert.equal(formatMoney(100_000n, 'BTC', currencies, 'pt'), '0,00100000 BTC');
  });

  test('every amount keeps its exact digits, however large (no float on the way)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 17n }),
        fc.constantFrom('en', 'es', 'pt' as const),
        (minor, locale) => {
          const text = formatMoney(minor, 'USD', currencies, locale);
          const digits = text.replace(/\D/g, '');
          assert.equal(BigInt(digits), minor);
        },
      ),
    );
  });
});

describe('the language and region a request asks for', () => {
  test('the best quality wins, with its region', () => {
    assert.deepEqual(negotiateLanguage('en;q=0.5, pt-BR'), { locale: 'pt', region: 'BR' });
    assert.deepEqual(negotiateLanguage('fr-FR, es-419;q=0.8'), { locale: 'es', region: null });
    assert.deepEqual(negotiateLanguage('pt, pt-BR'), { locale: 'pt', region: 'BR' });
    assert.deepEqual(negotiateLanguage(undefined), { locale: 'en', region: null });
  });

  test('a language the reader chose on the page takes its region from the header when it names the same language', () => {
    assert.deepEqual(negotiateLanguage('pt-BR, es-AR;q=0.5', 'es'), { locale: 'es', region: 'AR' });
    assert.deepEqual(negotiateLanguage('pt-BR', 'es'), { locale: 'es', region: null });
    assert.deepEqual(negotiateLanguage(undefined, 'pt'), { locale: 'pt', region: null });
  });

  test('a region the reader named beats the currency home', () => {
    assert.equal(moneyLocale({ locale: 'es', region: 'MX' }, 'ARS'), 'es-MX');
    assert.equal(moneyLocale({ locale: 'en', region: null }, 'EUR'), 'en');
  });
});

describe("payment methods named in the reader's language", () => {
  const byType = (type: string, cash?: string) => {
    const found = DEFAULT_CATALOG.find((m) => m.type === type && (cash === undefined || m.cashProvider?.id === cash));
    assert.ok(found, `${type} ${cash ?? ''}`);
    return found;
  };

  test('card, bank transfer and crypto read as a payer of each language says them', () => {
    const usdc = DEFAULT_CATALOG.find((m) => m.currency === 'USDC' && m.network?.id === 'ethereum');
    assert.ok(usdc);
    const names = (method: Parameters<typeof methodName>[0]) =>
      (['en', 'es', 'pt'] as const).map((locale) => methodName(method, locale));
    assert.deepEqual(names(byType('CARD')), ['Card', 'Tarjeta', 'Cartão']);
    assert.deepEqual(names(byType('BANK_TRANSFER')), [
      'Bank transfer',
      'Transferencia bancaria',
      'Transferência bancária',
    ]);
    assert.deepEqual(names(usdc), ['USDC on Ethereum', 'USDC en Ethereum', 'USDC na Ethereum']);
    assert.deepEqual(names(byType('CASH', 'oxxo')), ['Cash (OXXO)', 'Efectivo (OXXO)', 'Dinheiro (OXXO)']);
    // The Brazilian bank slip is a boleto in every language, whatever the catalogue's full name.
    assert.deepEqual(names(byType('CASH', 'boleto')), ['Boleto', 'Boleto', 'Boleto']);
  });
});
