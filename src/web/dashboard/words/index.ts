import { homeWords } from './home.ts';
import type { Words } from './words.ts';

/** Every area's words. An English text in two areas must translate the same way in both (tested). */
export const AREAS: Record<string, Words> = {
  home: homeWords,
};

export type { Words } from './words.ts';
