// Stored runs, newest first, each linked to its page when it has one.
(function () {
  'use strict';
  const BG = window.BG, el = BG.el;
  const data = BG.data();
  const rows = data.runs.map((r) => {
    const page = r.page ? 'run-' + r.id + '.html' : null;
    const labels = Object.entries(r.labels).map(([k, v]) => k + '=' + v).join(' ');
    return [
      page ? el('a', { href: page, text: String(r.id) }) : String(r.id),
      el('td', { class: 'num', text: BG.date(r.started) }),
      r.status,
      el('td', { class: 'name', text: r.suite }),
      el('td', { title: r.commit, text: BG.short(r.commit) }),
      el('td', { class: 'name', text: r.branch }),
      el('td', { class: 'name', text: r.host }),
      el('td', { class: 'num', text: String(r.benchmarks) }),
      el('td', { class: 'num', text: String(r.instances) }),
      el('td', { class: 'name', text: labels }),
    ];
  });
  BG.main().append(BG.table(['run', 'started (UTC)', 'status', 'suite', 'commit', 'branch', 'host', 'benchmarks', 'instances', 'labels'], rows));
  if (data.runs.length > 0 && !data.runs.every((r) => r.page))
    BG.main().append(el('p', { class: 'muted', text: 'The newest runs have pages of their own (report --run-pages N; serve: every run).' }));
  BG.ready();
})();
