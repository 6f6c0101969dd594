import type { PasswordReset } from '../dashboard/dashboard-user.ts';

/** Password reset links, by the hash of their token. */
export interface PasswordResetRepository {
  insertPasswordReset(reset: PasswordReset): Promise<void>;
  passwordReset(tokenHash: string): Promise<PasswordReset | undefined>;
  usePasswordReset(tokenHash: string, at: number): Promise<boolean>;
}
