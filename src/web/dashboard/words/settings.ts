import type { Words } from './words.ts';

export const settingsWords: Words = {};
