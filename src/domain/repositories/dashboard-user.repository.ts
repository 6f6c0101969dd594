import type { DashboardUser } from '../dashboard/dashboard-user.ts';

/** Dashboard users: e-mail, password hash, second factor, locale. */
export interface DashboardUserRepository {
  insertUser(user: DashboardUser): Promise<void>;
  userById(id: string): Promise<DashboardUser | undefined>;
  userByEmail(email: string): Promise<DashboardUser | undefined>;
  updateUser(
    id: string,
    patch: Partial<
      Pick<DashboardUser, 'passwordHash' | 'totpSecret' | 'totpEnabledAt' | 'totpLastStep' | 'recoveryCodes' | 'locale'>
    >,
  ): Promise<void>;
  /** Sets the last used TOTP step only if it is newer; false when the step was already used. */
  useTotpStep(userId: string, step: number): Promise<boolean>;
}
