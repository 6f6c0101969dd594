import { connectionsWords } from './connections.ts';
import { developersWords } from './developers.ts';
import { frameWords } from './frame.ts';
import { homeWords } from './home.ts';
import { paymentsWords } from './payments.ts';
import { settingsWords } from './settings.ts';
import { subscriptionsWords } from './subscriptions.ts';
import type { Words } from './words.ts';

/**
 * Every area's words. An English text in two areas must translate the same way in both
 * (tested).
 */
export const AREAS: Record<string, Words> = {
  connections: connectionsWords,
  developers: developersWords,
  frame: frameWords,
  home: homeWords,
  payments: paymentsWords,
  settings: settingsWords,
  subscriptions: subscriptionsWords,
};

/** Every text a dashboard page may show: a text without its translations does not compile. */
export type DashboardText =
  | keyof typeof connectionsWords
  | keyof typeof developersWords
  | keyof typeof frameWords
  | keyof typeof homeWords
  | keyof typeof paymentsWords
  | keyof typeof settingsWords
  | keyof typeof subscriptionsWords;

export type { Words } from './words.ts';
