import type { Words } from './words.ts';

export const paymentsWords: Words = {};
