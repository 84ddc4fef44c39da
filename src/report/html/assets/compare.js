// The newest run against a baseline: the A/B table of `compare`, and a heat map of
// P(change beyond the threshold) of every benchmark in each recent run against the baseline.
(function () {
  'use strict';
  const BG = window.BG, el = BG.el;
  const d = BG.data();
  const main = BG.main();
  if (!d.baseline) {
    main.append(el('p', { id: 'empty', text: 'Fewer than two runs: nothing to compare.' }));
    BG.ready();
    return;
  }
  const runLabel = (r) => 'run ' + r.id + (r.commit ? ' (' + BG.short(r.commit) + ')' : '');
  const runLink = (r) => {
    const page = BG.runPage(r.id);
    return page ? el('a', { href: page, text: runLabel(r) }) : runLabel(r);
  };

  main.append(el('h2', { text: 'A/B: the newest run against the baseline, each benchmark variant against its namesake' }));
  main.append(el('p', { class: 'subtitle' }, 'A = ', runLink(d.baseline), ', B = ', runLink(d.columns[d.columns.length - 1]),
    ' \u00b7 ' + d.table.statistic + ', ' + Math.round(100 * d.table.confidence) + '% intervals, threshold ' + BG.percent(d.threshold)));
  main.append(...BG.abTables(d.table));

  main.append(el('h2', { text: 'P(' + d.metric + ' worse by more than ' + BG.percent(d.threshold) + ') against the baseline' }));
  const from = d.heatFrom === 't'
    ? 'the probability that B/A is beyond the threshold under the t distribution of the interval in the table above'
    : 'the share of bootstrap replicates of B/A beyond the threshold';
  main.append(el('p', { class: 'legend-note', text: 'Each cell: ' + from + ', B the run of the column, A ' + runLabel(d.baseline) + '; the newest column is the table\'s rows. White: no sign of a change; red: slower almost surely.' }));
  const head = el('tr', null, el('th', { text: 'benchmark' }), el('th', { text: 'variant' }), ...d.columns.map((c) => el('th', { class: 'col' }, runLink(c))));
  const body = el('tbody');
  for (const r of d.rows) {
    const tr = el('tr', null, el('td', { class: 'name', text: r.benchmark }), el('td', { class: 'name variant', text: r.variant }));
    r.cells.forEach((c, i) => {
      const td = el('td', { class: 'heat num' });
      if (c && c.p !== null) {
        td.textContent = c.p.toFixed(2);
        td.title = 'P = ' + c.p.toFixed(3) + ', B/A = ' + (c.ratio === null ? '-' : c.ratio.toFixed(3)) + ', ' + runLabel(d.columns[i]);
        // Styles set through the CSSOM, which the Content-Security-Policy allows.
        const alpha = Math.max(0, Math.min(1, c.p));
        td.style.backgroundColor = 'rgba(198, 40, 40, ' + alpha.toFixed(3) + ')';
        if (alpha > 0.6) td.style.color = '#fff';
      } else {
        td.textContent = '-';
      }
      tr.append(td);
    });
    body.append(tr);
  }
  main.append(el('div', { class: 'scroll' }, el('table', { class: 'data heatmap' }, el('thead', null, head), body)));
  BG.ready();
})();
