import type { Words } from './words.ts';

export const subscriptionsWords: Words = {};
