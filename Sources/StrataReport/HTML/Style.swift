/// The page's one stylesheet (inline: the Content-Security-Policy allows inline styles and
/// nothing else). Colours through variables, so the charts follow a dark colour scheme too.
enum Style {
    static let css = """
    :root{--bg:#ffffff;--fg:#1d1f23;--muted:#5b6068;--line:#d8dbe0;--grid:#eceef1;--card:#f5f6f8;--accent:#0072B2;--bad:#b3400a;--warn:#7f5a00;--good:#00704c;--band:rgba(0,114,178,.11);color-scheme:light dark}
    @media (prefers-color-scheme:dark){:root{--bg:#15171b;--fg:#e5e7ea;--muted:#a2a8b0;--line:#363b42;--grid:#262a30;--card:#1d2025;--accent:#56B4E9;--bad:#ff8a50;--warn:#f0c040;--good:#4fd1a5;--band:rgba(86,180,233,.16)}}
    *{box-sizing:border-box}
    body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
    main{max-width:1200px;margin:0 auto;padding:20px 28px 64px}
    h1{font-size:26px;margin:0 0 2px;letter-spacing:-.01em}
    h2{font-size:20px;margin:0 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
    h3{font-size:16px;margin:18px 0 6px}
    a{color:var(--accent)}
    a.anchor{color:inherit;text-decoration:none}
    a.anchor:hover::after{content:" #";color:var(--muted)}
    .meta{margin:0;color:var(--muted);font-size:13px}
    .meta span+span::before{content:"·";margin:0 .5em}
    .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(215px,1fr));gap:12px;margin:16px 0}
    .card{display:flex;flex-direction:column;gap:2px;padding:10px 14px;border:1px solid var(--line);border-left:4px solid var(--accent);border-radius:8px;background:var(--card);color:inherit;text-decoration:none}
    .card:hover{border-color:var(--accent)}
    .card.bad{border-left-color:var(--bad)}.card.good{border-left-color:var(--good)}.card.warn{border-left-color:#E69F00}
    .card-label{font-size:12px;color:var(--muted)}
    .card-value{font-size:21px;font-weight:650;font-variant-numeric:tabular-nums;line-height:1.25}
    .card.bad .card-value{color:var(--bad)}
    .card-detail{font-size:12px;color:var(--muted)}
    nav.toc{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;gap:2px 18px;padding:8px 0;margin-top:8px;background:var(--bg);border-bottom:1px solid var(--line);font-size:13.5px}
    nav.toc a{text-decoration:none;font-weight:550}
    section{margin-top:34px;scroll-margin-top:48px}
    .chart-figure,.scene{scroll-margin-top:48px}
    .chart-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(480px,1fr));gap:16px}
    .chart-stack{display:grid;gap:16px;margin-top:16px}
    .chart-grid .chart-figure.wide{grid-column:1/-1}
    .chart-figure{margin:0;padding:10px 12px 8px;border:1px solid var(--line);border-radius:8px;background:var(--bg);min-width:0}
    figcaption{display:flex;flex-direction:column;margin-bottom:4px}
    figcaption a{font-weight:600}
    .caption{font-size:12px;color:var(--muted)}
    svg.chart{display:block;width:100%;height:auto;font-size:11px;color:var(--fg);overflow:visible}
    svg.chart text{fill:var(--fg)}
    svg .plot-bg{fill:none;stroke:var(--line)}
    svg .grid{stroke:var(--grid)}
    svg .axis,svg .tick{stroke:var(--muted)}
    svg text.tick-label,svg text.axis-title{fill:var(--muted)}
    svg .tick-label{font-size:10.5px}
    svg .series,svg .fit-line{fill:none;stroke-linejoin:round;stroke-linecap:round}
    svg .floor,svg .legend-line.floor{stroke:var(--muted)}
    svg .legend-line.invisible-line{stroke:none}
    svg .legend-line.whisker{stroke:var(--fg)}
    svg .whisker{stroke:var(--fg);stroke-opacity:.6;stroke-width:1.2;fill:none}
    svg .marker{stroke-width:1.3}
    svg .marker.hollow{fill:var(--bg)}
    svg .hist{fill:var(--accent)}svg .hist.late{fill:#E69F00}svg .hist.over{fill:#D55E00}
    svg .marker-line{stroke-width:1.5;stroke-dasharray:5 3}
    svg line.budget8{stroke:#E69F00}svg line.budget16{stroke:#D55E00}
    svg text.marker-label{font-size:10px;font-weight:600}
    svg text.budget8{fill:var(--warn)}svg text.budget16{fill:var(--bad)}
    svg .band{fill:var(--band)}
    svg .zero{stroke:var(--fg);stroke-opacity:.7}
    svg .over-budget{fill:#D55E00;stroke:var(--bg);stroke-width:.8}
    svg .envelope{stroke-opacity:.9}
    svg .floor-mark{stroke:var(--muted);stroke-width:2.5}
    svg text.fit-label{font-size:10.5px;font-weight:600}
    svg text.flagged,svg text.legend-label.flagged{fill:var(--bad);font-weight:650}
    svg .fit-line.flagged{stroke-dasharray:none}
    svg text.row-label,svg text.value-label{font-size:10.5px;font-variant-numeric:tabular-nums}
    svg text.verdict-text-regression{fill:var(--bad);font-weight:600}
    svg text.verdict-text-improvement{fill:var(--accent);font-weight:600}
    svg .group-sep{stroke-dasharray:2 3}
    .table-wrap{overflow-x:auto;margin:6px 0}
    table.data-table{border-collapse:collapse;width:100%;font-size:12.5px;font-variant-numeric:tabular-nums}
    table.data-table th,table.data-table td{padding:3px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
    table.data-table th{background:var(--card);font-weight:600}
    table.data-table .num{text-align:right;white-space:nowrap}
    table.kv td:first-child{color:var(--muted);white-space:nowrap;width:1%}
    tr.differs td,tr.flagged-row td{background:rgba(213,94,0,.10)}
    tr.row-regression td,tr.row-failed td{background:rgba(213,94,0,.07)}
    tr.row-improvement td{background:rgba(0,114,178,.07)}
    td.verdict-text-regression,.bad-text{color:var(--bad);font-weight:600}
    td.verdict-text-improvement{color:var(--accent);font-weight:600}
    .badge{display:inline-block;padding:0 8px;border-radius:10px;font-size:11.5px;font-weight:600;line-height:18px;color:#fff;background:#767676;white-space:nowrap}
    .badge.verdict-regression{background:#C24E00}.badge.verdict-improvement{background:#0072B2}.badge.verdict-failed{background:#7a1f1f}
    .badge.verdict-insufficient-data{background:#E69F00;color:#1d1f23}.badge.verdict-different-machine{background:#CC79A7;color:#1d1f23}
    .badge.verdict-new,.badge.verdict-missing{background:#56B4E9;color:#1d1f23}.badge.verdict-inconclusive{background:#8A7A00}.badge.verdict-informational{background:#c4c4c4;color:#1d1f23}
    .verdicts{display:flex;flex-wrap:wrap;gap:6px 16px;align-items:center}
    .callout{margin:10px 0;padding:8px 12px;border-left:4px solid var(--accent);background:var(--card);border-radius:4px}
    .callout.warn{border-left-color:#E69F00}.callout.bad{border-left-color:var(--bad)}.callout.good{border-left-color:var(--good)}
    .callout ul{margin:4px 0 0;padding-left:20px}
    .note{color:var(--muted);margin:4px 0 10px}.note.warn{color:var(--warn)}
    .stats{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0 14px}
    .stat{display:flex;flex-direction:column;min-width:84px;padding:4px 10px;border:1px solid var(--line);border-radius:6px}
    .stat-label{font-size:11px;color:var(--muted)}
    .stat-value{font-weight:600;font-variant-numeric:tabular-nums}
    .stat.bad .stat-value{color:var(--bad)}.stat.good .stat-value{color:var(--good)}.stat.warn .stat-value{color:var(--warn)}
    .scene{margin-top:18px}
    details>summary{cursor:pointer;color:var(--muted);font-size:12.5px;margin:6px 0}
    footer{margin-top:40px;padding-top:10px;border-top:1px solid var(--line);color:var(--muted);font-size:12px}
    @media print{nav.toc{position:static}.chart-figure{break-inside:avoid}}
    """
}
