import type { BusinessProfile } from '../../domain/merchants/merchant-profile.ts';
import type { StoredLogo } from '../../domain/merchants/merchant-settings.ts';

/** Whom the payer pays, as the checkout pages show it (from the merchant's business profile). */
export type Payee = {
  name: string;
  logo: { src: string; width: number; height: number } | null;
  /** Our own stylesheet for the merchant's accent colour (the CSP allows styles from our origin only). */
  accentCss: string | null;
  /** The accent colour itself (`#rrggbb`), for the card processor's fields (see processorAppearance). */
  accent: string | null;
  supportEmail: string | null;
};

const ACCENT = /^#([0-9a-f]{6})$/;

/** The logo's address on our origin: content-addressed, so it is cached for good and never stale. */
export function logoPath(merchantId: string, logo: StoredLogo): string {
  return `/checkout/assets/logos/${merchantId}/${logo.sha256}.${logo.content_type === 'image/png' ? 'png' : 'jpg'}`;
}

/** The accent stylesheet's address: the colour is its whole content, so it needs no merchant and no lookup. */
export function accentPath(color: string): string | null {
  const hex = ACCENT.exec(color)?.[1];
  return hex ? `/checkout/assets/accent/${hex}.css` : null;
}

export function payeeOf(profile: BusinessProfile): Payee {
  return {
    name: profile.displayName,
    logo: profile.logo
      ? { src: logoPath(profile.merchantId, profile.logo), width: profile.logo.width, height: profile.logo.height }
      : null,
    accentCss: profile.accentColor ? accentPath(profile.accentColor) : null,
    accent: profile.accentColor && ACCENT.test(profile.accentColor) ? profile.accentColor : null,
    supportEmail: profile.supportEmail,
  };
}

/** WCAG 2 relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const INK = '#1b1f24';
const WHITE = '#ffffff';
/** The checkout's own blue, kept wherever the accent would be unreadable. */
const DEFAULT_ACCENT = '#0b57d0';

/**
 * The stylesheet of one accent colour (`hex`: six lower-case hexadecimal digits, no #). The
 * accent fills the primary buttons, with white or dark text, whichever reads better (one of
 * the two always reaches 4.5:1); as text on white (secondary buttons, the chosen method's
 * frame) it is used only when it reaches 4.5:1 there, otherwise the checkout's blue stays.
 */
export function accentStylesheet(hex: string): string | null {
  if (!/^[0-9a-f]{6}$/.test(hex)) {
    return null;
  }
  const accent = `#${hex}`;
  const onAccent = contrastRatio(accent, WHITE) >= contrastRatio(accent, INK) ? WHITE : INK;
  const onWhite = contrastRatio(accent, WHITE) >= 4.5 ? accent : DEFAULT_ACCENT;
  return `/* Cobro checkout: accent colour ${accent}, chosen by the merchant. */
.payee {
  border-top-color: ${accent};
}

.button,
button {
  color: ${onAccent};
  background: ${accent};
  border-color: ${accent};
}

.button--secondary,
button.button--secondary {
  color: ${onWhite};
  background: #fff;
  border-color: ${onWhite};
}

.button--test,
button.button--test {
  color: #3d2e00;
  background: #ffe8a3;
  border-color: #c79a00;
}

.choice:has(input:checked) {
  border-color: ${onWhite};
}
`;
}

/**
 * The Stripe Payment Element's appearance (docs.stripe.com/elements/appearance-api) from the
 * merchant's branding: its accent as the primary colour where it reads on white (as the
 * checkout's own secondary buttons use it), the checkout's blue otherwise; our ink and font.
 */
export function processorAppearance(payee: Payee | null): {
  theme: 'stripe';
  variables: Record<string, string>;
} {
  const accent = payee?.accent ?? null;
  const primary = accent && contrastRatio(accent, WHITE) >= 4.5 ? accent : DEFAULT_ACCENT;
  return {
    theme: 'stripe',
    variables: {
      colorPrimary: primary,
      colorText: INK,
      colorDanger: '#b3261e',
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
      borderRadius: '6px',
    },
  };
}
