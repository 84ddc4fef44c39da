// The overview: every series with a sparkline of its recent history, its latest change and its
// status; filtered by text and status, sorted by severity.
(function () {
  'use strict';
  const BG = window.BG, el = BG.el;
  const data = BG.data();
  const main = BG.main();

  const counts = el('div', { class: 'counts' });
  for (const s of ['regression', 'suspected', 'acknowledged', 'ok'])
    counts.append(el('span', null, BG.statusBadge(s), ' ' + data.counts[s]));
  main.append(counts);
  const warn = BG.warnings(data.warnings);
  if (warn) main.append(warn);

  const search = el('input', { type: 'search', id: 'search', placeholder: 'Filter by benchmark, metric, machine', 'aria-label': 'filter' });
  const status = el('select', { id: 'status-filter', 'aria-label': 'status' },
    ...['all', 'regression', 'suspected', 'acknowledged', 'ok'].map((s) => el('option', { value: s, text: s === 'all' ? 'every status' : s })));
  const sort = el('select', { id: 'sort', 'aria-label': 'sort' },
    el('option', { value: 'severity', text: 'by severity' }),
    el('option', { value: 'name', text: 'by name' }));
  const shown = el('span', { class: 'muted', id: 'shown' });
  main.append(el('div', { class: 'controls' }, search, status, sort, shown));

  if (data.series.length === 0) {
    main.append(el('p', { id: 'empty', text: 'No series yet: runs with git commits make history (benchguard run, import).' }));
    BG.ready();
    return;
  }

  const rows = data.series.map((s) => {
    const last = BG.commit(s.last.commit);
    const link = el('a', { href: 'benchmark-' + s.page + '.html', class: 'series-link', text: s.benchmark });
    const nameCell = el('td', { class: 'name' }, link);
    if (s.settings)
      nameCell.append(el('div', { class: 'settings-note', text: 'joins runs of different settings: ' + s.settings.join('; ') }));
    const change = s.change
      ? el('span', null, el('span', { class: 'badge status-' + (s.change.kind === 'regression' ? (s.change.ack !== null ? 'acknowledged' : s.change.status === 'confirmed' ? 'regression' : 'suspected') : 'improvement'), text: s.change.kind }),
        ' ' + BG.change(s.change) + ' at ' + BG.short(s.change.first_bad))
      : el('span', { class: 'muted', text: 'none' });
    const tr = BG.row([
      BG.statusBadge(s.status),
      nameCell,
      el('td', { class: 'name', text: s.variant }),
      el('td', { text: s.metric }),
      el('td', { class: 'name', text: s.machine }),
      BG.sparkline(BG.unscale(s.spark, s.scale), s.status),
      el('td', { class: 'num', title: last.commit, text: BG.value(s.last.value, s.unit) }),
      el('td', { class: 'num', text: BG.short(last.commit) + ' ' + BG.date(last.time) }),
      change,
    ]);
    tr.setAttribute('data-status', s.status);
    const text = [s.benchmark, s.variant, s.metric, s.machine].join(' ').toLowerCase();
    const magnitude = s.change && s.change.change !== null ? Math.abs(s.change.change) : 0;
    return { s, tr, text, magnitude };
  });

  const mixed = data.series.filter((s) => s.settings).length;
  if (mixed > 0)
    main.append(el('p', { class: 'settings-note', id: 'mixed-settings', text: mixed + ' series join runs of different settings (instances, iterations, burn-in, warm-up, measure or layout): their points are not all alike; each such row names what differs.' }));

  const tableEl = BG.table(['status', 'benchmark', 'variant', 'metric', 'machine', 'recent', 'latest', 'at commit', 'latest change'], [], 'data overview');
  const tbody = tableEl.querySelector('tbody');
  main.append(tableEl);

  function render() {
    const q = search.value.trim().toLowerCase();
    const st = status.value;
    const ordered = rows.slice();
    if (sort.value === 'severity')
      ordered.sort((a, b) => b.s.severity - a.s.severity || b.magnitude - a.magnitude || a.text.localeCompare(b.text));
    else
      ordered.sort((a, b) => a.text.localeCompare(b.text));
    let n = 0;
    const frag = document.createDocumentFragment();
    for (const r of ordered) {
      r.tr.hidden = !((q === '' || r.text.includes(q)) && (st === 'all' || r.s.status === st));
      if (!r.tr.hidden) ++n;
      frag.append(r.tr);
    }
    tbody.replaceChildren(frag);
    shown.textContent = n + ' of ' + rows.length + ' series';
  }
  search.addEventListener('input', render);
  status.addEventListener('change', render);
  sort.addEventListener('change', render);
  render();
  BG.ready();
})();
