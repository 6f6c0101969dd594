import type { FastifyPluginAsync } from 'fastify';
import { MAILBOX_LINK_PURPOSE } from '../../domain/notifications/mailbox-link.ts';
import type { Services } from '../../services.ts';
import { loadAssets } from '../kit/assets.ts';
import { html, toDocument } from '../kit/html.ts';
import { languageSwitcher, payerLanguage, registerLanguageSwitch } from '../kit/language-switch.ts';
import type { PageContext } from '../kit/payer-layout.ts';
import { layout } from '../kit/payer-layout.ts';
import { formatDateTime, messagesFor } from '../kit/payer-messages.ts';
import { applySecurityHeaders, randomToken } from '../kit/security.ts';
import { mailboxMessagesFor } from './messages.ts';

/**
 * The test-mode mailbox as a page: what Cobro wrote to this merchant's payers (kept when no
 * SMTP server is configured), newest first. Reached by a signed link from
 * GET /v1/test_helpers/mailbox_link or `cobro mailbox`; anything else is the same 404.
 */
export const mailboxPages: FastifyPluginAsync<Services & { smtpConfigured: boolean }> = async (app, deps) => {
  const assets = loadAssets();
  const https = deps.publicUrl.startsWith('https:');
  registerLanguageSwitch(app, https);
  app.get<{ Params: { merchantId: string }; Querystring: { sig?: string } }>(
    '/test-mailbox/:merchantId',
    { schema: { hide: true } },
    async (req, reply) => {
      const nonce = randomToken();
      applySecurityHeaders(reply, { nonce, https });
      reply.header('content-type', 'text/html; charset=utf-8').header('vary', 'Accept-Language, Cookie');
      const { merchantId } = req.params;
      const sig = typeof req.query.sig === 'string' ? req.query.sig : '';
      const messages = messagesFor(payerLanguage(req).locale);
      const t = mailboxMessagesFor(messages.locale);
      const ctx: PageContext = {
        messages,
        nonce,
        assets: { css: assets.css.path, js: assets.js.path },
        testMode: true,
        switcher: languageSwitcher(req, messages.locale),
        siteName: t.title,
      };
      if (!/^[A-Za-z0-9]{22}$/.test(merchantId) || !deps.signer.verify(MAILBOX_LINK_PURPOSE, merchantId, sig)) {
        return reply
          .code(404)
          .send(
            toDocument(
              layout(
                ctx,
                t.notFoundTitle,
                html`<section class="card" data-test="mailbox-notFound"><h1>${t.notFoundTitle}</h1><p>${t.notFoundText}</p></section>`,
              ),
            ),
          );
      }
      const page = await deps.mailbox.list({ merchantId, mode: 'test', key: '' }, { limit: 100, cursor: null });
      const items = page.data.map(
        (m) => html`<article class="card" data-test="mail">
<h2>${m.subject}</h2>
<p class="hint">${t.sentTo(m.to, formatDateTime(m.createdAt, messages), t.statuses[m.status])}</p>
<pre class="mail-body">${m.text}</pre>
</article>`,
      );
      return reply.send(
        toDocument(
          layout(
            ctx,
            t.title,
            html`<section class="card" data-test="mailbox"><h1>${t.title}</h1>
<p>${t.intro(deps.smtpConfigured)}</p>
${page.data.length === 0 ? html`<p data-test="mailbox-empty">${t.empty}</p>` : null}
</section>
${items}`,
          ),
        ),
      );
    },
  );
};
