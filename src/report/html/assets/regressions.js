// Change points over history: commit range, magnitude with its interval, acknowledgement.
(function () {
  'use strict';
  const BG = window.BG, el = BG.el;
  const data = BG.data();
  const main = BG.main();
  const kind = el('select', { id: 'kind-filter', 'aria-label': 'kind' },
    el('option', { value: 'regression', text: 'regressions' }),
    el('option', { value: 'improvement', text: 'improvements' }),
    el('option', { value: 'all', text: 'every change' }));
  const acked = el('input', { type: 'checkbox', id: 'show-acked', checked: true });
  const shown = el('span', { class: 'muted', id: 'shown' });
  main.append(el('div', { class: 'controls' }, kind, el('label', { for: 'show-acked' }, acked, ' acknowledged'), shown));

  const changes = data.changes.slice().sort((a, b) => b.time - a.time || Math.abs(b.change || 0) - Math.abs(a.change || 0));
  const rows = changes.map((c) => {
    const state = c.kind !== 'regression' ? 'improvement' : c.ack !== null ? 'acknowledged' : c.status === 'confirmed' ? 'regression' : 'suspected';
    const name = c.page !== null ? el('a', { href: 'benchmark-' + c.page + '.html', text: c.benchmark }) : c.benchmark;
    const tr = BG.row([
      BG.statusBadge(state),
      el('td', { class: 'name' }, name, c.variant !== 'default' ? ' [' + c.variant + ']' : ''),
      el('td', { text: c.metric }),
      el('td', { class: 'name', text: c.machine }),
      el('td', { title: c.last_good + ' .. ' + c.first_bad, text: BG.short(c.last_good) + '..' + BG.short(c.first_bad) }),
      el('td', { class: 'num', text: BG.date(c.time) }),
      el('td', { class: 'num', text: BG.value(c.before, c.unit) + ' \u2192 ' + BG.value(c.after, c.unit) }),
      el('td', { class: 'num', text: BG.change(c) }),
      el('td', { class: 'num', text: c.p === null ? '-' : c.p.toPrecision(2) }),
      el('td', { text: c.status }),
      el('td', { class: 'name', text: c.ack === null ? '' : 'acknowledged' + (c.ack ? ': ' + c.ack : '') }),
      el('td', { class: 'muted', text: c.id }),
    ]);
    return { c, tr, state };
  });
  const table = BG.table(['state', 'benchmark', 'metric', 'machine', 'commits', 'date (UTC)', 'before \u2192 after', 'change [95% CI]', 'p', 'status', 'acknowledgement', 'id'], [], 'data regressions');
  main.append(table);
  const tbody = table.querySelector('tbody');
  function render() {
    let n = 0;
    for (const r of rows) {
      r.tr.hidden = !((kind.value === 'all' || r.c.kind === kind.value) && (acked.checked || r.c.ack === null));
      if (!r.tr.hidden) ++n;
      tbody.append(r.tr);
    }
    shown.textContent = n + ' of ' + rows.length + ' change points';
  }
  kind.addEventListener('change', render);
  acked.addEventListener('change', render);
  render();
  if (rows.length === 0) main.append(el('p', { text: 'No change points found.' }));
  BG.ready();
})();
