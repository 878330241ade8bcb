// The cluster dashboard: draws the state the supervisor streams over /api/v1/stream.
// Plain script, no libraries; every address is relative, so the page works under any
// path prefix (a Jupyter server serving it under /mars/, say).
// Three views, chosen by the address's fragment: #/ the cluster and its sessions,
// #/execution/<session>/<execution> one execution's operator graph, #/worker/<address>
// one worker. The page tells the stream which execution or worker it shows ("watch").
// With ?view=<card> in its address the page shows that one card of the cluster view alone,
// full size and without the header (a JupyterLab pane shows it so); the status shows only
// while the stream is not live.
"use strict";

const HISTORY_SECONDS = 300;
const COLOURS = ["#0969da", "#cf222e", "#2da44e", "#8250df", "#bf8700", "#1b7c83"];
const history = new Map(); // worker address -> [{t, cpu, memory, running}]
const slots = new Map(); // worker address -> its cores, the height of its task lane

// The cards a page may show alone: ?view=<name> -> the section's id.
const CARDS = {
  supervisors: "card-supervisors",
  workers: "card-workers",
  cpu: "card-cpu",
  memory: "card-memory",
  tasks: "card-tasks",
  progress: "card-progress",
};

// The card asked for in the address's query: {card} (null: the whole dashboard), or
// {error} for a view that is not one of CARDS.
function requestedCard(search) {
  const view = new URLSearchParams(search).get("view");
  if (view === null || view === "") return { card: null };
  if (Object.hasOwn(CARDS, view)) return { card: CARDS[view] };
  const known = Object.keys(CARDS).join(", ");
  return { card: null, error: `There is no view "${view}": ?view= takes one of ${known}. The whole dashboard is shown instead.` };
}

const single = requestedCard(window.location.search);

function bytes(n) {
  if (n === undefined || n === null) return "–";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i += 1; }
  return `${n.toFixed(i ? 1 : 0)} ${units[i]}`;
}

function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

// Heartbeats come about every second; a worker silent for longer is shown so.
function liveness(w) {
  const age = w.heartbeat_age || 0;
  return age < 3 ? "alive" : `silent for ${age.toFixed(0)} s`;
}

function transfer(t) {
  if (!t) return "–";
  return `${bytes(t.received_per_s)}/s / ${bytes(t.sent_per_s)}/s`;
}

// A GPU's figures as the worker read them from NVML: its use and memory always ("?" and
// "–" where it reports none), its temperature and power only where it reports them.
function gpuText(g) {
  const known = (v) => v !== null && v !== undefined;
  const parts = [
    `${known(g.utilization) ? `${Math.round(g.utilization)}%` : "?"} busy`,
    `${bytes(g.memory_used)} / ${bytes(g.memory_total)}`,
  ];
  if (known(g.temperature_c)) parts.push(`${Math.round(g.temperature_c)} °C`);
  if (known(g.power_w)) parts.push(`${Math.round(g.power_w)} W`);
  return parts.join(" · ");
}

// A worker's GPUs, one line each, by their index.
function gpuLines(list) {
  return (list || []).map((g) => `${g.index}: ${gpuText(g)}`).join("\n");
}

// Whether any worker has a GPU: the workers' table has a GPU column only then.
function anyGpus(workers) {
  return workers.some((w) => ((w.resources || {}).gpus || []).length > 0);
}

function seconds(s) {
  return s >= 10 ? `${s.toFixed(1)} s` : `${s.toFixed(3)} s`;
}

function fill(tableId, rows) {
  const body = document.querySelector(`#${tableId} tbody`);
  body.replaceChildren(...rows);
}

// CPU used as measured over the last interval, kept within [0, the worker's --n-cpu]:
// sampling jitter can read a hair above the cores the worker may use.
function cpuUsed(worker) {
  const used = (worker.resources || {}).cpu_used || 0;
  return Math.min(Math.max(used, 0), worker.n_cpu);
}

// The worker's own memory: its share of a machine other workers run on too (the
// supervisor's memory_share), else its limit, else the machine's.
function memoryLimit(worker) {
  const r = worker.resources || {};
  return worker.memory_share || (r.store || {}).phy_mem_bytes || r.memory_total;
}

// The cluster's totals as the supervisor counts them: each machine once, however many
// workers share it, and never more than it has.
function totalsText(cluster) {
  const t = cluster.totals || {};
  const n = cluster.workers.length;
  const plural = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;
  return `${plural(n, "worker")} on ${plural(t.hosts || 0, "host")}: ` +
    `${plural(t.n_cpu || 0, "core")}, ${bytes(t.memory || 0)} memory`;
}

function drawWorkers(workers) {
  const now = Date.now() / 1000;
  const withGpus = anyGpus(workers);
  document.querySelector("#workers th.gpu").hidden = !withGpus;
  fill("workers", workers.map((w) => {
    const r = w.resources || {};
    const store = r.store || {};
    const cpu = cpuUsed(w);
    const series = history.get(w.address) || [];
    series.push({ t: now, cpu, memory: r.memory_rss || 0, running: w.running || 0 });
    slots.set(w.address, w.n_cpu);
    while (series.length && series[0].t < now - HISTORY_SECONDS) series.shift();
    history.set(w.address, series);
    const tr = document.createElement("tr");
    tr.dataset.worker = w.address;
    const name = cell("");
    name.append(link(`#/worker/${encodeURIComponent(w.address)}`, w.address));
    tr.append(
      name,
      cell(liveness(w), "worker-state"),
      cell(`${cpu.toFixed(2)} / ${w.n_cpu}`, "num cpu"),
      cell(`${bytes(r.memory_rss)} / ${bytes(memoryLimit(w))}`, "num memory"),
      cell(`${bytes(store.memory_bytes)} of ${bytes(store.cache_bytes)}`, "num"),
      cell(bytes(store.spilled_bytes), "num"),
      cell(transfer(r.transfer), "num transfer"),
      ...(withGpus ? [gpuCell(r.gpus)] : []),
      cell(String(w.running), "num running"),
    );
    return tr;
  }));
  for (const address of [...history.keys()]) {
    if (!workers.some((w) => w.address === address)) {
      history.delete(address);
      slots.delete(address);
    }
  }
  chart("cpu-chart", "cpu", Math.max(1, ...workers.map((w) => w.n_cpu)), (v) => v.toFixed(1));
  const top = Math.max(1, ...[...history.values()].flat().map((p) => p.memory));
  chart("memory-chart", "memory", top, bytes);
  for (const legend of document.querySelectorAll("#card-cpu .legend, #card-memory .legend")) {
    legend.replaceChildren(...[...history.keys()].map((a, i) => {
      const span = document.createElement("span");
      span.style.color = COLOURS[i % COLOURS.length];
      span.textContent = `■ ${a}`;
      return span;
    }));
  }
  taskStream();
}

// The GPU column's cell of a worker: a line per GPU, their names on hover.
function gpuCell(list) {
  const td = cell((list || []).length ? gpuLines(list) : "none", "num gpu");
  td.title = (list || []).map((g) => `${g.index}: ${g.name}`).join("\n");
  return td;
}

// A canvas alone in its pane takes the pane's width and the height left under it.
function fit(canvas) {
  if (!single.card) return;
  const legend = canvas.parentElement.querySelector(".legend");
  const below = (legend ? legend.offsetHeight : 0) + 24;
  canvas.width = Math.max(200, canvas.parentElement.clientWidth);
  canvas.height = Math.max(120, window.innerHeight - canvas.getBoundingClientRect().top - below);
}

function chart(id, field, top, label) {
  const canvas = document.getElementById(id);
  fit(canvas);
  const g = canvas.getContext("2d");
  const { width, height } = canvas;
  g.clearRect(0, 0, width, height);
  g.fillStyle = "#555";
  g.font = "11px sans-serif";
  g.fillText(label(top), 4, 12);
  const now = Date.now() / 1000;
  let samples = 0;
  [...history.values()].forEach((series, i) => {
    g.strokeStyle = COLOURS[i % COLOURS.length];
    g.beginPath();
    series.forEach((p, j) => {
      const x = width - ((now - p.t) / HISTORY_SECONDS) * width;
      const y = height - (p[field] / top) * (height - 16);
      if (j === 0) g.moveTo(x, y); else g.lineTo(x, y);
    });
    g.stroke();
    samples += series.length;
  });
  canvas.dataset.samples = String(samples); // what is drawn, for a reader without eyes
}

// The task stream: one lane per worker, a bar per sample as high as its tasks then (those
// the supervisor placed on it that have not reported back), a full lane for one per core; below, each worker's tasks now and its most in the window.
function taskStream() {
  const canvas = document.getElementById("tasks-chart");
  fit(canvas);
  const g = canvas.getContext("2d");
  const { width, height } = canvas;
  g.clearRect(0, 0, width, height);
  const lanes = [...history.entries()];
  const lane = height / Math.max(1, lanes.length);
  const now = Date.now() / 1000;
  const step = Math.max(2, width / HISTORY_SECONDS); // a sample about every second
  g.font = "11px sans-serif";
  const legend = lanes.map(([address, series], i) => {
    const colour = COLOURS[i % COLOURS.length];
    const top = i * lane;
    const cores = Math.max(1, slots.get(address) || 1);
    g.fillStyle = colour;
    let most = 0;
    for (const p of series) {
      const running = p.running || 0; // samples older than this figure have none
      most = Math.max(most, running);
      if (!running) continue;
      const x = width - ((now - p.t) / HISTORY_SECONDS) * width;
      const h = Math.min(1, running / cores) * (lane - 14);
      g.fillRect(x - step, top + lane - h, step, h);
    }
    g.fillStyle = "#555";
    g.fillText(address, 4, top + 11);
    g.strokeStyle = "#ddd";
    g.beginPath();
    g.moveTo(0, top + lane - 0.5);
    g.lineTo(width, top + lane - 0.5);
    g.stroke();
    const current = series.length ? series[series.length - 1].running || 0 : 0;
    const span = document.createElement("span");
    span.style.color = colour;
    span.dataset.worker = address;
    span.dataset.running = String(current);
    span.dataset.most = String(most);
    const plural = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;
    span.textContent = `■ ${address}: ${plural(current, "task")} now, at most ${most} (${plural(cores, "core")})`;
    return span;
  });
  document.getElementById("task-lanes").replaceChildren(...legend);
}

function progressCell(fraction, state) {
  const td = document.createElement("td");
  const bar = document.createElement("div");
  // the bar takes the execution's colour: a cancelled or failed one is not shown as done
  bar.className = state ? `bar bar-${state}` : "bar";
  const inner = document.createElement("div");
  inner.style.width = `${(100 * fraction).toFixed(1)}%`;
  bar.append(inner);
  const pct = document.createElement("span");
  pct.className = "progress";
  pct.textContent = ` ${Math.floor(100 * fraction)}%`;
  td.append(bar, pct);
  return td;
}

function opName(op) {
  return op.step ? `${op.op} · ${op.step}` : op.op;
}

function drawCluster(state) {
  const cluster = state.cluster;
  fill("supervisors", cluster.supervisors.map((s) => {
    const tr = document.createElement("tr");
    tr.append(cell(s.address), cell(s.web || "–"), cell(s.active ? "active" : "standby"));
    return tr;
  }));
  drawWorkers(cluster.workers);
  document.getElementById("worker-totals").textContent = totalsText(cluster);
  const rows = [];
  for (const session of state.sessions) {
    for (const e of session.executions) {
      const tr = document.createElement("tr");
      tr.dataset.execution = e.execution_id;
      const id = cell("");
      // named as the client named it (or after what it computes); the id's end tells runs apart
      const label = e.name ? `${e.name} · ${e.execution_id.slice(-8)}` : e.execution_id.slice(-8);
      id.append(link(`#/execution/${session.session_id}/${e.execution_id}`, label));
      const ops = cell("", "operators");
      for (const op of e.operators || []) {
        const span = document.createElement("span");
        span.className = `chip ${op.state}`;
        span.textContent = `${opName(op)} ${op.done}/${op.total}`;
        ops.append(span);
      }
      tr.append(
        cell(session.session_id.slice(-8)),
        id,
        cell(e.state, `state state-${e.state}`),
        progressCell(e.progress, e.state),
        cell(`${e.elapsed.toFixed(1)} s`, "num"),
        ops,
      );
      rows.push(tr);
    }
  }
  fill("executions", rows);
}

// ---- one execution: its operators as a graph, laid out in columns by depth ---------------

const SVG = "http://www.w3.org/2000/svg";
const NODE_W = 180, NODE_H = 44, GAP_X = 56, GAP_Y = 14;

function svg(name, attrs) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function layout(operators, edges) {
  const depth = new Map(operators.map((op) => [op.id, 0]));
  const readers = new Map(operators.map((op) => [op.id, []]));
  const inputs = new Map(operators.map((op) => [op.id, 0]));
  for (const [a, b] of edges) {
    if (!readers.has(a) || !readers.has(b)) continue;
    readers.get(a).push(b);
    inputs.set(b, inputs.get(b) + 1);
  }
  const queue = operators.filter((op) => inputs.get(op.id) === 0).map((op) => op.id);
  while (queue.length) {
    const id = queue.shift();
    for (const next of readers.get(id)) {
      depth.set(next, Math.max(depth.get(next), depth.get(id) + 1));
      inputs.set(next, inputs.get(next) - 1);
      if (inputs.get(next) === 0) queue.push(next);
    }
  }
  const columns = [];
  const at = new Map();
  for (const op of operators) {
    const d = depth.get(op.id);
    columns[d] = columns[d] || [];
    at.set(op.id, { x: d * (NODE_W + GAP_X), y: columns[d].length * (NODE_H + GAP_Y) });
    columns[d].push(op.id);
  }
  const rows = Math.max(1, ...columns.map((c) => (c ? c.length : 0)));
  return { at, width: columns.length * (NODE_W + GAP_X), height: rows * (NODE_H + GAP_Y) };
}

function drawGraph(model) {
  const graph = document.getElementById("graph");
  const operators = model.operators || [];
  const { at, width, height } = layout(operators, model.edges || []);
  graph.setAttribute("width", Math.max(width, 200));
  graph.setAttribute("height", Math.max(height, 60));
  const parts = [];
  for (const [a, b] of model.edges || []) {
    const p = at.get(a), q = at.get(b);
    if (!p || !q) continue;
    const x1 = p.x + NODE_W, y1 = p.y + NODE_H / 2, x2 = q.x, y2 = q.y + NODE_H / 2;
    const mid = (x1 + x2) / 2;
    parts.push(svg("path", { d: `M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`, class: "edge" }));
  }
  for (const op of operators) {
    const p = at.get(op.id);
    const g = svg("g", { class: `op op-${op.state}`, transform: `translate(${p.x},${p.y})` });
    g.dataset.operator = op.id;
    g.dataset.state = op.state;
    const title = svg("title", {});
    title.textContent = `${op.id}: ${op.state}, ${op.done}/${op.total} chunks, ${seconds(op.seconds)}`;
    const label = svg("text", { x: 8, y: 17 });
    label.textContent = opName(op);
    const figures = svg("text", { x: 8, y: 35, class: "figures" });
    figures.textContent = `${op.done}/${op.total} · ${seconds(op.seconds)}`;
    g.append(title, svg("rect", { width: NODE_W, height: NODE_H, rx: 5 }), label, figures);
    parts.push(g);
  }
  graph.replaceChildren(...parts);
}

function drawExecution(state) {
  const model = state.execution;
  if (!model) return;
  if (model.missing) {
    document.getElementById("execution-summary").textContent = "This execution is not known (any more).";
    return;
  }
  let execution = null;
  for (const s of state.sessions) {
    for (const e of s.executions) if (e.execution_id === model.execution_id) execution = e;
  }
  const named = execution && execution.name ? `${execution.name}: ` : "";
  const summary = execution
    ? `${named}${execution.state}, ${Math.floor(100 * execution.progress)}% after ${execution.elapsed.toFixed(1)} s`
    : model.state;
  const el = document.getElementById("execution-summary");
  el.textContent = summary;
  el.dataset.state = model.state;
  drawGraph(model);
  const total = (model.operators || []).reduce((sum, op) => sum + op.seconds, 0) || 1;
  fill("operators", (model.operators || []).map((op) => {
    const tr = document.createElement("tr");
    tr.dataset.operator = op.id;
    tr.append(
      cell(op.op), cell(op.step || "–"), cell(op.state, `state state-${op.state}`),
      cell(`${op.done} / ${op.total}`, "num"), cell(String(op.running), "num"),
      cell(seconds(op.seconds), "num"), progressCell(op.seconds / total),
    );
    return tr;
  }));
}

// ---- one worker ----------------------------------------------------------------------------

function drawWorker(state) {
  const w = state.worker;
  if (!w) return;
  const figures = document.querySelector("#worker-figures tbody");
  if (w.missing) {
    figures.replaceChildren(row("state", "not registered (gone?)"));
    return;
  }
  const r = w.resources || {};
  const store = r.store || {};
  figures.replaceChildren(
    row("CPU used / total", `${cpuUsed(w).toFixed(2)} / ${w.n_cpu}`),
    row("memory used / limit", `${bytes(r.memory_rss)} / ${bytes(memoryLimit(w))}`),
    row("soft / hard limit", memoryLimits(r.memory_limits)),
    row("store in memory", `${bytes(store.memory_bytes)} of ${bytes(store.cache_bytes)}`),
    row("spilled", bytes(store.spilled_bytes)),
    row("warnings", (store.warnings || []).join("; ") || "none"),
    row("received / sent per s", transfer(w.transfer || r.transfer)),
    row("received / sent in all", w.transfer ? `${bytes(w.transfer.received_bytes)} / ${bytes(w.transfer.sent_bytes)}` : "–"),
    ...workerGpus(w).map((g) => row(`GPU ${g.index}`, `${g.name} · ${gpuText(g)}`)),
    row("state", liveness(w)),
    row("reachable", w.unreachable || "yes"),
  );
  fill("worker-tasks", (w.running_tasks || []).map((t) => {
    const tr = document.createElement("tr");
    tr.append(cell(t.key), cell(t.op), cell(t.state, `state state-${t.state}`), cell(seconds(t.since), "num"));
    return tr;
  }));
  document.getElementById("worker-log").textContent = (w.log || []).join("\n");
}

// The worker's GPUs as it told them now, else as its last heartbeat did: none, no row.
function workerGpus(w) {
  const now = w.gpus || [];
  return now.length ? now : (w.resources || {}).gpus || [];
}

function memoryLimits(limits) {
  if (!limits) return "–";
  const stopped = limits.tasks_stopped ? `, ${limits.tasks_stopped} tasks stopped` : "";
  const above = limits.above_soft_limit ? " (above the soft limit: spilling, no new task)" : "";
  return `${bytes(limits.soft_limit)} / ${bytes(limits.hard_limit)}${above}${stopped}`;
}

function row(name, value) {
  const tr = document.createElement("tr");
  const th = document.createElement("th");
  th.textContent = name;
  tr.append(th, cell(value, "num"));
  return tr;
}

async function dumpStacks() {
  const target = route();
  if (target.view !== "worker") return;
  const out = document.getElementById("worker-stacks");
  out.textContent = "asking the worker…";
  const url = new URL(`api/v1/workers/${encodeURIComponent(target.worker)}/stack`, baseUrl());
  // served through a Jupyter server, its XSRF check wants the _xsrf cookie echoed back
  const xsrf = document.cookie.split("; ").find((c) => c.startsWith("_xsrf="));
  const headers = xsrf ? { "X-XSRFToken": decodeURIComponent(xsrf.slice(6)) } : {};
  const response = await fetch(url, { method: "POST", credentials: "same-origin", headers });
  const body = await response.json();
  if (!response.ok || body.unreachable) {
    out.textContent = body.error || body.unreachable;
    return;
  }
  out.replaceChildren(...body.threads.map((t) => {
    const box = document.createElement("details");
    box.open = t.thread.startsWith("mars-slot");
    const head = document.createElement("summary");
    head.textContent = t.thread;
    const pre = document.createElement("pre");
    pre.className = "stack";
    pre.textContent = t.stack;
    box.append(head, pre);
    return box;
  }));
}

// ---- views and the stream ------------------------------------------------------------------

function baseUrl() {
  return new URL(".", window.location.href.split("#")[0]);
}

function route() {
  const parts = window.location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  if (parts[0] === "execution" && parts.length === 3) {
    return { view: "execution", watch: { execution: [parts[1], parts[2]] } };
  }
  if (parts[0] === "worker" && parts.length === 2) {
    return { view: "worker", worker: parts[1], watch: { worker: parts[1] } };
  }
  return { view: "cluster", watch: {} };
}

let socket = null;
let lastState = null;

// One card alone: the others hidden, the page marked for the stylesheet; an unknown view
// is said at the top of the whole dashboard.
function showCards() {
  if (single.error) {
    const message = document.getElementById("view-error");
    message.textContent = single.error;
    message.hidden = false;
  }
  if (!single.card) return;
  document.body.classList.add("single");
  document.body.dataset.view = new URLSearchParams(window.location.search).get("view");
  for (const card of document.querySelectorAll("#view-cluster .card")) {
    card.hidden = card.id !== single.card;
  }
}

function show() {
  const target = route();
  for (const view of document.querySelectorAll(".view")) {
    view.hidden = view.id !== `view-${target.view}`;
  }
  // a card alone may link to an execution's or a worker's page: the header (and its link
  // back) shows there
  document.body.classList.toggle("away", target.view !== "cluster");
  if (target.view === "execution") {
    document.getElementById("execution-id").textContent = target.watch.execution[1];
    document.getElementById("graph").replaceChildren();
  }
  if (target.view === "worker") {
    document.getElementById("worker-address").textContent = target.worker;
    document.getElementById("worker-stacks").replaceChildren();
  }
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ watch: target.watch }));
  }
  if (lastState) draw(lastState);
}

function draw(state) {
  if (state.history) {
    // the supervisor's samples of the last minutes: charts drawn as if the page had been open
    for (const [address, points] of Object.entries(state.history)) {
      if (!history.has(address) || history.get(address).length < points.length) history.set(address, points);
    }
    delete state.history;
  }
  lastState = state;
  const target = route();
  if (target.view === "cluster") drawCluster(state);
  if (target.view === "execution") drawExecution(state);
  if (target.view === "worker") drawWorker(state);
}

function connect() {
  const url = new URL("api/v1/stream", baseUrl());
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const status = document.getElementById("status");
  socket = new WebSocket(url);
  socket.onopen = () => {
    status.textContent = "live";
    document.body.classList.add("live");
    socket.send(JSON.stringify({ watch: route().watch }));
  };
  socket.onmessage = (event) => {
    const state = JSON.parse(event.data);
    if (!state.error) draw(state);
  };
  socket.onclose = () => {
    status.textContent = "disconnected, retrying…";
    document.body.classList.remove("live");
    setTimeout(connect, 2000);
  };
}

window.addEventListener("hashchange", show);
document.getElementById("dump-stacks").addEventListener("click", dumpStacks);
showCards();
show();
connect();
