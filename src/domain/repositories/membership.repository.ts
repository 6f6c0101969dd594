import type { Membership, MemberView } from '../dashboard/dashboard-user.ts';

/** Who belongs to which merchant, with which role. */
export interface MembershipRepository {
  upsertMembership(membership: Membership): Promise<void>;
  membership(userId: string, merchantId: string): Promise<Membership | undefined>;
  membershipsOf(userId: string): Promise<Membership[]>;
  members(merchantId: string): Promise<MemberView[]>;
  removeMembership(userId: string, merchantId: string): Promise<void>;
  countOwners(merchantId: string): Promise<number>;
}
