package report

// pageHTML is the template of the report page. It is self-contained: the
// styles are inline and the pictures are data URIs.
const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="consensus">
<title>{{.Title}}</title>
<style>
:root { --ink: #333b47; --muted: #6b7684; --line: #e3e7ee; --bg: #f6f8fb; --card: #ffffff; --accent: #2f6fb5; --best: #e8f3ea; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "Liberation Sans", Arial, sans-serif; }
header { background: linear-gradient(120deg, #1f4f86, #2f6fb5); color: #fff; padding: 28px 0 22px; }
header h1 { margin: 0 0 4px; font-size: 26px; font-weight: 600; letter-spacing: -0.01em; }
header p { margin: 0; opacity: .85; }
nav { margin-top: 14px; display: flex; flex-wrap: wrap; gap: 6px; }
nav a { color: #fff; text-decoration: none; font-size: 13px; padding: 3px 10px; border: 1px solid rgba(255,255,255,.35); border-radius: 999px; }
nav a:hover { background: rgba(255,255,255,.15); }
.wrap { max-width: 1120px; margin: 0 auto; padding: 0 24px; }
main section { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 20px 24px; margin: 22px 0; box-shadow: 0 1px 2px rgba(20,30,50,.04); }
h2 { font-size: 19px; margin: 0 0 6px; font-weight: 600; }
h3 { font-size: 15px; margin: 18px 0 6px; font-weight: 600; }
p.lead { color: var(--muted); margin: 0 0 14px; max-width: 80ch; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 12px; margin-bottom: 16px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; background: var(--bg); }
.card .v { font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums; }
.card .l { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.card .n { font-size: 12px; color: var(--muted); }
.figs { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
figure { margin: 0; flex: 1 1 420px; }
figure img { width: 100%; height: auto; display: block; }
figcaption { font-size: 13px; color: var(--muted); margin-top: 4px; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { padding: 6px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: middle; }
th { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; font-weight: 600; background: var(--bg); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody tr:hover { background: #fafbfd; }
td.best { background: var(--best); font-weight: 600; }
.ci { display: block; font-size: 11px; color: var(--muted); font-weight: 400; }
.model { font-weight: 600; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
.desc { display: block; font-size: 12px; color: var(--muted); font-weight: 400; font-family: system-ui, sans-serif; }
.warn { display: block; color: #b3541e; font-size: 12px; }
.task { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; word-break: break-all; }
.dist { display: flex; height: 12px; width: 150px; border-radius: 3px; overflow: hidden; background: var(--line); }
.dist span { display: block; height: 100%; }
.dtext { font-size: 12px; color: var(--muted); white-space: nowrap; }
.bar { height: 10px; border-radius: 3px; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; vertical-align: -1px; }
.notes { font-size: 12px; color: var(--muted); margin: 8px 0 0; padding-left: 18px; }
.empty { color: var(--muted); font-style: italic; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table.wide { min-width: 720px; }
table.objs { min-width: 640px; }
td .desc { max-width: 340px; }
tr.rec td { background: #eef4fb; }
tr.rec td.best { background: var(--best); }
tr.rec td:first-child { box-shadow: inset 4px 0 0 var(--accent); }
.badge { display: inline-block; font: 600 11px/1.6 system-ui, sans-serif; color: #fff; background: var(--accent); border-radius: 999px; padding: 0 8px; margin-left: 6px; vertical-align: 1px; }
.callout { border: 1px solid #c9daef; background: #eef4fb; border-radius: 8px; padding: 12px 16px; margin: 0 0 14px; }
.callout b.model { font-size: 16px; color: #1f4f86; }
.callout p { margin: 4px 0 0; color: var(--muted); font-size: 13px; }
header .rec { margin: 10px 0 0; font-size: 14px; }
header .rec b { font-family: ui-monospace, "DejaVu Sans Mono", monospace; background: rgba(255,255,255,.18); padding: 1px 8px; border-radius: 4px; }
.panels { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); gap: 12px; }
.panels figure { margin: 0; border: 1px solid var(--line); border-radius: 8px; padding: 4px; background: #fff; }
.panels figure.rec { border: 2px solid var(--accent); }
.panels figcaption { text-align: center; margin: 0; }
@media (max-width: 640px) {
  body { font-size: 14px; }
  .wrap { padding: 0 10px; }
  header { padding: 18px 0 14px; }
  header h1 { font-size: 21px; }
  main section { padding: 14px 12px; margin: 14px 0; }
  .cards { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 8px; }
  .card { padding: 8px 10px; }
  .card .v { font-size: 18px; }
  figure { flex-basis: 100%; }
  .panels { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 6px; }
  th, td { padding: 5px 6px; }
  table.wide { min-width: 540px; }
  table.wide .desc { display: none; }
}
footer { color: var(--muted); font-size: 12px; padding: 6px 0 30px; }
</style>
</head>
<body>
<header><div class="wrap">
<h1>{{.Title}}</h1>
<p>{{.Subtitle}}</p>
{{if .Recommended}}<p class="rec">Recommended model: <b>{{.Recommended}}</b></p>{{end}}
<nav>
<a href="#data">Data</a>
<a href="#models">Models</a>
<a href="#agreement">Agreement</a>
{{if .HasGold}}<a href="#calibration">Calibration</a>{{end}}
<a href="#workers">Workers</a>
<a href="#ambiguous">Ambiguous tasks</a>
<a href="#disagreement">LA vs DA</a>
<a href="#next">What to label next</a>
</nav>
</div></header>
<main class="wrap">

<section id="data">
<h2>Data</h2>
<p class="lead">The noisy labels: who labelled what, and how often.</p>
<div class="cards">
{{range .Cards}}<div class="card"><div class="l">{{.Label}}</div><div class="v">{{.Value}}</div>{{if .Note}}<div class="n">{{.Note}}</div>{{end}}</div>
{{end}}</div>
<h3>Classes</h3>
<div class="scroll"><table class="classes">
<thead><tr><th>class</th><th class="num">labels</th><th class="num">share</th><th style="width:40%"></th>{{if .HasGold}}<th class="num">gold tasks</th>{{end}}</tr></thead>
<tbody>
{{range .Classes}}<tr><td><span class="swatch" style="background:{{.Color}}"></span>{{.Name}}</td><td class="num">{{.Labels}}</td><td class="num">{{.Share}}</td><td><div class="bar" style="width:{{printf "%.1f" .Width}}%;background:{{.Color}}"></div></td>{{if $.HasGold}}<td class="num">{{.Gold}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
<div class="figs">
<figure><img alt="Histogram of the number of labels per task" src="{{.TaskHist}}"><figcaption>How many labels each task received.</figcaption></figure>
<figure><img alt="Histogram of the number of labels per worker" src="{{.WorkerHst}}"><figcaption>How many labels each worker gave.</figcaption></figure>
</div>
</section>

<section id="models">
<h2>Model comparison</h2>
{{if .Recommended}}<div class="callout">Recommended: <b class="model">{{.Recommended}}</b><p>{{.RecBasis}}</p></div>{{end}}
<p class="lead">{{if .HasGold}}Scores on the {{.GoldN}} gold tasks, with 95% bootstrap intervals over the gold tasks; the best value of each column is shaded green. Log loss is in base K (the uniform guess scores 1).{{else}}No gold labels were given{{if .HeldOut}}, so the models are ranked by the log loss of held-out labels (base K, lower is better; 95% bootstrap intervals over the tasks){{end}}. Give a gold file to score the models on it.{{end}}</p>
<div class="scroll"><table class="wide">
<thead><tr>{{if .Recommended}}<th class="num">#</th>{{end}}<th>model</th>{{if .HeldOut}}<th class="num">held-out log loss</th>{{end}}{{if .HasGold}}<th class="num">accuracy</th><th class="num">log loss</th><th class="num">Brier</th><th class="num">ECE</th>{{end}}<th class="num">log-likelihood</th><th class="num">iterations</th><th class="num">time</th></tr></thead>
<tbody>
{{range .Scores}}<tr{{if .Rec}} class="rec"{{end}}>
{{if $.Recommended}}<td class="num">{{if .Rank}}{{.Rank}}{{end}}</td>{{end}}<td><span class="model">{{.Model}}</span>{{if .Note}}<sup>{{.Note}}</sup>{{end}}{{if .Rec}}<span class="badge">recommended</span>{{end}}<span class="desc">{{.Summary}}</span>{{if not .Converged}}<span class="warn">stopped at the iteration limit</span>{{end}}</td>
{{if $.HeldOut}}<td class="num">{{.HeldOut}}<span class="ci">{{.HeldOutCI}}</span></td>{{end}}
{{if $.HasGold}}<td class="num{{if index .Best "acc"}} best{{end}}">{{.Acc}}<span class="ci">{{.AccCI}}</span></td>
<td class="num{{if index .Best "ll"}} best{{end}}">{{.LogLoss}}<span class="ci">{{.LogLossCI}}</span></td>
<td class="num{{if index .Best "brier"}} best{{end}}">{{.Brier}}</td>
<td class="num{{if index .Best "ece"}} best{{end}}">{{.ECE}}</td>{{end}}
<td class="num">{{.LogLik}}</td><td class="num">{{.Iter}}</td><td class="num">{{.Time}}</td>
</tr>
{{end}}</tbody>
</table></div>
{{if .Notes}}<ol class="notes">{{range .Notes}}<li>{{.}}</li>{{end}}</ol>{{end}}
</section>

<section id="agreement">
<h2>Agreement</h2>
<p class="lead">How much the workers agree with each other and with the consensus: Krippendorff's alpha for nominal data (tasks with one label left out), the entropy of each task's label frequencies, and each worker's share of labels equal to the consensus label.</p>
<div class="cards">
{{range .Agreement}}<div class="card"><div class="l">{{.Label}}</div><div class="v">{{.Value}}</div>{{if .Note}}<div class="n">{{.Note}}</div>{{end}}</div>
{{end}}</div>
<div class="figs">{{range .AgreeFigs}}<figure><img alt="{{.Caption}}" src="{{.URI}}"><figcaption>{{.Caption}}</figcaption></figure>{{end}}</div>
</section>

{{if .HasGold}}<section id="calibration">
<h2>Calibration</h2>
<p class="lead">Reliability diagrams, one per model{{if .Recommended}} in the order of the ranking (the recommended model in blue){{end}}: the gold tasks are sorted by the probability the model gives its top class and cut into at most {{.RelBins}} bins of equal size (tasks of equal confidence stay together). Each point is a bin's mean confidence against the share of its tasks whose top class is right; its area and the number by it give the bin's tasks, and the band is the 95% Wilson interval of that share. A calibrated model lies on the dashed diagonal; points below it are overconfident. ECE is the expected calibration error over 10 equal-width bins, as in the table.</p>
{{if .Reliability}}<div class="panels">{{range .Reliability}}<figure{{if .Rec}} class="rec"{{end}}><img alt="Reliability diagram of {{.Caption}}" src="{{.URI}}"></figure>{{end}}</div>{{else}}<p class="empty">No gold task has labels.</p>{{end}}
</section>{{end}}

<section id="workers">
<h2>Worker quality</h2>
<p class="lead">The distribution of the workers' skills under {{.LA}} and {{.DA}}: a worker's skill is the fitted probability that they report the consensus class, averaged over their labels. It is one number per worker for any noise model, so the two histograms are comparable; a worker better than chance has a skill above 1/K, an adversarial one below.</p>
{{if .Quality}}<div class="figs">{{range .Quality}}<figure><img alt="Histogram of worker quality" src="{{.URI}}"><figcaption>{{.Caption}}</figcaption></figure>{{end}}</div>{{else}}<p class="empty">{{.LA}} and {{.DA}} have no worker parameters.</p>{{end}}
</section>

<section id="ambiguous">
<h2>The most ambiguous tasks</h2>
<p class="lead">The {{.Top}} tasks whose label distribution q_j under {{.DA}} has the highest entropy (1 is uniform). Under the latent distribution assumption these are genuinely ambiguous tasks, not merely tasks with few labels; the latent label model {{.LA}} often still reports a confident posterior for them.</p>
<div class="scroll"><table class="objs">
<thead><tr><th class="num">#</th><th>task</th><th>labels</th><th>{{.DA}} q_j</th><th>{{.LA}} posterior</th><th class="num">entropy</th></tr></thead>
<tbody>
{{range .Ambiguous}}{{template "objrow" .}}{{end}}</tbody>
</table></div>
</section>

<section id="disagreement">
<h2>Where LA and DA disagree</h2>
<p class="lead">The {{.Top}} tasks where the {{.LA}} posterior and the {{.DA}} distribution differ most, by total variation distance (half the sum of absolute differences). The scatter plot shows every task: the latent label posterior piles up near 1 while the latent distribution estimate keeps the spread of the labels.</p>
<div class="figs">
<figure style="max-width:520px"><img alt="Scatter plot of LA posterior against DA distribution" src="{{.Scatter}}"></figure>
</div>
<div class="scroll"><table class="objs">
<thead><tr><th class="num">#</th><th>task</th><th>labels</th><th>{{.DA}} q_j</th><th>{{.LA}} posterior</th><th class="num">distance</th></tr></thead>
<tbody>
{{range .Disagree}}{{template "objrow" .}}{{end}}</tbody>
</table></div>
</section>

{{with .Next}}<section id="next">
<h2>What to label next</h2>
<p class="lead">The tasks whose next label is expected to raise the accuracy of the consensus most, under {{.Model}}: the expected gain in the probability that the task's consensus label is right, per label, looking up to three labels ahead, from a worker like the crowd's average; p(change) is the probability that one more label changes the consensus label. {{.Chosen}} tasks would take a label; {{.Certain}} are at confidence {{.Stop}} or more and get none. <code>consensus next</code> writes the whole list (see docs/planning.md).</p>
{{if .Tasks}}<div class="scroll"><table class="objs">
<thead><tr><th class="num">#</th><th>task</th><th class="num">labels</th><th>consensus</th><th class="num">confidence</th><th class="num">gain</th><th class="num">p(change)</th></tr></thead>
<tbody>
{{range .Tasks}}<tr><td class="num">{{.Rank}}</td><td class="task next">{{.Task}}</td><td class="num">{{.Labels}}</td><td>{{.Label}}</td><td class="num">{{.Confidence}}</td><td class="num">{{.Gain}}</td><td class="num">{{.Change}}</td></tr>
{{end}}</tbody>
</table></div>{{else}}<p class="empty">Every task is at the stopping rule.</p>{{end}}
<h3>Flagged workers</h3>
<p class="lead">{{.Flagged}} workers are flagged where the posterior probability of being bad, p(spammer) + p(adversarial), is 0.5 or more, most probably bad first: spammers, whose labels do not depend on the true class, and adversaries, worse than chance. Accuracy is the posterior mean of the balanced accuracy (the mean of the confusion matrix's diagonal; 1/K for a spammer) with its 90% credible interval; agreement is the share of the worker's labels equal to the consensus.</p>
{{if .Workers}}<div class="scroll"><table class="objs">
<thead><tr><th>worker</th><th>flag</th><th class="num">labels</th><th class="num">agreement</th><th class="num">accuracy [90%]</th><th class="num">p(spammer)</th><th class="num">p(adversarial)</th></tr></thead>
<tbody>
{{range .Workers}}<tr><td class="task worker">{{.Worker}}</td><td>{{.Flag}}</td><td class="num">{{.Labels}}</td><td class="num">{{.Agreement}}</td><td class="num">{{.Accuracy}}</td><td class="num">{{.PSpam}}</td><td class="num">{{.PAdv}}</td></tr>
{{end}}</tbody>
</table></div>{{else}}<p class="empty">No worker is flagged.</p>{{end}}
{{if .Savings}}<h3>Savings on the gold tasks</h3>
<p class="lead">A replay of the recorded labels: every task's first label revealed, then the rest in batches (of 5% of the tasks, or more so that each strategy takes at most 40 fits), to the tasks the planner chooses or in turn (round-robin), a task's labels in their recorded order. {{.Saving}}</p>
<div class="figs"><figure style="max-width:640px"><img alt="Accuracy against labels spent, planner and round-robin" src="{{.Savings}}"></figure></div>{{end}}
</section>{{end}}

</main>
<footer class="wrap">{{.Footer}}</footer>
</body>
</html>
{{/* One row of the tables of objects (objRow). */}}{{define "objrow"}}<tr><td class="num">{{.Rank}}</td><td class="task">{{.Task}}</td><td>{{.Labels}}</td>
<td><div class="dist">{{range .DA}}<span style="width:{{printf "%.2f" .Width}}%;background:{{.Color}}" title="{{.Title}}"></span>{{end}}</div><span class="dtext">{{.DAText}}</span></td>
<td><div class="dist">{{range .LA}}<span style="width:{{printf "%.2f" .Width}}%;background:{{.Color}}" title="{{.Title}}"></span>{{end}}</div><span class="dtext">{{.LAText}}</span></td>
<td class="num">{{.Value}}</td></tr>
{{end}}`
