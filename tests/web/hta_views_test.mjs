// The critical-path and launch-delays views on their own (tests/web/hta_checks.mjs), in
// Debian's headless Chromium: needs no wasm build, since every report comes from a
// share link (the page's files from web/ are enough). Where the site has the wasm module,
// the bundled sample is opened too and both views are checked on its report.
//   node tests/web/hta_views_test.mjs [--site build/wasm/web] [--screenshots DIR]
// Prints "hta views: N passed, M failed"; exits non-zero on any failure.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { htaChecks } from './hta_checks.mjs';
import { CHROMIUM, checks, defaultSite, gzOf, launchChromium, pathOptions, repo, startPageServer } from './support/harness.mjs';

const option = pathOptions();
const site = option('--site', defaultSite);
const screenshots = option('--screenshots', path.join(repo, 'build/wasm/web-screenshots'));
const { check, finish } = checks('hta views');

if (!existsSync(CHROMIUM)) {
  check(false, `${CHROMIUM} exists (run: bash .ci/dev.sh setup (apt-get install chromium))`);
  finish(1);
}
mkdirSync(screenshots, { recursive: true });
mkdirSync(site, { recursive: true });  // serve.mjs wants the root; web/ alone serves the page
const { server, origin } = await startPageServer(site);
let browser;
try {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const hta = htaChecks({ context, origin, repo, check, screenshots });
  await hta();
  // The bundled sample through the wasm module, where the site has it.
  if (existsSync(path.join(site, 'sollens.wasm')) && existsSync(path.join(site, 'samples/h100-bert-small.json.gz'))) {
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.click('#open-sample');
    await page.waitForFunction(() => ['loaded', 'error'].includes(document.body.dataset.state), null, { timeout: 60_000 });
    if (check(await page.evaluate(() => document.body.dataset.state) === 'loaded', 'hta views: the sample opens')) await hta.realTrace(page, 'sample', gzOf('tracelens-h100-bert-small'));
    await page.close();
  } else {
    console.log(`(no wasm module in ${site}: the sample is not opened)`);
  }
  console.log(`screenshots in ${screenshots}`);
} catch (e) {
  check(false, `unexpected: ${e.stack ?? e}`);
} finally {
  await browser?.close();
  server.kill();
}
finish();
