import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentLink, createPreference } from '../../support/builders.ts';
import { signedInMember } from '../../support/dashboard-client.ts';
import { pay } from '../../support/payments.ts';
import { describeBackends } from '../../support/test-app.ts';

/** The visible text of a page: its markup, tags and attributes left out. */
const textOf = (body: string) =>
  body
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

describeBackends('dashboard languages', (build) => {
  test('every area reads in Spanish and Portuguese, and the names people navigate by stay English', async (t) => {
    const ctx = await build(t);
    const pref = await createPreference(ctx.app, ctx.merchant, { payment_method_types: ['CARD'] });
    const order = (await pay(ctx.app, ctx.merchant, pref.id)).json() as { id: string };
    const plan = await createPaymentLink(ctx.app, ctx.merchant, { amount: 9.99, interval_type: 'MONTH' });
    const browser = await signedInMember(ctx, 'owner');
    const pages: [string, { es: string; pt: string; en: string }][] = [
      ['/dashboard/test/payments', { en: 'Clear filters', es: 'Quitar filtros', pt: 'Limpar filtros' }],
      [`/dashboard/test/payment_orders/${order.id}`, { en: 'Timeline', es: 'Historial', pt: 'Histórico' }],
      [`/dashboard/test/payment_links/${plan.id}`, { en: 'Public link', es: 'Enlace público', pt: 'Link público' }],
      [
        '/dashboard/test/developers/keys',
        { en: 'Create key pair', es: 'Crear par de claves', pt: 'Criar par de chaves' },
      ],
      ['/dashboard/test/webhook_endpoints', { en: 'New endpoint', es: 'Nuevo endpoint', pt: 'Novo endpoint' }],
      ['/dashboard/test/settings/profile', { en: 'Save profile', es: 'Guardar perfil', pt: 'Salvar perfil' }],
      ['/dashboard/test/settings/team', { en: 'Invite someone', es: 'Invitar a alguien', pt: 'Convidar alguém' }],
      [
        '/dashboard/test/settings/connections',
        { en: 'use test keys here', es: 'usa aquí claves de prueba', pt: 'use aqui chaves de teste' },
      ],
    ];
    for (const [path, words] of pages) {
      const en = await browser.get(path);
      assert.equal(en.statusCode, 200, `${path}: ${en.body.slice(0, 200)}`);
      assert.match(textOf(en.body), new RegExp(words.en), `${path} in English`);
      for (const lang of ['es', 'pt'] as const) {
        const page = await browser.get(path, { 'accept-language': lang === 'es' ? 'es-MX,es;q=0.9' : 'pt-BR' });
        const text = textOf(page.body);
        assert.match(text, new RegExp(words[lang]), `${path} in ${lang}`);
        assert.doesNotMatch(text, new RegExp(words.en), `${path} in ${lang} has no English "${words.en}"`);
        // The navigation keeps its English names in every language.
        for (const name of ['Home', 'Payments', 'Subscriptions', 'Developers', 'Settings']) {
          assert.match(page.body, new RegExp(`>${name}</a>`), `${path} in ${lang}: navigation link ${name}`);
        }
      }
    }
    // The order page's refund button keeps its English accessible name.
    const order_es = await browser.get(`/dashboard/test/payment_orders/${order.id}`, { 'accept-language': 'es' });
    assert.match(order_es.body, />Refund</);
  });
});
