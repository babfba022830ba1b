// tablezoo serve: the page. It keeps only what the server sends for its seat (game id, seat,
// token, the last view) and asks the server for everything else.
"use strict";

const $ = (id) => document.getElementById(id);
let catalog = null;
const BOARDS = window.tablezooBoards || {};  // boards.js: what a game's picture adds
let current = fresh();
let autoplay = null;

function fresh() {
  return { game: null, seat: null, token: null, tokens: {}, view: null, busy: false, board: null,
           seen: null };
}

// ``body``: a value to send as JSON, or JSON text sent as it is (a saved position's 128-bit
// random-generator state would lose digits as a JavaScript number)
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }));
  if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
  return data;
}

function showError(err) {
  const box = $("error");
  if (!err) { box.hidden = true; box.textContent = ""; return; }
  box.textContent = String(err.message || err);
  box.hidden = false;
}

function envInfo(name) { return catalog.envs.find((e) => e.name === name); }

// --- setup ------------------------------------------------------------------------------------
function buildOptions() {
  const env = envInfo($("env").value);
  const box = $("options");
  box.querySelectorAll("label").forEach((n) => n.remove());
  for (const opt of env.options) {
    const label = document.createElement("label");
    label.className = "option";
    label.append(opt.name + " ");
    const value = opt.name in env.quick ? env.quick[opt.name] : opt.default;
    let input;
    if (opt.allowed) {
      input = document.createElement("select");
      opt.allowed.forEach((v, i) => {
        const o = document.createElement("option");
        o.value = String(i);
        o.textContent = JSON.stringify(v);
        if (JSON.stringify(v) === JSON.stringify(value)) o.selected = true;
        input.append(o);
      });
    } else {
      input = document.createElement("input");
      input.type = "text";
      input.value = value === null ? "none" : (typeof value === "object" ? JSON.stringify(value) : String(value));
    }
    input.dataset.option = opt.name;
    input.addEventListener(opt.allowed ? "change" : "input", buildSeats);
    label.append(input);
    const doc = document.createElement("small");
    doc.textContent = opt.doc;
    label.append(doc);
    box.append(label);
  }
  $("seats").querySelectorAll("label").forEach((n) => n.remove());  // another env's seats
  buildSeats();
}

function chosenOptions() {
  const env = envInfo($("env").value);
  const out = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const opt = env.options.find((o) => o.name === input.dataset.option);
    const value = opt.allowed ? opt.allowed[Number(input.value)] : input.value;
    if (JSON.stringify(value) !== JSON.stringify(opt.default)) out[opt.name] = value;
  }
  return out;
}

function playerCount() {
  const env = envInfo($("env").value);
  const chosen = chosenOptions();
  if ("num_players" in chosen) return Number(chosen.num_players);
  return env.players;
}

function buildSeats() {
  const box = $("seats");
  const count = playerCount();
  const inputs = box.querySelectorAll("input");
  if (inputs.length === count || !(count >= 1 && count <= 8)) return;  // nothing to change
  const before = [...inputs].map((i) => i.value);
  box.querySelectorAll("label").forEach((n) => n.remove());
  const list = $("agent-list") || document.createElement("datalist");
  list.id = "agent-list";
  list.replaceChildren(...catalog.agents.map((a) => Object.assign(document.createElement("option"), { value: a })));
  box.append(list);
  for (let p = 0; p < count; p++) {
    const label = document.createElement("label");
    label.append(`player_${p} `);
    const input = document.createElement("input");
    input.type = "text";
    input.setAttribute("list", "agent-list");
    input.dataset.seat = String(p);
    input.value = before[p] || (p === 0 ? "human" : "heuristic");
    label.append(input);
    box.append(label);
  }
}

function seats() { return [...$("seats").querySelectorAll("input")].map((i) => i.value.trim()); }

function seed() {
  const text = $("seed").value.trim();
  return text === "" ? null : Number(text);
}

async function start(extra) {
  showError(null);
  const body = { env: $("env").value, options: chosenOptions(), seats: seats(), seed: seed(), ...extra };
  const data = await thinking(api("POST", "/api/games", body), "starting the game…");
  enter(data);
}

function enter(data) {
  current.game = data.game;
  current.tokens = data.tokens || {};
  const humans = Object.keys(current.tokens).map(Number).sort((a, b) => a - b);
  current.seat = humans.length ? humans[0] : null;
  current.token = humans.length ? current.tokens[String(current.seat)] : null;
  const hash = new URLSearchParams({ game: current.game });
  if (current.seat !== null) { hash.set("seat", current.seat); hash.set("token", current.token); }
  history.replaceState(null, "", "#" + hash.toString());
  show(data.view);
}

// Several human seats in one game: play them here in turn (buttons), or one a tab (links).
function seatSwitch() {
  const box = $("seat-switch");
  const humans = Object.keys(current.tokens).map(Number).sort((a, b) => a - b);
  box.hidden = humans.length < 2;
  box.replaceChildren();
  if (box.hidden) return;
  box.append("your seats: ");
  for (const seat of humans) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "seat";
    b.dataset.seat = String(seat);
    b.textContent = `play player_${seat}` + (seat === current.seat ? " (shown)" : "");
    b.disabled = seat === current.seat;
    b.addEventListener("click", () => switchSeat(seat));
    const link = document.createElement("a");
    const hash = new URLSearchParams({ game: current.game, seat, token: current.tokens[String(seat)] });
    link.href = "#" + hash.toString();
    link.target = "_blank";
    link.textContent = "(own tab)";
    box.append(b, " ", link, " ");
  }
}

async function switchSeat(seat) {
  current.seat = seat;
  current.token = current.tokens[String(seat)];
  const hash = new URLSearchParams({ game: current.game, seat, token: current.token });
  history.replaceState(null, "", "#" + hash.toString());
  try {
    show(await api("GET", `/api/games/${current.game}?seat=${seat}&token=${encodeURIComponent(current.token)}`));
  } catch (err) { showError(err); }
}

// --- the game ---------------------------------------------------------------------------------
function show(view) {
  const before = current.view;
  current.view = view;
  document.body.dataset.views = String(Number(document.body.dataset.views || 0) + 1);
  $("setup").hidden = true;
  $("table").hidden = false;
  $("new").hidden = false;
  const env = envInfo(view.env);
  $("legend").textContent = env ? env.legend : "";
  $("board").innerHTML = view.svg;
  const svg = $("board").querySelector("svg");
  const labels = new Map(view.menu ? view.menu.labels : []);
  for (const el of $("board").querySelectorAll("[data-action]")) {
    el.addEventListener("click", () => move(Number(el.dataset.action)));
    tooltip(el, labels.get(Number(el.dataset.action)));
  }
  for (const el of $("board").querySelectorAll("[data-group]")) {
    el.addEventListener("click", () => showMenu(el.dataset.group));
    const group = view.menu && view.menu.groups.find((g) => g[0] === el.dataset.group);
    if (group) tooltip(el, group[1]);
  }
  $("text").textContent = view.text;
  showLog(view, before);
  status(view);
  seatSwitch();
  $("controls").hidden = view.mode !== "watch";
  if (view.mode === "watch") {
    $("frame").textContent = `position ${view.frame} of ${view.frames - 1}` +
      (view.can_grow && !view.over ? " (the agents play on)" : "");
    if (view.over && autoplay) toggleAutoplay();
  }
  const board = env && svg ? BOARDS[env.game] : undefined;
  current.board = board ? board.attach({
    svg, view, move, moveButton, showMenu, menuBox: $("menu"), busy: () => current.busy,
  }) : null;
  showMenu(null);
  showResult(view, svg);
}

// a card's or tile's full move name when the pointer rests on it (the picture may shorten names)
function tooltip(el, text) {
  if (!text || el.querySelector(":scope > title")) return;
  const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
  title.textContent = text;
  el.prepend(title);
}

// The move list (its own scroll box, the latest moves in sight) and, when playing, the moves
// made since the seat's previous view.
function showLog(view, before) {
  const line = (entry) => {
    const li = document.createElement("li");
    li.value = entry.n;
    li.textContent = entry.lines.join("; ");
    return li;
  };
  $("log").replaceChildren(...view.log.map(line));
  const box = $("history");
  box.scrollTop = box.scrollHeight;
  const recent = $("recent");
  const since = before && before.game === view.game && view.mode === "play" ? before.moves : null;
  const fresh = since === null ? [] : view.log.filter((entry) => entry.n > since);
  recent.hidden = fresh.length === 0;
  recent.querySelector("ol").replaceChildren(...fresh.map(line));
  recent.scrollTop = recent.scrollHeight;
}

// While a request runs the agents may be thinking: say so, and keep the moves from clicks.
async function thinking(request, text) {
  document.body.classList.add("thinking");
  $("thinking-text").textContent = text || "the agents are thinking…";
  $("thinking").hidden = false;
  try {
    return await request;
  } finally {
    document.body.classList.remove("thinking");
    $("thinking").hidden = true;
  }
}

function status(view) {
  const box = $("status");
  box.replaceChildren();
  const title = document.createElement("div");
  title.textContent = view.title;
  box.append(title);
  const line = document.createElement("div");
  if (view.over) {
    line.textContent = "game over";
  } else if (view.menu) {
    line.className = "turn";
    line.textContent = `your move (player_${view.viewer})`;
  } else if (view.answered) {
    line.textContent = `you chose: ${view.answered}; waiting for ${view.to_act.join(", ")}`;
  } else {
    line.textContent = `to act: ${view.to_act.join(", ")}`;
  }
  if (view.think_ms) line.textContent += ` · agents thought ${view.think_ms} ms`;
  box.append(line);
}

function showMenu(groupKey) {
  const box = $("menu");
  box.replaceChildren();
  const menu = current.view && current.view.menu;
  if (current.board && current.board.menu(groupKey)) return;  // the picture answers it
  if (!menu) return;
  const labels = new Map(menu.labels);
  const grouped = new Set(menu.groups.flatMap((g) => g[2]));
  const title = document.createElement("div");
  title.className = "title";
  box.append(title);
  if (groupKey !== null) {
    const group = menu.groups.find((g) => g[0] === groupKey);
    title.textContent = group[1];
    for (const a of group[2]) box.append(moveButton(a, labels.get(a)));
    const back = document.createElement("button");
    back.className = "back";
    back.textContent = "← back";
    back.addEventListener("click", () => showMenu(null));
    box.append(back);
    return;
  }
  title.textContent = "your legal moves";
  if (current.board && current.board.hint) {  // what the picture offers for this decision
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.textContent = current.board.hint;
    box.append(hint);
  }
  for (const [a, label] of menu.labels) if (!grouped.has(a)) box.append(moveButton(a, label));
  for (const [key, text] of menu.groups) {
    const b = document.createElement("button");
    b.className = "group";
    b.dataset.group = key;
    b.textContent = `${text} →`;
    b.addEventListener("click", () => showMenu(key));
    box.append(b);
  }
}

function moveButton(action, label) {
  const b = document.createElement("button");
  b.className = "move";
  b.dataset.action = String(action);
  b.textContent = label;
  b.addEventListener("click", () => move(action));
  return b;
}

function showResult(view, svg) {
  const box = $("result");
  box.replaceChildren();
  if (!view.result) return;
  const r = view.result;
  const head = document.createElement("div");
  head.className = "headline";
  head.textContent = r.truncated ? "game cut at its decision bound" : "final score";
  const best = Math.max(...r.returns);
  const winners = view.seats.filter((s, p) => r.returns[p] === best).map((s) => s.name + (s.you ? " (you)" : ""));
  if (!r.truncated) {
    head.textContent += winners.length === view.seats.length ? ": a draw"
      : `: ${winners.join(", ")} win${winners.length === 1 ? "s" : ""}`;
  }
  box.append(head);
  const table = document.createElement("table");
  table.className = "final";
  const names = view.seats.map((s) => s.name + (s.you ? " (you)" : ""));
  const rows = [["", ...names], ["score", ...r.scores], ["return", ...r.returns]];
  for (const cat of r.categories) rows.push([cat, ...r.breakdown.map((b) => b[cat] ?? 0)]);
  rows.forEach((row, i) => {
    const tr = document.createElement("tr");
    row.forEach((cell) => {
      const td = document.createElement(i === 0 ? "th" : "td");
      td.textContent = typeof cell === "number" ? String(+cell.toFixed(3)) : cell;
      tr.append(td);
    });
    table.append(tr);
  });
  box.append(table);
  if (svg) endBox(svg, head);
}

// The picture's own "game over" box, where it lies on cards (bauer_trick's last trick): the
// table above says the same, so it starts hidden; the button, or a click on it, shows or hides it.
function endBox(svg, head) {
  const text = [...svg.querySelectorAll("text")].find((t) => t.textContent.startsWith("game over"));
  const ground = text && text.previousElementSibling;
  if (!ground || ground.tagName !== "rect") return;
  const area = ground.getBBox();
  const covers = [...svg.querySelectorAll("[data-card]")].some((card) => {
    const b = card.getBBox();
    return b.x < area.x + area.width && area.x < b.x + b.width &&
      b.y < area.y + area.height && area.y < b.y + b.height;
  });
  if (!covers) return;
  const group = document.createElementNS("http://www.w3.org/2000/svg", "g");
  group.setAttribute("class", "end-box");
  ground.before(group);
  group.append(ground);
  while (group.nextElementSibling && group.nextElementSibling.tagName === "text") {
    group.append(group.nextElementSibling);
  }
  const toggle = document.createElement("button");
  toggle.type = "button";
  toggle.className = "end-toggle";
  const set = (hidden) => {
    group.style.display = hidden ? "none" : "";
    toggle.textContent = hidden ? "show the result on the picture" : "hide it (the cards below)";
  };
  group.addEventListener("click", () => set(true));
  toggle.addEventListener("click", () => set(group.style.display !== "none"));
  set(true);
  head.append(toggle);
}

async function move(action) {
  if (current.busy || !current.view || current.view.mode !== "play") return;
  current.busy = true;
  try {
    showError(null);
    const agents = current.view.seats.some((s) => !s.you);
    const request = api("POST", `/api/games/${current.game}/move`, {
      seat: current.seat, token: current.token, action, counter: current.view.counter });
    show(await (agents ? thinking(request) : request));
  } catch (err) {
    showError(err);
  } finally {
    current.busy = false;
  }
}

async function go(where) {
  if (current.busy || !current.view) return;
  current.busy = true;
  try {
    showError(null);
    const request = api("POST", `/api/games/${current.game}/step`, { go: where, counter: current.view.frame });
    show(await (where === "next" || where === "end" ? thinking(request) : request));
  } catch (err) {
    showError(err);
    if (autoplay) toggleAutoplay();
  } finally {
    current.busy = false;
  }
}

function toggleAutoplay() {
  const button = $("autoplay");
  if (autoplay) {
    clearInterval(autoplay);
    autoplay = null;
  } else {
    autoplay = setInterval(() => go("next"), 700);
  }
  button.classList.toggle("on", autoplay !== null);
  button.querySelector("span").textContent = autoplay ? "pause" : "play";
}

async function reopen() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.get("game")) return false;
  current.game = params.get("game");
  current.seat = params.has("seat") ? Number(params.get("seat")) : null;
  current.token = params.get("token");
  if (current.seat !== null) current.tokens = { [current.seat]: current.token };
  const query = current.seat === null ? "" :
    `?seat=${current.seat}&token=${encodeURIComponent(current.token)}`;
  try {
    show(await api("GET", `/api/games/${current.game}${query}`));
    return true;
  } catch (err) {
    showError(err);
    history.replaceState(null, "", "#");
    return false;
  }
}

function newGame() {
  if (autoplay) toggleAutoplay();
  history.replaceState(null, "", "#");
  current = fresh();
  $("table").hidden = true;
  $("setup").hidden = false;
  $("new").hidden = true;
  showError(null);
}

async function readFile(input) {
  const file = input.files && input.files[0];
  return file ? await file.text() : "";
}

async function init() {
  catalog = await api("GET", "/api/envs");
  const select = $("env");
  for (const env of catalog.envs) {
    const o = document.createElement("option");
    o.value = env.name;
    o.textContent = `${env.name} (${env.game})`;
    select.append(o);
  }
  select.addEventListener("change", buildOptions);
  buildOptions();
  $("new-game").addEventListener("submit", (e) => { e.preventDefault(); start({}).catch(showError); });
  $("open-state").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const text = (await readFile($("state-file"))) || $("state-text").value;
      JSON.parse(text);  // not JSON: said here; the text itself is sent, digits intact
      const body = `{"state": ${text.trim()}, "seats": ${JSON.stringify(seats())}, ` +
        `"seed": ${JSON.stringify(seed())}}`;
      showError(null);
      enter(await thinking(api("POST", "/api/games", body), "opening the position…"));
    } catch (err) { showError(err); }
  });
  $("replay-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const record = await readFile($("record-file"));
      showError(null);
      enter(await api("POST", "/api/replays", { record, game: Number($("record-game").value) }));
    } catch (err) { showError(err); }
  });
  for (const b of $("controls").querySelectorAll("[data-go]")) {
    b.addEventListener("click", () => go(b.dataset.go));
  }
  $("autoplay").addEventListener("click", toggleAutoplay);
  $("new").addEventListener("click", newGame);
  await reopen();
}

init().catch(showError);
