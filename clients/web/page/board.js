// The board of any game and 2-4 seats, drawn into one element.
//
// Sowing goes counter-clockwise around the table (docs/rules.md 1.2). The
// viewer's side is at the bottom, its pits left to right and its store on
// the right; the next seats follow counter-clockwise: with two seats the
// top row (pits right to left, store on the left); with three the right
// and left sides; with four the right, top and left sides. A spectator
// sees seat 0 at the bottom.

const POSITIONS = {
  2: ["bottom", "top"],
  3: ["bottom", "right", "left"],
  4: ["bottom", "right", "top", "left"],
};

const MAX_DOTS = 12; // Beyond this a pit shows its number alone.

function seeds(n) {
  const dots = document.createElement("span");
  dots.className = "dots";
  dots.setAttribute("aria-hidden", "true");
  for (let i = 0; i < Math.min(n, MAX_DOTS); i++) {
    dots.appendChild(document.createElement("i"));
  }
  const count = document.createElement("span");
  count.className = "count";
  count.textContent = String(n);
  return [dots, count];
}

/**
 * Draws `board` into `el`.
 * @param {HTMLElement} el
 * @param {object} view
 * @param {{ sides: { pits: number[], store: number }[] }} view.board
 * @param {string[]} view.names  each seat's label
 * @param {number} view.me  the viewer's seat, -1 for a spectator
 * @param {number} view.toMove  the seat to move, -1 when over
 * @param {number[]} view.legal  pits the viewer may choose now (empty
 *   unless it is their turn)
 * @param {{ seat: number, pit: number } | undefined} view.highlight
 * @param {(pit: number) => void} view.onPit
 */
export function drawBoard(el, view) {
  const seats = view.board.sides.length;
  const bottom = view.me >= 0 ? view.me : 0;
  const positions = POSITIONS[seats] ?? POSITIONS[2];
  el.className = `board seats-${seats}`;
  el.replaceChildren();
  for (let k = 0; k < seats; k++) {
    const seat = (bottom + k) % seats;
    const side = view.board.sides[seat];
    const mine = seat === view.me;
    const box = document.createElement("section");
    box.className = `side pos-${positions[k]}` + (seat === view.toMove ? " to-move" : "");
    box.dataset.seat = String(seat);
    box.setAttribute("aria-label", `${view.names[seat]}'s side`);
    const label = document.createElement("h3");
    label.className = "side-label";
    label.textContent = view.names[seat] + (seat === view.toMove ? " (to move)" : "");
    const row = document.createElement("div");
    row.className = "pits";
    side.pits.forEach((n, pit) => {
      const legal = mine && view.legal.includes(pit);
      const p = document.createElement(legal ? "button" : "div");
      p.className = "pit" + (legal ? " legal" : "");
      p.dataset.seat = String(seat);
      p.dataset.pit = String(pit);
      const where = mine ? `your pit ${pit + 1}` : `${view.names[seat]}'s pit ${pit + 1}`;
      p.setAttribute("aria-label", `${where}: ${n} seed${n === 1 ? "" : "s"}`);
      if (!legal) p.setAttribute("role", "img");
      if (legal) {
        p.title = `Sow pit ${pit + 1} (key ${pit + 1})`;
        p.addEventListener("click", () => view.onPit(pit));
      }
      const h = view.highlight;
      if (h && h.seat === seat && h.pit === pit) p.classList.add("hot");
      const number = document.createElement("span");
      number.className = "pit-number";
      number.textContent = String(pit + 1);
      number.setAttribute("aria-hidden", "true");
      p.append(...seeds(n), number);
      row.appendChild(p);
    });
    const store = document.createElement("div");
    store.className = "store";
    store.dataset.seat = String(seat);
    store.setAttribute("role", "img");
    store.setAttribute(
      "aria-label",
      `${mine ? "your" : `${view.names[seat]}'s`} store: ${side.store} seed${side.store === 1 ? "" : "s"}`,
    );
    const h = view.highlight;
    if (h && h.seat === seat && h.pit === -1) store.classList.add("hot");
    store.append(...seeds(side.store));
    row.appendChild(store);
    box.append(label, row);
    el.appendChild(box);
  }
}
