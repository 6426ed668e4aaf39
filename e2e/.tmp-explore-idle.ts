import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'], ignoreDefaultArgs: ['--disable-back-forward-cache'] });
const context = await browser.newContext({ baseURL: 'http://localhost:3100' });
const page = await context.newPage();
const inflight = new Map<string, number>();
page.on('request', (r) => inflight.set(r.url(), Date.now()));
page.on('requestfinished', (r) => inflight.delete(r.url()));
page.on('requestfailed', (r) => inflight.delete(r.url()));
await page.goto('/login');
await page.getByLabel('Email').fill('demo@neighbourhood.cats');
await page.getByLabel('Password', { exact: true }).fill('DemoCats123');
await page.getByLabel('Remember me').check();
await page.getByRole('button', { name: 'Log In' }).click();
await page.waitForURL((u) => !u.pathname.startsWith('/login'));
for (const path of ['/', '/feed', '/spot', '/groups', '/profile/me', '/profile/settings', '/about', '/explore', '/feed']) {
  const t = Date.now();
  try {
    await page.goto(path, { waitUntil: 'networkidle', timeout: 15000 });
    console.log(path, 'idle after', Date.now() - t, 'ms');
  } catch (e) {
    console.log(path, 'NOT idle', [...inflight.entries()].map(([u, s]) => `${u} (${Date.now() - s} ms)`));
  }
}
await browser.close();
