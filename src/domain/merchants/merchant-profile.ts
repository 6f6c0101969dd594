import { createHash } from 'node:crypto';
import { isValidEmail } from '../checkout-preferences/checkout-preference.rules.ts';
import type { Repositories } from '../repositories/repositories.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { Result } from '../shared/result.ts';
import { err, ok } from '../shared/result.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { LogoFile } from './logo-image.ts';
import { inspectLogo } from './logo-image.ts';
import type { Merchant } from './merchant.ts';
import type { StoredLogo, StoredSettings } from './merchant-settings.ts';
import { applySettingsPatch, readStoredSettings } from './merchant-settings.ts';

/**
 * The business profile: what the payer sees of the merchant on the hosted checkout and in the
 * e-mails sent to them (display name, support address, accent colour, logo). Kept in the
 * merchant's settings (`profile`); the logo's bytes in merchant_logos, addressed by SHA-256.
 */
export type BusinessProfile = {
  merchantId: string;
  /** The merchant's own name (as created). */
  merchantName: string;
  /** What payers are shown: the display name when set, else the merchant's name. */
  displayName: string;
  /** The display name as set, or null when the merchant's name is used. */
  storedDisplayName: string | null;
  supportEmail: string | null;
  /** `#rrggbb`, lower case. */
  accentColor: string | null;
  logo: StoredLogo | null;
};

export type ProfileField = 'display_name' | 'support_email' | 'accent_color';

/** A problem with one form field, in words for the person who typed it. */
export type FieldProblem<F extends string> = { field: F; message: string };

/** The profile form as typed; an empty field means "not set". */
export type ProfileInput = { displayName: string; supportEmail: string; accentColor: string };

export const MAX_DISPLAY_NAME = 100;

// Control characters would reach e-mail headers; bidirectional overrides can make a name read
// as another on the payer's screen.
const FORBIDDEN_IN_NAME = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u;

/** Checks the profile form; each problem names its field. */
export function checkProfile(
  input: ProfileInput,
): Result<
  { display_name: string | null; support_email: string | null; accent_color: string | null },
  FieldProblem<ProfileField>[]
> {
  const problems: FieldProblem<ProfileField>[] = [];
  const displayName = input.displayName.trim();
  if ([...displayName].length > MAX_DISPLAY_NAME) {
    problems.push({ field: 'display_name', message: `Display name must be at most ${MAX_DISPLAY_NAME} characters.` });
  } else if (FORBIDDEN_IN_NAME.test(displayName)) {
    problems.push({
      field: 'display_name',
      message: 'Display name must not contain control or text-direction characters.',
    });
  }
  const supportEmail = input.supportEmail.trim();
  if (supportEmail !== '' && !isValidEmail(supportEmail)) {
    problems.push({
      field: 'support_email',
      message: 'Support e-mail must be an e-mail address, such as help@example.com.',
    });
  }
  const accent = input.accentColor.trim();
  if (accent !== '' && !/^#[0-9a-fA-F]{6}$/.test(accent)) {
    problems.push({
      field: 'accent_color',
      message: 'Accent colour must be written #rrggbb: a # and six hexadecimal digits, such as #0b57d0.',
    });
  }
  if (problems.length > 0) {
    return err(problems);
  }
  return ok({
    display_name: displayName === '' ? null : displayName,
    support_email: supportEmail === '' ? null : supportEmail,
    accent_color: accent === '' ? null : accent.toLowerCase(),
  });
}

/** The profile of a merchant from its record and stored settings. */
export function profileOf(merchant: Merchant, stored: StoredSettings): BusinessProfile {
  const p = stored.profile ?? {};
  const storedName = typeof p.display_name === 'string' && p.display_name.trim() !== '' ? p.display_name : null;
  return {
    merchantId: merchant.id,
    merchantName: merchant.name,
    displayName: storedName ?? merchant.name,
    storedDisplayName: storedName,
    supportEmail: p.support_email ?? null,
    accentColor: p.accent_color ?? null,
    logo: p.logo ?? null,
  };
}

/** The profile inside a transaction (e-mails queued with the change that causes them); null for an unknown merchant. */
export async function profileIn(repos: Repositories, merchantId: string): Promise<BusinessProfile | null> {
  return (await profileAndSettingsIn(repos, merchantId))?.profile ?? null;
}

/** The profile and the stored settings it was read from; null for an unknown merchant. */
async function profileAndSettingsIn(
  repos: Repositories,
  merchantId: string,
): Promise<{ profile: BusinessProfile; settings: StoredSettings } | null> {
  const merchant = await repos.merchants.get(merchantId);
  if (!merchant) {
    return null;
  }
  const settings = readStoredSettings(await repos.merchants.getSettings(merchantId));
  return { profile: profileOf(merchant, settings), settings };
}

export class MerchantProfileService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** The merchant's profile; NOT_FOUND for an unknown merchant. */
  async get(merchantId: string): Promise<BusinessProfile> {
    const profile = await profileIn(this.uow.read, merchantId);
    if (!profile) {
      throw new AppError('NOT_FOUND', [`merchant ${merchantId} not found`]);
    }
    return profile;
  }

  /**
   * The profile, and the stored settings it is kept in: the checkout shows the one and decides
   * with the other which methods a live payer is offered, from one read. NOT_FOUND for an unknown merchant.
   */
  async getWithSettings(merchantId: string): Promise<{ profile: BusinessProfile; settings: StoredSettings }> {
    const found = await profileAndSettingsIn(this.uow.read, merchantId);
    if (!found) {
      throw new AppError('NOT_FOUND', [`merchant ${merchantId} not found`]);
    }
    return found;
  }

  /** Sets display name, support e-mail and accent colour (an empty one is removed); the logo is kept. */
  async update(
    merchantId: string,
    input: ProfileInput,
  ): Promise<Result<BusinessProfile, FieldProblem<ProfileField>[]>> {
    const checked = checkProfile(input);
    if (!checked.ok) {
      return checked;
    }
    return ok(
      await this.uow.transaction(async (repos) => {
        await applySettingsPatch(repos, merchantId, { profile: checked.value });
        return this.inTransaction(repos, merchantId);
      }),
    );
  }

  /**
   * Replaces the logo with `bytes` once they prove to be a whole PNG or JPEG of sane size (see
   * logo-image.ts); the message says why not otherwise, and nothing is stored.
   */
  async setLogo(merchantId: string, bytes: Uint8Array): Promise<Result<StoredLogo, string>> {
    const checked = inspectLogo(bytes);
    if (!checked.ok) {
      return err(checked.message);
    }
    const logo: StoredLogo = {
      sha256: createHash('sha256').update(bytes).digest('hex'),
      content_type: checked.facts.contentType,
      width: checked.facts.width,
      height: checked.facts.height,
    };
    await this.uow.transaction(async (repos) => {
      // 1. The settings first: they fail with NOT_FOUND for an unknown merchant, storing nothing.
      await applySettingsPatch(repos, merchantId, { profile: { logo } });
      // 2. The bytes, and only the current logo's bytes are kept (one transaction, so a
      //    concurrent upload can never leave the settings naming a deleted file).
      await repos.merchantLogos.put({
        merchantId,
        sha256: logo.sha256,
        contentType: logo.content_type,
        width: logo.width,
        height: logo.height,
        bytes,
        createdAt: this.clock.now().getTime(),
      });
      await repos.merchantLogos.deleteAllBut(merchantId, logo.sha256);
    });
    return ok(logo);
  }

  /** Removes the logo; false when there was none. */
  async removeLogo(merchantId: string): Promise<boolean> {
    return this.uow.transaction(async (repos) => {
      const before = await profileIn(repos, merchantId);
      if (!before) {
        throw new AppError('NOT_FOUND', [`merchant ${merchantId} not found`]);
      }
      await applySettingsPatch(repos, merchantId, { profile: { logo: null } });
      await repos.merchantLogos.deleteAllBut(merchantId, null);
      return before.logo !== null;
    });
  }

  /** A stored logo by its address; undefined when this merchant has no such logo. */
  async logoFile(merchantId: string, sha256: string): Promise<LogoFile | undefined> {
    if (!/^[0-9a-f]{64}$/.test(sha256)) {
      return undefined;
    }
    return this.uow.read.merchantLogos.get(merchantId, sha256);
  }

  private async inTransaction(repos: Repositories, merchantId: string): Promise<BusinessProfile> {
    const profile = await profileIn(repos, merchantId);
    if (!profile) {
      throw new AppError('NOT_FOUND', [`merchant ${merchantId} not found`]);
    }
    return profile;
  }
}
