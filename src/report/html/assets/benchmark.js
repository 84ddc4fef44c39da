// One benchmark variant on one machine class: a chart per metric over commits, with the 95%
// interval of each point as a band, change points marked, commit and date on hover, a click
// through to the run, drag to zoom (double click: all), and instance means on demand.
(function () {
  'use strict';
  const BG = window.BG, el = BG.el;
  const data = BG.data();
  const main = BG.main();
  main.append(el('p', { class: 'subtitle', text: 'variant ' + data.variant + ' \u00b7 machine ' + data.machine }));
  main.append(el('p', { class: 'legend-note', text: 'Drag across a chart to zoom, double-click to see all; click a point to open its run.' }));

  function prepare(c) {
    const commit = BG.undelta(BG.unrle(c.commit));
    const run = BG.undelta(BG.unrle(c.run));
    const centre = BG.unscale(BG.undeltaNullable(c.centre), c.scale);
    const below = BG.unscale(c.below, c.intervalScale);
    const above = BG.unscale(c.above, c.intervalScale);
    const instances = BG.unrle(c.instances);
    const lower = centre.map((v, i) => (v === null || below[i] === null ? null : v - below[i]));
    const upper = centre.map((v, i) => (v === null || above[i] === null ? null : v + above[i]));
    const x = centre.map((_, i) => i);
    return { commit, run, centre, lower, upper, x, instances };
  }

  function changePlugin(c) {
    return {
      hooks: {
        draw: [(u) => {
          const ctx = u.ctx;
          ctx.save();
          ctx.lineWidth = 2 * devicePixelRatio;
          ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
          for (const ch of c.changes) {
            const x = u.valToPos(ch.index - 0.5, 'x', true);
            if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
            ctx.strokeStyle = ch.kind === 'regression' ? (ch.ack !== null ? '#6b5fb5' : '#c62828') : '#2e7d32';
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
          }
          ctx.restore();
        }],
      },
    };
  }

  // The x axis by date; by short commit hash where dates would repeat (commits measured
  // minutes apart show the same label many times).
  function xLabels(p, splits) {
    const at = splits.map((i) => (Number.isInteger(i) && i >= 0 && i < p.commit.length ? i : null));
    const dates = at.map((i) => (i === null ? '' : BG.date(BG.commit(p.commit[i]).time).slice(5)));
    const shown = dates.filter((d) => d !== '');
    if (new Set(shown).size === shown.length) return dates;
    return at.map((i) => (i === null ? '' : BG.short(BG.commit(p.commit[i]).commit)));
  }

  // The unit the axis shows (ms for seconds of a few milliseconds, MiB for bytes, ...).
  function axisUnit(c, p) {
    const top = p.centre.reduce((m, v) => (v === null ? m : Math.max(m, Math.abs(v))), 0);
    const shown = BG.value(top, c.unit);
    const space = shown.lastIndexOf(' ');
    return space > 0 ? shown.slice(space + 1) : c.unit;
  }

  // The newest point, ringed: what the gate judges first.
  function newestPlugin(p) {
    return {
      hooks: {
        draw: [(u) => {
          const i = p.x.length - 1;
          if (i < 0 || p.centre[i] === null) return;
          const x = u.valToPos(i, 'x', true), y = u.valToPos(p.centre[i], 'y', true);
          if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) return;
          const ctx = u.ctx;
          ctx.save();
          ctx.strokeStyle = '#111';
          ctx.lineWidth = 2 * devicePixelRatio;
          ctx.beginPath();
          ctx.arc(x, y, 7 * devicePixelRatio, 0, 2 * Math.PI);
          ctx.stroke();
          ctx.restore();
        }],
      },
    };
  }

  function build(c, p, holder, hover, withInstances) {
    const xs = [p.x, p.centre, p.lower, p.upper];
    const series = [
      {},
      { label: c.metric, stroke: '#2f6db5', width: 2, points: { show: p.x.length <= 300, size: 5 } },
      { label: 'lower', stroke: 'rgba(47,109,181,0.35)', width: 1, points: { show: false } },
      { label: 'upper', stroke: 'rgba(47,109,181,0.35)', width: 1, points: { show: false } },
    ];
    if (withInstances) {
      const most = c.instanceMeans.reduce((m, a) => Math.max(m, a.length), 0);
      for (let k = 0; k < most; ++k) {
        const col = p.x.map((i) => {
          const j = i - c.instancesFrom;
          if (j < 0) return null;
          const v = c.instanceMeans[j][k];
          return v === undefined || v === null ? null : v * c.scale;
        });
        xs.push(col);
        series.push({ label: 'instance ' + (k + 1), stroke: 'rgba(224,134,0,0.8)', width: 0, paths: () => null, points: { show: true, size: 4, fill: 'rgba(224,134,0,0.6)' } });
      }
    }
    const opts = {
      width: BG.chartWidth(),
      height: 300,
      // Room on the right for the last date label.
      padding: [12, 36, 0, 0],
      scales: { x: { time: false } },
      series,
      bands: [{ series: [3, 2], fill: 'rgba(47,109,181,0.15)' }],
      legend: { show: false },
      cursor: { drag: { x: true, y: false, setScale: true } },
      axes: [
        { values: (u, splits) => xLabels(p, splits), space: 80 },
        { values: (u, splits) => splits.map((v) => BG.value(v, c.unit)), size: 80 },
      ],
      plugins: [changePlugin(c), newestPlugin(p)],
      hooks: {
        setCursor: [(u) => {
          const i = u.cursor.idx;
          if (i === null || i === undefined) return;
          const cm = BG.commit(p.commit[i]);
          const run = BG.runPage(p.run[i]);
          hover.replaceChildren(
            el('b', { class: 'hover-commit', text: BG.short(cm.commit) }), ' ' + BG.date(cm.time) + ' UTC',
            cm.branch ? ' \u00b7 ' + cm.branch : '',
            ' \u00b7 ' + BG.value(p.centre[i], c.unit),
            ' [' + BG.value(p.lower[i], c.unit) + ' .. ' + BG.value(p.upper[i], c.unit) + ']',
            ' \u00b7 ' + p.instances[i] + ' instances \u00b7 run ' + p.run[i] + (run ? ' (click to open)' : ''));
        }],
      },
    };
    holder.replaceChildren();
    const u = new uPlot(opts, xs, holder);
    let down = null;
    u.over.addEventListener('mousedown', (e) => { down = [e.clientX, e.clientY]; });
    // A click opens the run under the cursor; not the end of a drag (zoom), and not a double
    // click (which shows everything again).
    let pending = null;
    u.over.addEventListener('click', (e) => {
      if (e.detail !== 1 || (down && Math.hypot(e.clientX - down[0], e.clientY - down[1]) > 3)) return;
      const i = u.cursor.idx;
      if (i === null || i === undefined) return;
      const page = BG.runPage(p.run[i]);
      if (page) pending = setTimeout(() => { window.location.href = page; }, 250);
    });
    u.over.addEventListener('dblclick', () => { clearTimeout(pending); pending = null; });
    return u;
  }

  data.charts.forEach((c, n) => {
    const p = prepare(c);
    const section = el('section', { class: 'chart', id: 'chart-' + n, 'data-metric': c.metric });
    const toggle = el('input', { type: 'checkbox', id: 'instances-' + n });
    section.append(
      el('h2', { text: c.metric + ' (' + (axisUnit(c, p) ? axisUnit(c, p) + ', ' : '') + c.direction + ' is better; the newest point ringed)' }),
      el('div', { class: 'controls' }, el('label', { for: 'instances-' + n }, toggle, ' instance means (newest ' + c.instanceMeans.length + ' points)'),
        el('span', { class: 'muted', text: p.x.length + ' points, ' + c.changes.length + ' change point(s)' })));
    const hover = el('div', { class: 'hover', id: 'hover-' + n, text: 'Hover over the chart for a commit.' });
    const holder = el('div', { class: 'plot' });
    section.append(hover, holder);
    main.append(section);
    build(c, p, holder, hover, false);
    toggle.addEventListener('change', () => build(c, p, holder, hover, toggle.checked));
    if (c.changes.length > 0) {
      const rows = c.changes.map((ch) => [
        BG.statusBadge(ch.kind !== 'regression' ? 'improvement' : ch.ack !== null ? 'acknowledged' : ch.status === 'confirmed' ? 'regression' : 'suspected'),
        el('td', { title: ch.last_good + ' .. ' + ch.first_bad, text: BG.short(ch.last_good) + '..' + BG.short(ch.first_bad) }),
        el('td', { class: 'num', text: BG.date(ch.time) }),
        el('td', { class: 'num', text: BG.value(ch.before, c.unit) + ' \u2192 ' + BG.value(ch.after, c.unit) }),
        el('td', { class: 'num', text: BG.change(ch) }),
        ch.status,
        el('td', { class: 'name', text: ch.ack === null ? '' : 'acknowledged' + (ch.ack ? ': ' + ch.ack : '') }),
      ]);
      section.append(BG.table(['state', 'commits', 'date (UTC)', 'before \u2192 after', 'change [95% CI]', 'status', 'acknowledgement'], rows));
    }
  });
  BG.ready();
})();
