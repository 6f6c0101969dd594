import type { Page } from 'playwright-core';
import { CLI_ACTOR } from '../../../src/domain/dashboard/audit.ts';
import { pathOf, TEST_PASSWORD, uniqueEmail } from '../../support/dashboard-client.ts';
import type { RunningCheckout } from './browser.ts';

/**
 * A member with `role`, invited as the command line does, who accepts the invitation and signs
 * in in the browser. Returns the address (one per run: accounts are global).
 */
export async function signInInBrowser(env: RunningCheckout, page: Page, role: string): Promise<string> {
  const email = uniqueEmail(role);
  const invitation = await env.cobro.services.dashboard.team.invite(env.merchant.id, email, role, CLI_ACTOR);
  await page.goto(`${env.baseUrl}${pathOf(invitation.inviteUrl)}`);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Create account', exact: true }).click();
  await page.waitForURL(/\/dashboard\/login/);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/dashboard$/);
  return email;
}
