import { pixCertificateOf } from '../../../domain/connectors/pix-certificate.ts';
import type { PixClientCertificate } from '../../../domain/connectors/pix-connector.ts';
import { t as tr } from '../i18n.ts';
import type { DashRequest } from '../router.ts';
import { acceptUploads, uploadedFile } from '../uploads.ts';
import type { PixField, StripeField } from '../views/payment-connections.views.ts';
import type { FieldErrors } from '../views/settings.views.ts';

/*
 * Reading the payment connection forms: which field a message of the connection services is
 * about, and the PIX form's files.
 */

/** Largest certificate, key or CA file the PIX form takes: a chain of a few certificates is a few KB. */
const MAX_CERTIFICATE_BYTES = 64 * 1024;

/** The PIX form: its certificate, key and CA files, and its eight text fields (the CSRF token among them). */
export const acceptCertificateUploads = acceptUploads({
  fileSize: MAX_CERTIFICATE_BYTES,
  files: 3,
  fields: 8,
  fieldSize: 2048,
});

/** Each field's messages, from the name a message of the connection checks starts with. */
export function errorsOf<F extends string>(
  messages: readonly string[],
  fieldOfMessage: readonly (readonly [string, F])[],
): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const message of messages) {
    const field = fieldOfMessage.find(([name]) => message.startsWith(name))?.[1];
    if (field) {
      errors[field] = [...(errors[field] ?? []), message];
    }
  }
  return errors;
}

export const STRIPE_FIELD_OF_MESSAGE = [
  ['secret key', 'secret_key'],
  ['publishable key', 'publishable_key'],
  ['webhook secret', 'webhook_secret'],
] as const satisfies readonly (readonly [string, StripeField])[];

/** The PIX form's fields top to bottom: the summary lists their problems in that order. */
export const PIX_FORM_ORDER: readonly PixField[] = [
  'profile',
  'base_url',
  'token_url',
  'client_id',
  'client_secret',
  'certificate',
  'private_key',
  'certificate_password',
  'ca',
  'pix_key',
];

const PIX_FIELD_OF_MESSAGE = [
  ['profile', 'profile'],
  ['client id', 'client_id'],
  ['client secret', 'client_secret'],
  ['pix key', 'pix_key'],
  ['base URL', 'base_url'],
  ['token URL', 'token_url'],
  ['webhook registration', 'pix_key'],
] as const satisfies readonly (readonly [string, PixField])[];

/** The service's messages by field; a refused credential names the certificate or the secret, as its words say. */
export function pixErrorsOf(messages: readonly string[]): FieldErrors<PixField> {
  const errors: FieldErrors<PixField> = errorsOf(messages, PIX_FIELD_OF_MESSAGE);
  for (const message of messages.filter((m) => m.startsWith('API Pix credentials'))) {
    const field = /certificate|TLS|key cannot/i.test(message) ? 'certificate' : 'client_secret';
    errors[field] = [...(errors[field] ?? []), message];
  }
  return errors;
}

/** The certificate, key and CA files of the form, read as `cobro connect pix` reads its files; or what is wrong with them. */
export function pixFiles(
  req: DashRequest['req'],
  password: string,
): { certificate: PixClientCertificate | null; ca: string | null; errors: FieldErrors<PixField> } {
  const errors: FieldErrors<PixField> = {};
  const tooLarge = tr('The file is larger than {kb} KB: choose the certificate file your PSP issued.', {
    kb: MAX_CERTIFICATE_BYTES / 1024,
  });
  const [cert, key, ca] = (['certificate', 'private_key', 'ca'] as const).map((field) => {
    const file = uploadedFile(req, field);
    if (file?.truncated) {
      errors[field] = [tooLarge];
    }
    return file;
  });
  if (Object.keys(errors).length > 0) {
    return { certificate: null, ca: null, errors };
  }
  const read = pixCertificateOf({
    certificate: cert?.bytes ?? Buffer.alloc(0),
    key: key ? key.bytes.toString('utf8') : null,
    passphrase: password === '' ? null : password,
  });
  if (!read.ok) {
    switch (read.problem) {
      case 'certificate_missing':
        errors.certificate = [tr('Choose the client certificate file.')];
        break;
      case 'key_missing':
        errors.private_key = [tr('A PEM certificate needs its private key: choose the key file.')];
        break;
      case 'key_not_pem':
        errors.private_key = [tr('This is not a PEM private key (-----BEGIN … PRIVATE KEY-----).')];
        break;
    }
  }
  const caText = ca ? ca.bytes.toString('utf8') : null;
  if (caText !== null && !caText.includes('-----BEGIN CERTIFICATE-----')) {
    errors.ca = [tr('This is not a PEM certificate (-----BEGIN CERTIFICATE-----).')];
  }
  return { certificate: read.ok ? read.certificate : null, ca: caText, errors };
}
