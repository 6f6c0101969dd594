import assert from 'node:assert/strict';
import { AppError } from '../../src/domain/shared/errors.ts';

/** Asserts `promise` fails with the service's error of `code`, its messages matching `message`. */
export async function expectAppError(promise: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: Error) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, code);
    assert.match(error.messages.join(' '), message);
    return true;
  });
}
