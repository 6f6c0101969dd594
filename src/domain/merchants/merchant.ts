/** Test keys drive sandbox providers and may call test helpers; live keys move real money. */
export type Mode = 'test' | 'live';

export const MODES: readonly Mode[] = ['test', 'live'];

export type Merchant = {
  id: string;
  name: string;
  createdAt: number;
};

/** A key pair's stored half: the secret itself is never kept, only its SHA-256 digest. */
export type ApiKey = {
  key: string;
  merchantId: string;
  mode: Mode;
  secretHash: Buffer;
  createdAt: number;
  revokedAt: number | null;
  /** What the merchant called it in the dashboard (absent or null: unnamed). */
  name?: string | null;
  /** Roughly when it last authenticated a request (recorded at most once an hour); null: never seen. */
  lastUsedAt?: number | null;
};

/** Who is calling: resolved from the key pair on every request. */
export type Caller = { merchantId: string; mode: Mode; key: string };
