/**
 * What every chain source's client shares: the outside world answers through a size cap, and
 * whatever goes wrong becomes a ChainSourceError, which makes a call fail and never makes a
 * payment appear.
 */

/** A chain source call that failed: no answer, a bad status, an oversized or malformed answer. */
export class ChainSourceError extends Error {
  override name = 'ChainSourceError';
}

/** The body as text, refusing (and abandoning) one larger than `max` bytes. */
export async function readCapped(res: Response, max: number, path: string): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw new ChainSourceError(`GET ${path}: answer of ${declared} bytes is over the ${max}-byte limit`);
  }
  if (!res.body) {
    return '';
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        break;
      }
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        throw new ChainSourceError(`GET ${path}: answer over the ${max}-byte limit`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ChainSourceError) {
      throw error;
    }
    throw new ChainSourceError(`GET ${path}: ${(error as Error).message}`);
  }
  return Buffer.concat(chunks).toString('utf8');
}
