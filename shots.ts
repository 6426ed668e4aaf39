import { chromium } from 'playwright-core';
const base = process.env.BASE ?? 'http://127.0.0.1:3100';
const pages = (process.env.PAGES ?? '/profile/settings,/groups,/notifications').split(',');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const width of [390, 1280]) {
  const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, locale: process.env.LOCALE ?? 'es-ES', baseURL: base });
  const page = await context.newPage();
  await page.goto('/login');
  await page.locator('input[type="email"]').fill('whiskers@example.com');
  await page.locator('input[type="password"]').fill('Neighbour1Cats');
  await page.locator('input[type="checkbox"]').check();
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  for (const path of pages) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    const name = `/work/shots/${process.env.LOCALE ?? 'es'}${path.replace(/\W+/g, '-')}-${width}.png`;
    await page.screenshot({ path: name, fullPage: process.env.FULL === '1' });
    console.log(name);
  }
  await context.close();
}
await browser.close();
