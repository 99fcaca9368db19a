// Headless Debian Chromium and the owner's sign-in, shared by the browser tests, `npm run bench -- web`
// and `npm run screenshots` (no test runner imported here).
import { type Browser, chromium, type Page } from 'playwright-core';
import { chromiumPath } from '../system-programs.js';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--disable-dev-shm-usage',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Sets the password through a one-time link (`linkUrl`, already on `origin`) and waits for the app. */
export async function setPasswordAndSignIn(page: Page, linkUrl: string, password: string): Promise<void> {
  await page.goto(linkUrl);
  await page.getByLabel('New password', { exact: false }).first().fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.getByRole('heading', { name: 'Contacts' }).waitFor();
}
