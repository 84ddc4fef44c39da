// The dashboard in headless Chromium: every page loads without a console error or a failed
// request, links resolve, charts draw, hover shows the commit, and hostile names stay text.
// Run by run.sh (ctest -L browser), which builds the site into $BG_SITE from $BG_DB.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import { spawn, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const require = createRequire(path.join(process.cwd(), 'package.json'));
const { chromium } = require('playwright-core');

const site = process.env.BG_SITE;
const shots = process.env.BG_SCREENSHOTS || '';
const HOSTILE = ['<img src=x onerror=alert(1)>', '"><script>alert(1)</script>'];

let browser;
let profile;

before(async () => {
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bg-chromium-'));
  browser = await chromium.launch({
    executablePath: process.env.BG_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      `--disk-cache-dir=${profile}`],
  });
});

after(async () => {
  if (browser) await browser.close();
  fs.rmSync(profile, { recursive: true, force: true });
});

// A page whose console errors, uncaught exceptions, failed requests and dialogs are recorded.
async function open(url, viewport = { width: 1280, height: 900 }) {
  const page = await browser.newPage({ viewport });
  const problems = [];
  const dialogs = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
  page.on('pageerror', (e) => problems.push('exception: ' + e.message));
  page.on('requestfailed', (r) => problems.push('request failed: ' + r.url()));
  page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 10000 });
  return { page, problems, dialogs };
}

const fileUrl = (name) => pathToFileURL(path.join(site, name)).href;

test('every page loads without errors and every link resolves', async () => {
  const seen = new Set(['index.html']);
  const queue = ['index.html'];
  let pages = 0;
  while (queue.length > 0) {
    const name = queue.shift();
    const { page, problems, dialogs } = await open(fileUrl(name));
    ++pages;
    assert.deepEqual(problems, [], name);
    assert.deepEqual(dialogs, [], name);
    const hrefs = await page.$$eval('a[href]', (as) => as.map((a) => a.href));
    for (const href of hrefs) {
      assert.ok(href.startsWith('file://'), `${name} links outside the site: ${href}`);
      const target = fileURLToPath(href.split('#')[0]);
      assert.ok(fs.existsSync(target), `${name} links to a missing ${target}`);
      const rel = path.relative(site, target);
      if (rel.endsWith('.html') && !seen.has(rel)) { seen.add(rel); queue.push(rel); }
    }
    await page.close();
  }
  assert.ok(pages >= 10, `only ${pages} pages reached`);
});

test('no file of the site names an external URL', () => {
  const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]);
  for (const f of walk(site)) {
    if (f.endsWith('.txt')) continue;  // the chart library's licence
    const text = fs.readFileSync(f, 'utf8');
    const urls = text.match(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}[^\s"')]*/gi) || [];
    assert.deepEqual(urls, [], f);
  }
});

test('the overview lists every series, sorted by severity, and filters', async () => {
  const { page, problems } = await open(fileUrl('index.html'));
  const rows = page.locator('table.overview tbody tr:not([hidden])');
  assert.equal(await rows.count(), 6);
  // The slowed-down benchmark comes first, as a regression.
  assert.equal(await rows.first().getAttribute('data-status'), 'regression');
  assert.equal(await rows.first().locator('a.series-link').textContent(), 'bench/0000');
  const sparks = await page.$$eval('canvas.spark', (cs) => cs.map((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) return true;
    return false;
  }));
  assert.equal(sparks.length, 6);
  assert.ok(sparks.every((x) => x), 'every sparkline draws');
  if (shots) await page.screenshot({ path: path.join(shots, 'dashboard-overview.png') });
  await page.fill('#search', 'bench/0003');
  assert.equal(await rows.count(), 1);
  await page.fill('#search', '');
  await page.selectOption('#status-filter', 'regression');
  assert.equal(await rows.count(), 1);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a benchmark page draws its chart, marks the change and shows the commit on hover',
  async () => {
    const { page, problems } = await open(fileUrl('index.html'));
    await Promise.all([page.waitForNavigation(), page.click('a.series-link >> text=bench/0000')]);
    await page.waitForSelector('body[data-ready="1"]');
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    const drawn = await page.$$eval('.chart canvas', (cs) => cs.some((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) return true;
      return false;
    }));
    assert.ok(drawn, 'the chart has pixels');
    // The title names the unit the axis shows (about 1 ms: ms, not s).
    const title = await page.locator('#chart-0 h2').textContent();
    assert.match(title, /^wall_time \(ms, lower is better; the newest point ringed\)$/);
    const over = page.locator('#chart-0 .u-over');
    const box = await over.boundingBox();
    await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
    const hover = await page.locator('#hover-0').textContent();
    const commits = await page.evaluate(() => window.benchguardCommits.commits.map((c) => c[0]));
    assert.ok(commits.some((c) => hover.includes(c.slice(0, 10))), hover);
    assert.match(hover, /2026-01-\d\d \d\d:\d\d UTC/);
    // The change point at 3/5 of the history is listed under the chart.
    const listed = await page.locator('#chart-0 table tbody tr').count();
    assert.equal(listed, 1);
    // Dragging across the middle zooms in: the chart's left edge is then a later commit;
    // a double click shows everything again.
    const indexAtLeftEdge = async () => {
      await page.mouse.move(box.x + 2, box.y + box.height / 2);
      const text = await page.locator('#hover-0').textContent();
      return commits.findIndex((c) => text.includes(c.slice(0, 10)));
    };
    assert.equal(await indexAtLeftEdge(), 0);
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const zoomed = await indexAtLeftEdge();
    assert.ok(zoomed >= 12 && zoomed <= 20, `left edge after zoom at commit ${zoomed}`);
    await page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
    assert.equal(await indexAtLeftEdge(), 0);
    await page.waitForTimeout(400);
    assert.match(page.url(), /benchmark-\d+\.html$/, 'a double click stays on the page');
    // Instance means on demand add points without errors.
    await page.check('#instances-0');
    assert.equal(await page.locator('#chart-0 canvas').count(), 1);
    if (shots) await page.screenshot({ path: path.join(shots, 'dashboard-benchmark.png') });
    // A click on the newest point opens its run.
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    await Promise.all([page.waitForNavigation(), page.mouse.click(box.x + box.width - 2, box.y + box.height / 2)]);
    assert.match(page.url(), /run-\d+\.html$/);
    await page.waitForSelector('body[data-ready="1"]');
    assert.deepEqual(problems, []);
    await page.close();
  });

test('the regressions page lists the change with its commit range', async () => {
  const { page, problems } = await open(fileUrl('regressions.html'));
  const rows = page.locator('table.regressions tbody tr:not([hidden])');
  assert.equal(await rows.count(), 1);
  const text = await rows.first().textContent();
  assert.match(text, /bench\/0000/);
  assert.match(text, /[0-9a-f]{10}\.\.[0-9a-f]{10}/);
  assert.match(text, /\+\d+\.\d%/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the newest run circles the outlier of bench/0003', async () => {
  const { page, problems } = await open(fileUrl('run-40.html'));
  const section = page.locator('section.chart', { hasText: 'bench/0003' });
  assert.match(await section.locator('.hover').textContent(), /circled: 1 outlier/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a run page draws per-iteration plots of its instances', async () => {
  const { page, problems } = await open(fileUrl('runs.html'));
  const first = page.locator('table tbody tr a').first();
  await Promise.all([page.waitForNavigation(), first.click()]);
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await page.locator('section.chart').count(), 6);
  const drawn = await page.$$eval('section.chart canvas', (cs) => cs.length > 0 && cs.every((c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) return true;
    return false;
  }));
  assert.ok(drawn);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the compare page has the A/B table and a heat map of every benchmark', async () => {
  const { page, problems } = await open(fileUrl('compare.html'));
  assert.equal(await page.locator('table.ab tbody tr').count(), 6);
  assert.equal(await page.locator('table.heatmap tbody tr').count(), 6);
  const cells = await page.$$eval('table.heatmap td.heat', (tds) => tds.map((t) => Number(t.textContent)));
  assert.equal(cells.length, 6 * 20);
  assert.ok(cells.every((p) => p >= 0 && p <= 1), String(cells));
  // Runs 21..40 against run 20: bench/0000 is 10% slower from run 25 on, and only there.
  const row = await page.$$eval('table.heatmap tbody tr', (trs) => {
    const tr = trs.find((t) => t.cells[0].textContent === 'bench/0000');
    return [...tr.querySelectorAll('td.heat')].map((t) => Number(t.textContent));
  });
  assert.ok(row.slice(0, 4).every((p) => p < 0.05), String(row));
  assert.ok(row.slice(4).every((p) => p > 0.95), String(row));
  // Read from the t distribution of the table's interval (the verdict's), which the legend says.
  assert.match(await page.locator('p.legend-note').last().textContent(), /t distribution of the interval/);
  if (shots) await page.screenshot({ path: path.join(shots, 'dashboard-compare.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

// The two-variant database (run.sh: two runs of three benchmarks in variants A and B).
const vsite = process.env.BG_VSITE;
const vfileUrl = (name) => pathToFileURL(path.join(vsite, name)).href;
const compareJson = (...args) => JSON.parse(execFileSync(process.env.BG_BINARY,
  ['compare', '--db', process.env.BG_VDB, ...args, '--metric', 'wall_time', '--format', 'json'],
  { encoding: 'utf8' }));

// A value as BG.value shows it ("50.45 ms"), in seconds.
function seconds(text) {
  const m = /^(-?[0-9.e+-]+) (ns|\u00b5s|ms|s)$/.exec(text);
  assert.ok(m, 'not a time: ' + text);
  return Number(m[1]) * { ns: 1e-9, '\u00b5s': 1e-6, ms: 1e-3, s: 1 }[m[2]];
}
// `shown` is `value` to the digits shown: 4 significant ones, or `decimals` places.
function near(shown, value, what, decimals) {
  const tolerance = decimals !== undefined ? 0.5 * 10 ** -decimals + 1e-12 : Math.abs(value) * 5.01e-4;
  assert.ok(Math.abs(shown - value) <= tolerance, what + ': shown ' + shown + ', compare says ' + value);
}

// Every row of the A/B table(s) in `page` against the rows of `compare --format json`: the
// benchmark, the variant, A, B, B/A, its interval, the Holm p-value and the verdict.
async function checkAbTable(page, tableSelector, cli) {
  const rows = cli.metrics[0].rows;
  const shown = await page.$$eval(tableSelector + ' tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const head = await page.$$eval(tableSelector + ' thead th', (ths) => ths.map((t) => t.textContent));
  assert.equal(shown.length, rows.length);
  const named = head.includes('variant');
  assert.equal(named, rows.some((r) => r.variant !== undefined));
  for (const cells of shown) {
    const [benchmark, ...rest] = cells;
    const variant = named ? rest.shift() : undefined;
    const r = rows.find((x) => x.benchmark === benchmark && x.variant === variant);
    assert.ok(r, 'no row of compare for ' + benchmark + ' [' + variant + ']');
    const [a, b, ratio, ci, p, verdict] = rest;
    const what = benchmark + (variant ? ' [' + variant + ']' : '');
    near(seconds(a), r.value_a, what + ' A');
    near(seconds(b), r.value_b, what + ' B');
    near(Number(ratio), r.ratio, what + ' B/A', 3);
    const [lo, hi] = ci.split(' .. ').map(Number);
    near(lo, r.ci[0], what + ' CI low', 3);
    near(hi, r.ci[1], what + ' CI high', 3);
    const digits = 1 - Math.floor(Math.log10(r.p_value_bootstrap_holm));
    near(Number(p), r.p_value_bootstrap_holm, what + ' p', digits);
    assert.equal(verdict, r.verdict, what + ' verdict');
  }
}

test('the compare page of two two-variant runs shows what `compare 1 2` says, variant by variant', async () => {
  const cli = compareJson('1', '2');
  const rows = cli.metrics[0].rows;
  assert.equal(rows.length, 6);
  assert.ok(rows.every((r) => r.variant === 'A' || r.variant === 'B'));
  // B is its own variant's value in each row, not the first variant's.
  for (const bench of ['bench/0000', 'bench/0001', 'bench/0002']) {
    const [a, b] = ['A', 'B'].map((v) => rows.find((r) => r.benchmark === bench && r.variant === v));
    assert.ok(b.value_b < 0.95 * a.value_b, bench);
  }
  const { page, problems } = await open(vfileUrl('compare.html'));
  await checkAbTable(page, 'table.ab', cli);
  // The heat map: a row per benchmark variant; its one column (the newest run) is the table's
  // rows: the same ratio, and P(worse by more than 1%) beyond 0.975 exactly when the
  // interval's lower end is beyond 1.01.
  const heat = await page.$$eval('table.heatmap tbody tr', (trs) => trs.map((tr) => ({
    benchmark: tr.cells[0].textContent, variant: tr.cells[1].textContent,
    cells: [...tr.querySelectorAll('td.heat')].map((t) => ({ text: t.textContent, title: t.title })),
  })));
  assert.equal(heat.length, 6);
  for (const h of heat) {
    const r = rows.find((x) => x.benchmark === h.benchmark && x.variant === h.variant);
    assert.ok(r, h.benchmark + ' [' + h.variant + ']');
    assert.equal(h.cells.length, 1);
    const m = /^P = ([0-9.]+), B\/A = ([0-9.]+),/.exec(h.cells[0].title);
    assert.ok(m, h.cells[0].title);
    near(Number(m[2]), r.ratio, h.benchmark + ' [' + h.variant + '] heat B/A', 3);
    const p = Number(m[1]);
    near(Number(h.cells[0].text), p, 'heat P', 2);
    if (r.ci[0] > 1.01) assert.ok(p >= 0.975, h.benchmark + ' ' + p);
    else assert.ok(p <= 0.975, h.benchmark + ' ' + p);
  }
  if (shots) await page.screenshot({ path: path.join(shots, 'dashboard-compare-variants.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('a two-variant run page has its own A/B table, as `compare RUN` has it', async () => {
  const cli = compareJson('2');
  const { page, problems } = await open(vfileUrl('run-2.html'));
  assert.equal(await page.locator('section#ab h2').textContent(), 'A/B: A against B');
  await checkAbTable(page, 'section#ab table.ab', cli);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the overview says which series join runs of different settings', async () => {
  const { page, problems } = await open(vfileUrl('index.html'));
  assert.match(await page.locator('#mixed-settings').textContent(), /^6 series join runs of different settings/);
  const notes = await page.$$eval('table.overview td .settings-note', (ds) => ds.map((d) => d.textContent));
  assert.equal(notes.length, 6);
  assert.ok(notes.every((n) => n === 'joins runs of different settings: warmup 0, 1'), String(notes));
  assert.deepEqual(problems, []);
  await page.close();
});

test('the plan page of the newest run has the MDS grid of every benchmark', async () => {
  const { page, problems } = await open(fileUrl('run-40.html'));
  await Promise.all([page.waitForNavigation(), page.click('#plan-link')]);
  await page.waitForSelector('body[data-ready="1"]');
  assert.match(page.url(), /plan-40\.html$/);
  assert.equal(await page.locator('section.plan').count(), 6);
  const first = page.locator('section.plan').first();
  assert.equal(await first.locator('table.mds tbody tr').count(), 5);
  // The newest run has 20 instances of 10 iterations: enough to choose a configuration.
  assert.equal(await first.locator('td.chosen').count(), 1);
  assert.match(await first.locator('td.chosen').textContent(), /^\d+\.\d%$/);
  assert.match(await first.locator('p.verdict').textContent(), /instances x \d+ iterations: detects/);
  if (shots) await page.screenshot({ path: path.join(shots, 'dashboard-plan.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('hostile names stay text: nothing runs, nothing is injected', async () => {
  for (const name of ['index.html', 'runs.html', 'regressions.html', 'compare.html']) {
    const { page, problems, dialogs } = await open(fileUrl(name));
    if (name === 'index.html') {
      const names = await page.$$eval('a.series-link', (as) => as.map((a) => a.textContent));
      for (const h of HOSTILE) assert.ok(names.includes(h), `${h} shown literally`);
      // Follow both hostile series to their pages.
      for (const h of HOSTILE) {
        const link = page.locator('a.series-link', { hasText: h });
        const href = await link.getAttribute('href');
        const sub = await open(fileUrl(href));
        assert.equal(await sub.page.locator('h1').textContent(), h);
        assert.equal(await sub.page.title(), h + ' - benchguard');
        assert.equal(await sub.page.locator('img').count(), 0);
        assert.deepEqual(sub.dialogs, []);
        assert.deepEqual(sub.problems, []);
        await sub.page.close();
      }
    }
    if (name === 'runs.html') {
      const labels = await page.$$eval('table tbody tr td:last-child', (tds) => tds.map((t) => t.textContent));
      assert.ok(labels.some((l) => l.includes('note=' + HOSTILE[0])), 'labels shown literally');
      assert.ok(labels.some((l) => l.includes('note=' + HOSTILE[1])), 'labels shown literally');
    }
    assert.equal(await page.locator('img').count(), 0, name);
    const scripts = await page.$$eval('script', (s) => s.map((e) => e.getAttribute('src') || e.type));
    assert.ok(scripts.every((s) => s === 'application/json' || !s.includes('alert')), name);
    assert.equal(scripts.filter((s) => s === 'application/json').length, 1, name);
    await page.waitForTimeout(100);
    assert.deepEqual(dialogs, [], name);
    assert.deepEqual(problems, [], name);
    await page.close();
  }
});

test('the Content-Security-Policy refuses inline script', async () => {
  const { page } = await open(fileUrl('index.html'));
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.inlineRan = true';
    document.body.append(s);
    return window.inlineRan === true;
  });
  assert.equal(ran, false);
  await page.close();
});

test('serve: the same pages over HTTP from the database, which stays untouched', async () => {
  const db = process.env.BG_DB;
  const digest = () => crypto.createHash('sha256').update(fs.readFileSync(db)).digest('hex');
  const before = digest();
  const child = spawn(process.env.BG_BINARY, ['serve', '--db', db, '--port', '0'],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const base = await new Promise((resolve, reject) => {
      let text = '';
      child.stderr.on('data', (d) => {
        text += d;
        const m = text.match(/serving (http:\/\/127\.0\.0\.1:\d+\/)/);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${text}`)));
    });
    const res = await fetch(base);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type'), /text\/html/);
    assert.match(res.headers.get('content-security-policy'), /script-src 'self'/);
    assert.equal((await fetch(base + 'index.html', { method: 'POST' })).status, 405);
    assert.equal((await fetch(base + 'nothing.html')).status, 404);
    const { page, problems, dialogs } = await open(base);
    assert.equal(await page.locator('table.overview tbody tr').count(), 6);
    await Promise.all([page.waitForNavigation(), page.click('a.series-link >> text=bench/0000')]);
    await page.waitForSelector('body[data-ready="1"]');
    const box = await page.locator('#chart-0 .u-over').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    assert.match(await page.locator('#hover-0').textContent(), /[0-9a-f]{10} 2026-/);
    // Every run has a page when served, the oldest included, and a plan page.
    await page.goto(base + 'run-1.html');
    await page.waitForSelector('body[data-ready="1"]');
    await Promise.all([page.waitForNavigation(), page.click('#plan-link')]);
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await page.locator('section.plan').count(), 6);
    assert.deepEqual(problems, []);
    assert.deepEqual(dialogs, []);
    await page.close();
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(digest(), before);
  assert.ok(!fs.existsSync(db + '-wal') && !fs.existsSync(db + '-shm'));
});
