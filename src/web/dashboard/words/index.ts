import { developersWords } from './developers.ts';
import { homeWords } from './home.ts';
import { paymentsWords } from './payments.ts';
import { settingsWords } from './settings.ts';
import { subscriptionsWords } from './subscriptions.ts';
import type { Words } from './words.ts';

/**
 * Every area's words. An English text in two areas must translate the same way in both
 * (tested); settings holds the frame, sign-in and team pages too.
 */
export const AREAS: Record<string, Words> = {
  developers: developersWords,
  home: homeWords,
  payments: paymentsWords,
  settings: settingsWords,
  subscriptions: subscriptionsWords,
};

export type { Words } from './words.ts';
