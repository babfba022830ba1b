// tablezoo serve: what a game's picture adds to the page, by game name. The generic page
// (app.js) calls board.attach(ctx) after drawing each view; the board may decorate the picture
// and take over the menu for decisions it can show on the picture (``menu`` returns true).
"use strict";

window.tablezooBoards = (() => {
  const SVG = "http://www.w3.org/2000/svg";

  function svgElement(name, attrs) {
    const el = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    return el;
  }

  // --- bower: placing a tile by clicking the nest ----------------------------------------------
  // The action table of envs/bower/actions.py: which ids lay a tile (play, cover) and which
  // name one cell (token target, branch); a placement's two cells from its footprint.
  const PLAY = 3, PASS = 459, TARGET = 470, BRANCH = 518, COVER = 566, HAND = 642;
  const PLACEMENTS = 76, CELLS = 24, COLS = 6, ROWS = 4, CELL = 52;

  function footprint(f) {
    if (f < 20) {  // horizontal: (r, c)-(r, c+1)
      const a = COLS * Math.floor(f / 5) + (f % 5);
      return [a, a + 1];
    }
    const g = f - 20;  // vertical: (r, c)-(r+1, c)
    const a = COLS * Math.floor(g / COLS) + (g % COLS);
    return [a, a + COLS];
  }

  // The cells that get the tile's first and second half ("~" in the engine's names: swapped).
  function placementCells(p) {
    const [a, b] = footprint(p >> 1);
    return p & 1 ? [b, a] : [a, b];
  }

  // { kind: "place" | "cell", nest: 0 (the mover's) | 1, cells } for the ids the nest can answer
  function decode(a) {
    if (a >= PLAY && a < PASS) return { kind: "place", nest: 0, cells: placementCells((a - PLAY) % PLACEMENTS) };
    if (a >= COVER && a < HAND) return { kind: "place", nest: 0, cells: placementCells(a - COVER) };
    if (a >= TARGET && a < BRANCH) {
      const r = a - TARGET;
      return { kind: "cell", nest: Math.floor(r / CELLS), cells: [r % CELLS] };
    }
    if (a >= BRANCH && a < COVER) return { kind: "cell", nest: 0, cells: [Math.floor((a - BRANCH) / 2)] };
    return null;
  }

  const cellName = (cell) => `(${Math.floor(cell / COLS)},${cell % COLS})`;

  // The nests' cells as the picture draws them: 52 x 52 squares, the viewer's nest first, each
  // in cell order (row 0, the row next to the bird, first). null when the picture differs.
  function nests(svg) {
    const rects = [...svg.querySelectorAll(`rect[width="${CELL}"][height="${CELL}"]`)];
    if (rects.length !== 2 * CELLS) return null;
    const at = (r) => ({ x: Number(r.getAttribute("x")), y: Number(r.getAttribute("y")) });
    return [rects.slice(0, CELLS).map(at), rects.slice(CELLS).map(at)];
  }

  function drawCoordinates(svg, cells) {
    for (const nest of cells) {
      for (let r = 0; r < ROWS; r++) {
        const c = nest[COLS * r];
        const t = svgElement("text", { x: c.x - 5, y: c.y + CELL / 2 + 4, class: "coord", "text-anchor": "middle" });
        t.textContent = String(r);
        svg.append(t);
      }
      for (let col = 0; col < COLS; col++) {
        const c = nest[COLS * (ROWS - 1) + col];
        const t = svgElement("text", { x: c.x + CELL / 2, y: c.y + CELL + 11, class: "coord", "text-anchor": "middle" });
        t.textContent = String(col);
        svg.append(t);
      }
    }
  }

  const bower = {
    attach(ctx) {
      const cells = nests(ctx.svg);
      if (!cells) return null;
      drawCoordinates(ctx.svg, cells);
      const overlay = cells.map((nest, n) => nest.map((c, cell) => {
        const rect = svgElement("rect", { x: c.x, y: c.y, width: CELL, height: CELL, rx: 4, class: "nest-cell" });
        rect.dataset.nest = String(n);
        rect.dataset.cell = String(cell);
        const title = svgElement("title", {});
        title.textContent = `row ${Math.floor(cell / COLS)}, column ${cell % COLS}`;
        rect.append(title);
        rect.addEventListener("click", () => clicked(n, cell));
        ctx.svg.append(rect);
        return rect;
      }));
      const menu = ctx.view.menu;
      const labels = menu ? new Map(menu.labels) : new Map();
      // the decision shown on the nest: its placements (one tile's, or the cover's) or cells
      let mode = null;  // { kind, actions, title, back }
      let picked = [];  // the cells clicked so far

      function mark() {
        for (const rect of overlay.flat()) rect.classList.remove("candidate", "picked");
        for (const half of ctx.svg.querySelectorAll(".half")) half.remove();
        if (!mode) return;
        for (const cell of picked) overlay[0][cell].classList.add("picked");
        for (const [n, cell] of candidates()) overlay[n][cell].classList.add("candidate");
      }

      // the cells a click may choose now
      function candidates() {
        const out = new Map();
        for (const a of mode.actions) {
          const d = decode(a);
          if (d.kind === "cell") { out.set(`${d.nest}:${d.cells[0]}`, [d.nest, d.cells[0]]); continue; }
          if (picked.length === 0) d.cells.forEach((c) => out.set(`0:${c}`, [0, c]));
          else if (picked.length === 1 && d.cells.includes(picked[0])) {
            const other = d.cells.find((c) => c !== picked[0]);
            out.set(`0:${other}`, [0, other]);
          }
        }
        return out.values();
      }

      function clicked(n, cell) {
        if (!mode || ctx.busy()) return;
        if (mode.kind === "cell") {
          const fits = mode.actions.filter((a) => { const d = decode(a); return d.nest === n && d.cells[0] === cell; });
          if (fits.length === 1) ctx.move(fits[0]);
          else if (fits.length > 1) render(fits, `${cellName(cell)}: which one?`);
          return;
        }
        if (picked.includes(cell)) picked = picked.filter((c) => c !== cell);  // a second click undoes
        else if (picked.length === 1 && [...candidates()].some(([, c]) => c === cell)) picked.push(cell);
        else picked = [cell];
        const fits = picked.length === 2 ? mode.actions.filter((a) => {
          const d = decode(a).cells;
          return d.includes(picked[0]) && d.includes(picked[1]);
        }) : [];
        if (fits.length === 1) { ctx.move(fits[0]); return; }
        render(fits);
      }

      // the menu while the nest answers the decision
      function render(choices, question) {
        const box = ctx.menuBox;
        box.replaceChildren();
        const title = document.createElement("div");
        title.className = "title";
        title.textContent = mode.title;
        const hint = document.createElement("p");
        hint.className = "hint";
        box.append(title, hint);
        if (choices && choices.length) {
          hint.textContent = question || "Which way round? Each line says the cell (row,column) " +
            "each half of the tile goes to.";
          for (const a of choices) {
            const b = ctx.moveButton(a, labels.get(a));
            b.addEventListener("mouseenter", () => preview(a));
            b.addEventListener("focus", () => preview(a));
            box.append(b);
          }
          box.append(button("← other cells", () => { picked = []; render(); }));
        } else if (mode.kind === "cell") {
          hint.textContent = "Click a marked cell on the picture (row,column), or choose below.";
        } else if (picked.length === 1) {
          hint.textContent = `Now click the cell next to ${cellName(picked[0])} for the tile's ` +
            "other half (marked), or click it again to start over.";
        } else {
          hint.textContent = "Click two marked cells of your nest, next to each other, for the " +
            "tile's two halves (rows 0-3 from the bird, columns 0-5); then choose which way round.";
        }
        if (mode.back) box.append(button("← back", mode.back));
        const list = document.createElement("details");
        const summary = document.createElement("summary");
        summary.textContent = `or choose from the list (${mode.actions.length})`;
        list.append(summary, ...mode.actions.map((a) => ctx.moveButton(a, labels.get(a))));
        if (!choices || !choices.length) box.append(list);
        mark();
      }

      // the halves' codes of a placement on the cells it names (read from its menu line)
      function preview(action) {
        for (const half of ctx.svg.querySelectorAll(".half")) half.remove();
        for (const m of (labels.get(action) || "").matchAll(/(\S+) at \((\d),(\d)\)/g)) {
          const c = cells[0][COLS * Number(m[2]) + Number(m[3])];
          const t = svgElement("text", { x: c.x + CELL / 2, y: c.y + CELL - 5, class: "half", "text-anchor": "middle" });
          t.textContent = m[1];
          ctx.svg.append(t);
        }
      }

      function button(text, onClick) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "back";
        b.textContent = text;
        b.addEventListener("click", onClick);
        return b;
      }

      function start(kind, actions, title, back) {
        mode = { kind, actions, title, back };
        picked = [];
        render();
      }

      return {
        hint: "",
        // groupKey: a hand tile chosen (menu or picture); null: the decision's first menu
        menu(groupKey) {
          mode = null;
          picked = [];
          this.hint = "";
          mark();
          if (!menu) return false;
          if (groupKey !== null) {
            const group = menu.groups.find((g) => g[0] === groupKey);
            if (!group || !group[2].every((a) => decode(a) && decode(a).kind === "place")) return false;
            start("place", group[2], `place ${group[1]}`, () => ctx.showMenu(null));
            return true;
          }
          const flat = menu.labels.map(([a]) => a);
          if (menu.groups.length === 0 && flat.length && flat.every((a) => decode(a) && decode(a).kind === "place")) {
            const tile = (labels.get(flat[0]) || "").split(":")[0];  // "cover with T30"
            start("place", flat, `${tile || "cover"}: two cells of your nest`, null);
            return true;
          }
          if (menu.groups.some((g) => g[2].every((a) => decode(a) && decode(a).kind === "place"))) {
            this.hint = "Choose a tile (here or in your hand on the picture), then click the " +
              "two cells of your nest it should cover.";
          }
          const targets = flat.filter((a) => decode(a) && decode(a).kind === "cell");
          if (targets.length) {  // the usual list, and the cells on the picture too
            this.hint = "Click a marked cell on the picture (row,column), or choose below.";
            mode = { kind: "cell", actions: targets, title: "your legal moves", back: () => ctx.showMenu(null) };
            mark();
          }
          return false;
        },
      };
    },
  };

  return { bower };
})();
