import type { Invitation } from '../dashboard/dashboard-user.ts';

/** Invitations to join a merchant's team, by the hash of their token. */
export interface InvitationRepository {
  insertInvitation(invitation: Invitation): Promise<void>;
  invitation(tokenHash: string): Promise<Invitation | undefined>;
  /** Marks it used only if it was unused; false when another request used it first. */
  useInvitation(tokenHash: string, at: number): Promise<boolean>;
  pendingInvitations(merchantId: string, now: number): Promise<Invitation[]>;
}
