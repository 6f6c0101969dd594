/** What an adapter may report. Anything it cannot classify is PENDING. */
export type ProviderStatus = 'PENDING' | 'REQUIRES_ACTION' | 'PAID' | 'FAILED' | 'EXPIRED';
