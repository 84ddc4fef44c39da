// A run's plan: per benchmark, the minimal detectable slowdown (MDS) of each instances x
// iterations configuration, simulated from the run's measurements, and the chosen one.
(function () {
  'use strict';
  const BG = window.BG, el = BG.el;
  const d = BG.data();
  const main = BG.main();
  const runPage = BG.runPage(d.run);
  main.append(el('p', { class: 'subtitle' }, 'From ', runPage ? el('a', { href: runPage, text: 'run ' + d.run }) : 'run ' + d.run,
    (d.commit ? ' (' + BG.short(d.commit) + ')' : '') + ' \u00b7 target ' + BG.percent(d.target) + ', power ' + BG.percent(d.power) +
    ', false positives at most ' + BG.percent(d.alpha) + ' \u00b7 ' + d.selection + '-based selection'));
  main.append(el('p', { class: 'legend-note', text: 'Each cell: the smallest slowdown detected in ' + BG.percent(d.power) + ' of simulated experiments with that many instances (rows) and iterations per instance (columns); the chosen configuration is framed.' }));
  if (d.benchmarks.length === 0) main.append(el('p', { id: 'empty', text: 'No benchmark with measurements in this run.' }));
  for (const b of d.benchmarks) {
    const section = el('section', { class: 'chart plan' });
    section.append(el('h3', { text: b.benchmark + ' \u00b7 ' + b.metric }));
    section.append(el('p', { class: 'muted', text: 'mean ' + BG.value(b.mean, b.unit) + ', cv ' + BG.percent(b.cv) + ', burn-in ' + b.burnIn + ' iterations, ' + b.instancesMeasured + ' instances measured' }));
    const w = BG.warnings(b.warnings);
    if (w) section.append(w);
    const r = b.recommendation;
    if (!b.viable) section.append(el('p', { class: 'verdict', text: b.notViable }));
    else if (r.found)
      section.append(el('p', { class: 'verdict' }, el('b', { text: r.instances + ' instances x ' + r.iterations + ' iterations' }),
        ': detects ' + BG.percent(r.mds - 1) + ' (false positives ' + BG.percent(r.fpr) + ', about ' + BG.value(r.seconds, 's') + ' per variant)' + (r.meetsTarget ? '' : ' \u2014 the target is out of reach') + (r.note ? '. ' + r.note : '')));
    else section.append(el('p', { class: 'verdict', text: r.note || 'No configuration qualifies.' }));
    const head = el('tr', null, el('th', { text: 'instances \\ iterations' }), ...d.iterations.map((m) => el('th', { text: String(m) })));
    const body = el('tbody');
    d.instances.forEach((n, i) => {
      const tr = el('tr', null, el('th', { text: String(n) }));
      d.iterations.forEach((m, j) => {
        const v = b.mds[i][j];
        const td = el('td', { class: 'heat num', text: v === null ? '-' : BG.percent(v - 1) });
        if (v !== null) {
          td.title = 'MDS ' + BG.percent(v - 1) + ', false positives ' + BG.percent(b.fpr[i][j]);
          const x = Math.max(0, Math.min(1, (v - 1) / Math.max(2 * d.target, 0.01)));
          td.style.backgroundColor = 'rgba(' + Math.round(46 + 152 * x) + ',' + Math.round(125 - 85 * x) + ',' + Math.round(50 - 10 * x) + ',' + (0.15 + 0.5 * x).toFixed(2) + ')';
        }
        if (r.found && n === r.instances && m === r.iterations) td.classList.add('chosen');
        tr.append(td);
      });
      body.append(tr);
    });
    section.append(el('table', { class: 'data heatmap mds' }, el('thead', null, head), body));
    main.append(section);
  }
  BG.ready();
})();
