// Shared by every page of the dashboard. Data arrive as JSON in #bg-data (and the commits table
// in data/commits.js); every text from them is inserted as text, never as markup.
(function () {
  'use strict';
  const BG = {};

  BG.data = function () {
    return JSON.parse(document.getElementById('bg-data').textContent);
  };

  const ATTRIBUTES = new Set(['href', 'title', 'type', 'placeholder', 'value', 'id', 'for',
    'role', 'colspan', 'width', 'height', 'aria-label']);

  // el('a', {href: 'x.html', class: 'c', text: 'label'}, child...): children that are not
  // nodes become text nodes.
  BG.el = function (tag, props, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = String(v);
      else if (k.startsWith('data-') || ATTRIBUTES.has(k)) e.setAttribute(k, String(v));
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e[k] = v;
    }
    for (const c of children) {
      if (c === null || c === undefined) continue;
      e.append(c instanceof Node ? c : String(c));
    }
    return e;
  };

  BG.main = function () { return document.getElementById('main'); };

  // Cumulative sums: the inverse of the site's delta encoding.
  BG.undelta = function (values) {
    const out = new Array(values.length);
    let sum = 0;
    for (let i = 0; i < values.length; ++i) { sum += values[i]; out[i] = sum; }
    return out;
  };
  // Differences with nulls where a value is missing; the sum skips them.
  BG.undeltaNullable = function (values) {
    let sum = 0;
    return values.map((v) => (v === null ? null : (sum += v)));
  };
  // [value, count, value, count, ...] back to the values.
  BG.unrle = function (pairs) {
    const out = [];
    for (let i = 0; i + 1 < pairs.length; i += 2)
      for (let k = 0; k < pairs[i + 1]; ++k) out.push(pairs[i]);
    return out;
  };
  BG.unscale = function (values, scale) {
    return values.map((v) => (v === null ? null : v * scale));
  };

  function sig(v, digits) {
    if (v === 0) return '0';
    const a = Math.abs(v);
    if (a >= 1e5 || a < 1e-3) return v.toExponential(digits - 1);
    return Number(v.toPrecision(digits)).toString();
  }

  // A value in its unit, scaled to a readable prefix for seconds and bytes.
  BG.value = function (v, unit) {
    if (v === null || v === undefined || !isFinite(v)) return '-';
    if (unit === 's') {
      const a = Math.abs(v);
      if (a === 0) return '0 s';
      if (a < 1e-6) return sig(v * 1e9, 4) + ' ns';
      if (a < 1e-3) return sig(v * 1e6, 4) + ' \u00b5s';
      if (a < 1) return sig(v * 1e3, 4) + ' ms';
      return sig(v, 4) + ' s';
    }
    if (unit === 'B') {
      const a = Math.abs(v);
      if (a >= 1 << 30) return sig(v / (1 << 30), 4) + ' GiB';
      if (a >= 1 << 20) return sig(v / (1 << 20), 4) + ' MiB';
      if (a >= 1 << 10) return sig(v / (1 << 10), 4) + ' KiB';
      return sig(v, 4) + ' B';
    }
    return sig(v, 4) + (unit ? ' ' + unit : '');
  };

  BG.percent = function (f, signed) {
    if (f === null || f === undefined || !isFinite(f)) return '-';
    const p = (100 * f).toFixed(1) + '%';
    return signed && f > 0 ? '+' + p : p;
  };

  BG.change = function (c) {
    if (!c) return '';
    let text = BG.percent(c.change, true);
    if (c.lower !== null && c.upper !== null)
      text += ' [' + BG.percent(c.lower, true) + ' .. ' + BG.percent(c.upper, true) + ']';
    return text;
  };

  BG.date = function (seconds) {
    if (!seconds) return '-';
    return new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
  };

  BG.short = function (commit) { return commit ? commit.slice(0, 10) : '-'; };

  const table = window.benchguardCommits || { commits: [], runPages: [], allRunPages: false };
  const paged = new Set(table.runPages);
  const planned = new Set(table.planPages || []);
  BG.commit = function (i) {
    const c = table.commits[i];
    return c ? { commit: c[0], time: c[1], branch: c[2] } : { commit: '', time: 0, branch: '' };
  };
  BG.commitCount = function () { return table.commits.length; };
  BG.runPage = function (id) {
    return table.allRunPages || paged.has(id) ? 'run-' + id + '.html' : null;
  };

  BG.planPage = function (id) {
    return table.allRunPages || planned.has(id) ? 'plan-' + id + '.html' : null;
  };

  BG.statusBadge = function (status) {
    return BG.el('span', { class: 'badge status-' + status, text: status });
  };

  // A line of recent values on a small canvas.
  BG.sparkline = function (values, status) {
    const w = 120, h = 28;
    const canvas = BG.el('canvas', { width: w, height: h, class: 'spark' });
    const ctx = canvas.getContext('2d');
    const finite = values.filter((v) => v !== null);
    if (finite.length === 0) return canvas;
    let lo = Math.min(...finite), hi = Math.max(...finite);
    if (hi === lo) { hi += 1; lo -= 1; }
    ctx.strokeStyle = status === 'regression' ? '#c62828'
      : status === 'suspected' ? '#e08600' : '#2f6db5';
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    let started = false;
    values.forEach((v, i) => {
      if (v === null) return;
      const x = values.length === 1 ? w / 2 : 2 + (i * (w - 4)) / (values.length - 1);
      const y = h - 3 - ((v - lo) * (h - 6)) / (hi - lo);
      if (started) ctx.lineTo(x, y); else { ctx.moveTo(x, y); started = true; }
    });
    ctx.stroke();
    return canvas;
  };

  // A table from a header and rows of cells (nodes or text).
  BG.table = function (header, rows, cls) {
    const thead = BG.el('thead', null, BG.el('tr', null, ...header.map((h) => BG.el('th', { text: h }))));
    const tbody = BG.el('tbody');
    for (const r of rows) tbody.append(BG.row(r));
    return BG.el('table', { class: cls || 'data' }, thead, tbody);
  };
  BG.row = function (cells) {
    return BG.el('tr', null, ...cells.map((c) => (c instanceof Node && c.tagName === 'TD') ? c : BG.el('td', null, c)));
  };

  BG.warnings = function (list) {
    if (!list || list.length === 0) return null;
    return BG.el('ul', { class: 'warnings' }, ...list.map((w) => BG.el('li', { text: w })));
  };

  // An A/B comparison as `compare --format json` has it: a table per metric (the variant
  // named where the rows pair variants by name), then its notes.
  BG.abTables = function (t) {
    const out = [];
    for (const m of t.metrics) {
      const named = m.rows.some((r) => r.variant !== undefined);
      const rows = m.rows.map((r) => [
        BG.el('td', { class: 'name', text: r.benchmark }),
        ...(named ? [BG.el('td', { class: 'name variant', text: r.variant === undefined ? '' : r.variant })] : []),
        BG.el('td', { class: 'num', text: BG.value(r.value_a, m.unit) }),
        BG.el('td', { class: 'num', text: BG.value(r.value_b, m.unit) }),
        BG.el('td', { class: 'num', text: r.ratio === null ? '-' : r.ratio.toFixed(3) }),
        BG.el('td', { class: 'num', text: r.ci[0] === null ? '-' : r.ci[0].toFixed(3) + ' .. ' + r.ci[1].toFixed(3) }),
        BG.el('td', { class: 'num', text: r.p_value_bootstrap_holm === null ? '-' : r.p_value_bootstrap_holm.toPrecision(2) }),
        BG.el('td', null, BG.el('span', { class: 'badge verdict-' + r.verdict, text: r.verdict })),
      ]);
      if (t.metrics.length > 1) out.push(BG.el('h3', { text: m.metric }));
      const head = ['benchmark', ...(named ? ['variant'] : []), 'A', 'B', 'B/A', Math.round(100 * t.confidence) + '% CI', 'p (Holm)', 'verdict'];
      const table = BG.table(head, rows, 'data ab');
      table.setAttribute('data-metric', m.metric);
      out.push(table);
    }
    const notes = (t.warnings || []).concat((t.only_in_a || []).map((b) => b + ': only in A'), (t.only_in_b || []).map((b) => b + ': only in B'));
    const warn = BG.warnings(notes);
    if (warn) out.push(warn);
    return out;
  };

  // Width for a chart: the page's content width.
  BG.chartWidth = function () {
    return Math.max(320, Math.min(1200, BG.main().clientWidth - 8));
  };

  // The page is drawn: marked for tests, with the time it took since navigation began.
  BG.ready = function () {
    window.benchguardReadyMs = performance.now();
    document.body.setAttribute('data-ready', '1');
  };

  function markNav() {
    const page = document.body.getAttribute('data-page');
    for (const a of document.querySelectorAll('nav a')) {
      if (a.getAttribute('data-nav') === page) a.classList.add('active');
    }
  }
  markNav();

  window.BG = BG;
})();
