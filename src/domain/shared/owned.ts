import { notFound } from './errors.ts';
import { isWellFormedId } from './ids.ts';

/**
 * One object by id, or NOT_FOUND (`<name> not found`). A malformed id answers NOT_FOUND without
 * a query. `read` decides whose rows are seen: the caller's merchant and mode for the API and
 * the dashboard, the id alone where the id is itself the capability (the hosted checkout) or
 * was just read (the same row again inside a transaction), so another merchant's id answers
 * exactly like an unknown one.
 */
export async function getOwned<T>(id: string, name: string, read: (id: string) => Promise<T | undefined>): Promise<T> {
  const row = isWellFormedId(id) ? await read(id) : undefined;
  if (!row) {
    throw notFound(name);
  }
  return row;
}
