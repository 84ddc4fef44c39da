// One run: what `summary` says per benchmark variant and metric, and each instance's
// iterations in order (detected burn-in shaded), so that warm-up and outliers can be seen.
(function () {
  'use strict';
  const BG = window.BG, el = BG.el;
  const d = BG.data();
  const main = BG.main();
  const facts = el('dl', { class: 'facts' });
  const add = (k, v) => { if (v !== '' && v !== null && v !== undefined) facts.append(el('dt', { text: k }), el('dd', { text: String(v) })); };
  add('uuid', d.uuid);
  add('status', d.status);
  add('started (UTC)', BG.date(d.started));
  add('suite', d.suite);
  add('commit', d.commit + (d.dirty ? ' (dirty)' : ''));
  add('branch', d.branch);
  add('host', d.host);
  add('labels', Object.entries(d.labels).map(([k, v]) => k + '=' + v).join(' '));
  add('command line', d.commandLine);
  main.append(facts);
  const plan = BG.planPage(d.id);
  if (plan) main.append(el('p', null, el('a', { href: plan, id: 'plan-link', text: 'Plan: the minimal detectable slowdown per instances x iterations from this run' })));

  const rows = d.summaries.map((s, n) => [
    el('td', { class: 'name' }, el('a', { href: '#summary-' + n, text: s.benchmark })),
    el('td', { class: 'name', text: s.variant }),
    s.metric,
    el('td', { class: 'num', text: String(s.instances) + (s.failed ? ' (+' + s.failed + ' failed)' : '') }),
    el('td', { class: 'num', text: String(s.iterations) }),
    el('td', { class: 'num', text: BG.value(s.mean, s.unit) }),
    el('td', { class: 'num', text: BG.value(s.meanCi[0], s.unit) + ' .. ' + BG.value(s.meanCi[1], s.unit) }),
    el('td', { class: 'num', text: BG.percent(s.cv) }),
    el('td', { class: 'num', text: BG.percent(s.cvWithin) }),
    el('td', { class: 'num', text: BG.percent(s.cvBetween) }),
    s.steady || '-',
    el('td', { class: 'num', text: String(s.burnInDetected) }),
    el('td', { class: 'num', text: String(s.outliers) }),
    el('td', { class: 'num', text: String(s.warnings.length) }),
  ]);
  main.append(el('h2', { text: 'Summary' }));
  main.append(BG.table(['benchmark', 'variant', 'metric', 'inst', 'iter', 'mean', '95% CI', 'cv', 'cv within', 'cv between', 'steady state', 'burn-in', 'outliers', 'warnings'], rows));

  if (d.ab) {
    const sec = el('section', { id: 'ab' });
    sec.append(el('h2', { text: 'A/B: ' + d.ab.a + ' against ' + d.ab.b }));
    sec.append(el('p', { class: 'subtitle', text: 'The run\'s first two variants' + (d.ab.variants > 2 ? ' of ' + d.ab.variants : '') + ', as `benchguard compare ' + d.id + '` compares them \u00b7 ' + d.ab.statistic + ', ' + Math.round(100 * d.ab.confidence) + '% intervals' }));
    sec.append(...BG.abTables(d.ab));
    main.append(sec);
  }

  function burnInPlugin(count) {
    return {
      hooks: {
        drawClear: [(u) => {
          if (!count) return;
          const x0 = u.valToPos(-0.5, 'x', true), x1 = u.valToPos(count - 0.5, 'x', true);
          u.ctx.save();
          u.ctx.fillStyle = 'rgba(224,134,0,0.12)';
          u.ctx.fillRect(Math.max(x0, u.bbox.left), u.bbox.top, Math.max(0, x1 - Math.max(x0, u.bbox.left)), u.bbox.height);
          u.ctx.restore();
        }],
      },
    };
  }

  // Circles around the iterations summary counts as outliers.
  function outlierPlugin(s) {
    return {
      hooks: {
        draw: [(u) => {
          const ctx = u.ctx;
          ctx.save();
          ctx.strokeStyle = '#c62828';
          ctx.lineWidth = 2 * devicePixelRatio;
          for (const [i, k] of s.outlierPoints) {
            const v = s.plots[i] && s.plots[i][k];
            if (v === null || v === undefined) continue;
            const x = u.valToPos(k, 'x', true), y = u.valToPos(v * s.scale, 'y', true);
            ctx.beginPath();
            ctx.arc(x, y, 7 * devicePixelRatio, 0, 2 * Math.PI);
            ctx.stroke();
          }
          ctx.restore();
        }],
      },
    };
  }

  const palette = ['#2f6db5', '#c62828', '#2e7d32', '#e08600', '#6b5fb5', '#00838f', '#ad1457', '#5d4037'];
  d.summaries.forEach((s, n) => {
    const section = el('section', { class: 'chart', id: 'summary-' + n });
    section.append(el('h3', { text: s.benchmark + ' [' + s.variant + '] ' + s.metric }));
    const w = BG.warnings(s.warnings);
    if (w) section.append(w);
    const notes = BG.warnings(s.notes);
    if (notes) { notes.className = 'muted'; section.append(notes); }
    const longest = s.plots.reduce((m, a) => Math.max(m, a.length), 0);
    if (longest > 1) {
      const x = Array.from({ length: longest }, (_, i) => i);
      const cols = [x, ...s.plots.map((a) => x.map((i) => (i < a.length && a[i] !== null ? a[i] * s.scale : null)))];
      const hover = el('div', { class: 'hover', text: 'Each line is an instance, iterations in order' + (s.burnInDetected ? '; shaded: detected burn-in' : '') +
        (s.outlierPoints.length ? '; circled: ' + s.outlierPoints.length + ' outlier(s)' : '') + '.' });
      const holder = el('div', { class: 'plot' });
      section.append(hover, holder);
      main.append(section);
      // eslint-disable-next-line no-new
      new uPlot({
        width: BG.chartWidth(), height: 220,
        scales: { x: { time: false } },
        legend: { show: false },
        series: [{}, ...s.plots.map((_, k) => ({ label: 'instance ' + (k + 1), stroke: palette[k % palette.length], width: 1, points: { show: longest <= 60, size: 3 } }))],
        // Iterations are whole: ticks at whole steps only.
        axes: [{ incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000], values: (u, splits) => splits.map((v) => String(v)) },
          { values: (u, splits) => splits.map((v) => BG.value(v, s.unit)), size: 80 }],
        plugins: [burnInPlugin(s.burnInDetected), outlierPlugin(s)],
        hooks: { setCursor: [(u) => {
          const i = u.cursor.idx;
          if (i === null || i === undefined) return;
          hover.textContent = 'iteration ' + i + ': ' + s.plots.map((a, k) => (k + 1) + ': ' + BG.value(i < a.length && a[i] !== null ? a[i] * s.scale : null, s.unit)).join(', ');
        }] },
      }, cols, holder);
    } else {
      const values = s.plots.map((a) => (a.length ? a[0] * s.scale : null));
      section.append(el('p', { class: 'muted', text: 'One iteration per instance: ' + values.map((v) => BG.value(v, s.unit)).join(', ') }));
      main.append(section);
    }
  });
  BG.ready();
})();
