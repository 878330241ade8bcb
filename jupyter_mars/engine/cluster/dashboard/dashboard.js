// The cluster dashboard: draws the state the supervisor streams over /api/v1/stream.
// Plain script, no libraries; every address is relative, so the page works under any
// path prefix (a Jupyter server serving it under /mars/, say).
"use strict";

const HISTORY_SECONDS = 300;
const COLOURS = ["#0969da", "#cf222e", "#2da44e", "#8250df", "#bf8700", "#1b7c83"];
const history = new Map(); // worker address -> [{t, cpu, memory}]

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

function drawWorkers(workers) {
  const now = Date.now() / 1000;
  fill("workers", workers.map((w) => {
    const r = w.resources || {};
    const store = r.store || {};
    const cpu = cpuUsed(w);
    const series = history.get(w.address) || [];
    series.push({ t: now, cpu, memory: r.memory_rss || 0 });
    while (series.length && series[0].t < now - HISTORY_SECONDS) series.shift();
    history.set(w.address, series);
    const tr = document.createElement("tr");
    tr.dataset.worker = w.address;
    tr.append(
      cell(w.address),
      cell(`${cpu.toFixed(2)} / ${w.n_cpu}`, "num cpu"),
      cell(`${bytes(r.memory_rss)} / ${bytes(store.phy_mem_bytes || r.memory_total)}`, "num"),
      cell(`${bytes(store.memory_bytes)} of ${bytes(store.cache_bytes)}`, "num"),
      cell(bytes(store.spilled_bytes), "num"),
      cell(String(w.running), "num running"),
    );
    return tr;
  }));
  for (const address of [...history.keys()]) {
    if (!workers.some((w) => w.address === address)) history.delete(address);
  }
  chart("cpu-chart", "cpu", Math.max(1, ...workers.map((w) => w.n_cpu)), (v) => v.toFixed(1));
  const top = Math.max(1, ...[...history.values()].flat().map((p) => p.memory));
  chart("memory-chart", "memory", top, bytes);
  document.getElementById("legend").replaceChildren(...[...history.keys()].map((a, i) => {
    const span = document.createElement("span");
    span.style.color = COLOURS[i % COLOURS.length];
    span.textContent = `■ ${a}`;
    return span;
  }));
}

function chart(id, field, top, label) {
  const canvas = document.getElementById(id);
  const g = canvas.getContext("2d");
  const { width, height } = canvas;
  g.clearRect(0, 0, width, height);
  g.fillStyle = "#555";
  g.font = "11px sans-serif";
  g.fillText(label(top), 4, 12);
  const now = Date.now() / 1000;
  [...history.values()].forEach((series, i) => {
    g.strokeStyle = COLOURS[i % COLOURS.length];
    g.beginPath();
    series.forEach((p, j) => {
      const x = width - ((now - p.t) / HISTORY_SECONDS) * width;
      const y = height - (p[field] / top) * (height - 16);
      if (j === 0) g.moveTo(x, y); else g.lineTo(x, y);
    });
    g.stroke();
  });
}

function draw(state) {
  const cluster = state.cluster;
  fill("supervisors", cluster.supervisors.map((s) => {
    const tr = document.createElement("tr");
    tr.append(cell(s.address), cell(s.web || "–"), cell(s.active ? "active" : "standby"));
    return tr;
  }));
  drawWorkers(cluster.workers);
  const rows = [];
  for (const session of state.sessions) {
    for (const e of session.executions) {
      const tr = document.createElement("tr");
      tr.dataset.execution = e.execution_id;
      const progress = document.createElement("td");
      const bar = document.createElement("div");
      bar.className = "bar";
      const inner = document.createElement("div");
      inner.style.width = `${(100 * e.progress).toFixed(1)}%`;
      bar.append(inner);
      const pct = document.createElement("span");
      pct.className = "progress";
      pct.textContent = ` ${Math.floor(100 * e.progress)}%`;
      progress.append(bar, pct);
      tr.append(
        cell(session.session_id.slice(-8)),
        cell(e.execution_id.slice(-8)),
        cell(e.state, `state state-${e.state}`),
        progress,
        cell(`${e.elapsed.toFixed(1)} s`, "num"),
      );
      rows.push(tr);
    }
  }
  fill("executions", rows);
}

function connect() {
  const url = new URL("api/v1/stream", window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const status = document.getElementById("status");
  const socket = new WebSocket(url);
  socket.onopen = () => { status.textContent = "live"; };
  socket.onmessage = (event) => draw(JSON.parse(event.data));
  socket.onclose = () => {
    status.textContent = "disconnected, retrying…";
    setTimeout(connect, 2000);
  };
}

connect();
