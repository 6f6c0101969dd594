/**
 * Runs `fn` on every item, at most `limit` at a time, in the items' order of start. The first
 * failure stops new items from starting; the ones under way finish, then it is thrown (as a
 * loop over the items would have stopped there).
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++] as T;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) {
    throw (failure as { error: unknown }).error;
  }
}
