import type { Words } from './words.ts';

export const developersWords: Words = {};
