/**
 * Tells this process's key cache (MerchantService) when key records it has read may have been
 * changed somewhere else: by the `cobro keys revoke` command, another connection, or another
 * instance on the same PostgreSQL. It is what lets a revocation committed anywhere take effect
 * on the very next request. Implemented in db/ (SQLite `PRAGMA data_version`, PostgreSQL
 * `LISTEN`), wired in main.ts.
 */
export interface CredentialFreshness {
  /**
   * A version of what this process can see of changes made elsewhere. Records read after a
   * version was taken may be cached for as long as it stays the same; a different version
   * means something may have changed since, so everything cached before must be dropped.
   * `null` means changes made elsewhere cannot be noticed right now (the PostgreSQL listener
   * is not connected): nothing may be cached until a version is back.
   *
   * Called on every authenticated request, so it is synchronous and cheap (no query on
   * PostgreSQL; one prepared pragma on SQLite).
   */
  version(): number | null;
  /**
   * Registers `listener`, called when another process announces that it revoked a key:
   * `apiKey` is that key, or `null` when any key may have changed. Sources that only
   * version (SQLite) never call it.
   */
  onRevoked(listener: (apiKey: string | null) => void): void;
  /**
   * Called once a revocation of `apiKey` by this process has committed; resolves when every
   * other running process that might have the key cached has dropped it, so that "revoked"
   * means refused everywhere from then on. Never rejects, and waits a bounded time for a
   * process that does not answer (it drops the key when the announcement reaches it).
   */
  confirmRevoked(apiKey: string): Promise<void>;
}
