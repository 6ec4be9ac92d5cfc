// The board page (index.html): a guest plays the CPU, invites friends,
// joins, watches, searches a ranked match, sees the leaderboard. Every call
// goes through clients/web's client (Connect JSON to the page's own
// origin, mancalad --web-root beside --web-listen).
//
// The guest's token stays in localStorage, so a reload or a second tab on
// the same device is the same player: opening the match again (its URL
// keeps ?match=ID) reclaims the seat, and the watch resumes from the ply
// the page last showed (WatchMatchRequest.after_ply).

import {
  Code,
  ConnectError,
  EndReason,
  Game,
  Match_State,
  Move_CpuReason,
  MoveEvent_Type,
  Seat_Kind,
  createMancalaClients,
  errorInfo,
  serverStream,
} from "../src/client.js";
import { drawBoard } from "./board.js";
import { copyBoard, sowSteps } from "./sow.js";

const TOKEN_KEY = "mancala.token";
// One seed's drop, while a move is shown; localStorage "mancala.step-ms"
// sets another (the browser tests show moves at 2 ms).
const STEP_MS = Number(localStorage.getItem("mancala.step-ms") ?? 90);

// Options per game (docs/rules.md section 2): name -> allowed values, the
// first the default.
const OPTIONS = {
  KALAH: { seeds: ["4", "5", "6"], end_rule: ["mover_empty", "any_side_empty"] },
  OWARE: { seeds: ["4", "5", "6"], grand_slam: ["no_capture", "illegal"] },
  CONGKAK: {
    houses: ["7", "5", "9"],
    seeds: ["7", "5", "9"],
    end_rule: ["mover_empty", "any_side_empty"],
    capture_requires_lap: ["off", "on"],
  },
  MANCALA_BASIC: { stones: ["4", "3"], determine_all_ranks: ["on", "off"] },
};

let token = localStorage.getItem(TOKEN_KEY) ?? undefined;
const api = createMancalaClients(location.origin, "connect-json", {
  token: () => token,
});
let me; // mancala.v1.Player
const $ = (id) => document.getElementById(id);

// Errors ---------------------------------------------------------------------

function showError(e) {
  const err = ConnectError.from(e);
  const reason = errorInfo(err)?.reason;
  $("error").textContent = err.rawMessage + (reason ? ` (${reason})` : "");
  $("error").hidden = false;
}
function clearError() {
  $("error").hidden = true;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The player -----------------------------------------------------------------

async function ensurePlayer() {
  if (token) {
    try {
      me = await api.players.getPlayer({ name: "players/me" });
      return;
    } catch (e) {
      if (errorInfo(e)?.reason !== "UNKNOWN_TOKEN") throw e;
    }
  }
  const created = await api.players.createPlayer({});
  token = created.token;
  localStorage.setItem(TOKEN_KEY, token);
  me = created.player;
}

// The lobby --------------------------------------------------------------------

function drawOptions() {
  const form = $("new-match");
  const game = form.game.value;
  const box = $("options");
  box.replaceChildren(box.firstElementChild);
  for (const [name, values] of Object.entries(OPTIONS[game])) {
    const label = document.createElement("label");
    label.textContent = name.replaceAll("_", " ");
    const select = document.createElement("select");
    select.name = `option:${name}`;
    for (const v of values) select.add(new Option(v, v));
    label.appendChild(select);
    box.appendChild(label);
  }
  const basic = game === "MANCALA_BASIC";
  form.seats.disabled = !basic;
  if (!basic) form.seats.value = "2";
}

function chosenOptions(form) {
  const options = {};
  for (const el of form.elements) {
    if (el.name?.startsWith("option:")) options[el.name.slice(7)] = el.value;
  }
  return options;
}

async function newMatch(against) {
  const form = $("new-match");
  const game = Game[form.game.value];
  const seats = Number(form.seats.value);
  const options = chosenOptions(form);
  const limit = Number(form.limit.value);
  if (against === "ranked") return search({ game, options, players: seats, limit });
  const others = Array.from({ length: seats - 1 }, () =>
    against === "cpu"
      ? { kind: Seat_Kind.CPU, cpuLevel: Number(form.level.value) }
      : { kind: Seat_Kind.OPEN },
  );
  const match = await api.matches.createMatch({
    game,
    options,
    seats: [{ kind: Seat_Kind.PLAYER, player: me.name }, ...others],
    turnTimeLimitSeconds: limit,
    requestId: crypto.randomUUID(),
  });
  openMatch(match.name);
}

let searching; // AbortController of the FindMatch stream.

async function search({ game, options, players, limit }) {
  searching?.abort();
  const ac = new AbortController();
  searching = ac;
  $("search").hidden = false;
  $("search-state").textContent = "Searching…";
  try {
    for await (const u of serverStream(
      api.matchmaking.findMatch,
      { game, options, players, ranked: true, turnTimeLimitSeconds: limit },
      { signal: ac.signal },
    )) {
      if (u.update.case === "waiting") {
        const w = u.update.value;
        $("search-state").textContent =
          `Searching a ranked match: ${w.searching} in this queue, ` +
          `waited ${w.waitedSeconds} s, accepting ratings within ±${Math.round(w.ratingWindow)}`;
      } else if (u.update.case === "found") {
        $("search").hidden = true;
        openMatch(u.update.value.match);
        return;
      }
    }
  } catch (e) {
    if (!ac.signal.aborted) showError(e);
  } finally {
    if (searching === ac) searching = undefined;
    $("search").hidden = true;
  }
}

async function drawLeaders() {
  const game = Game[$("leaders-game").value];
  const { ratings } = await api.ratings.listLeaderboard({ game, pageSize: 10 });
  const list = $("leaders");
  list.replaceChildren();
  for (const r of ratings) {
    const li = document.createElement("li");
    li.textContent = `${r.displayName || r.player} ${Math.round(r.rating)} (RD ${Math.round(r.ratingDeviation)})`;
    list.appendChild(li);
  }
  $("leaders-none").hidden = ratings.length > 0;
}

async function drawCounts() {
  try {
    const stats = await api.matchmaking.getQueueStats({});
    $("counts").textContent = `${stats.online} online · ${stats.searching} searching`;
  } catch {
    // The next tick tries again; a count is not worth an error box.
  }
}

// A match --------------------------------------------------------------------

/** What the page shows of the open match. */
const view = {
  name: "",
  match: undefined, // mancala.v1.Match as last known
  board: undefined, // the board as drawn (moves in flight applied)
  ply: 0n, // the ply the drawn board is at
  highlight: undefined,
  busy: false, // a move is being shown
  shown: Promise.resolve(), // the moves being shown, in order
  waiting: 0, // moves received and not shown yet
  epoch: 0, // counts openMatch calls: work queued for a match left is dropped
  watch: undefined, // AbortController of the WatchMatch stream
  moving: false, // our SubmitMove is on its way
};

function mySeat(match) {
  return match?.seats.findIndex((s) => s.kind === Seat_Kind.PLAYER && s.player === me.name) ?? -1;
}

function seatName(match, i) {
  const s = match.seats[i];
  if (s.kind === Seat_Kind.OPEN) return "(open seat)";
  let name = s.displayName || (s.kind === Seat_Kind.CPU ? `CPU ${s.cpuLevel}` : s.player);
  if (i === mySeat(match)) name = `You (${name})`;
  if (s.cpuStandingIn) name += " · CPU standing in";
  else if (s.kind === Seat_Kind.PLAYER && !s.present) name += " · away";
  return name;
}

const ordinal = (n) => ["", "1st", "2nd", "3rd", "4th"][n] ?? `${n}th`;

function draw() {
  const m = view.match;
  if (!m) return;
  const seat = mySeat(m);
  const live = m.state === Match_State.IN_PROGRESS;
  const myTurn = live && !view.busy && !view.moving && m.toMove === seat && view.ply === m.ply;
  $("match-title").textContent =
    `${gameName(m.game)} · match ${m.name.split("/")[1].slice(0, 8)}` + (m.ranked ? " · ranked" : "");
  const board = $("board");
  // What the board shows, for tests and tools: its ply, whether it is
  // still catching up, and the match's state as the page last heard it.
  board.dataset.ply = String(view.ply);
  board.dataset.busy = String(view.busy || view.moving || view.ply !== m.ply);
  board.dataset.state = Match_State[m.state];
  drawBoard(board, {
    board: view.board,
    names: m.seats.map((_, i) => seatName(m, i)),
    me: seat,
    toMove: live ? m.toMove : -1,
    legal: myTurn ? m.legalPits : [],
    highlight: view.highlight,
    onPit: play,
  });
  let status;
  if (m.state === Match_State.WAITING) status = "Waiting for players to join.";
  else if (m.state === Match_State.CANCELLED) status = "Cancelled.";
  else if (!live) {
    const why = EndReason[m.result?.endReason ?? 0];
    status = "The match is over" + (m.result?.endReason ? ` (${why.toLowerCase().replaceAll("_", " ")})` : "") + ".";
  }
  else if (m.toMove === seat) status = "Your turn: choose a pit.";
  else status = `${seatName(m, m.toMove)} to move.`;
  $("status").textContent = status;
  const invite = $("invite");
  invite.hidden = !m.inviteCode;
  if (m.inviteCode) {
    const link = `${location.origin}/?join=${m.inviteCode}`;
    invite.innerHTML = "";
    invite.append(`Invite code ${m.inviteCode} · link: `);
    const a = document.createElement("a");
    a.href = link;
    a.textContent = link;
    a.id = "invite-link";
    invite.appendChild(a);
  }
  const result = $("result");
  result.hidden = !m.result || m.state === Match_State.WAITING || live;
  if (!result.hidden) {
    result.replaceChildren();
    const order = m.seats.map((_, i) => i).sort((a, b) => m.result.ranks[a] - m.result.ranks[b]);
    for (const i of order) {
      const li = document.createElement("li");
      li.dataset.rank = String(m.result.ranks[i]);
      li.textContent = `${ordinal(m.result.ranks[i])}: ${seatName(m, i)}, ${m.result.scores[i] ?? 0} in store`;
      result.appendChild(li);
    }
  }
  // A seat ranked already (Mancala Basic: it finished or resigned) has
  // nothing left to resign.
  $("resign").hidden = !(live && seat >= 0 && !(m.result?.ranks[seat] > 0));
  $("rematch").hidden = !(m.state === Match_State.FINISHED && seat >= 0);
  $("rematch").textContent = m.rematch ? "Go to the rematch" : "Rematch";
  drawClock();
}

function drawClock() {
  const m = view.match;
  const d = m?.turnDeadline;
  if (!m || m.state !== Match_State.IN_PROGRESS || !d) {
    $("clock").textContent = "";
    return;
  }
  const ms = Number(d.seconds) * 1000 + d.nanos / 1e6 - Date.now();
  $("clock").textContent = `${Math.max(0, Math.ceil(ms / 1000))} s left for this turn`;
}
setInterval(drawClock, 250);

function gameName(g) {
  return { [Game.KALAH]: "Kalah", [Game.OWARE]: "Oware", [Game.CONGKAK]: "Congkak",
           [Game.MANCALA_BASIC]: "Mancala Basic" }[g] ?? "?";
}

/**
 * Shows a move's events seed by seed, then the match after it. A page that
 * fell behind (a slow device, CPUs playing fast) shows the moves it has
 * queued at once, animating only the last, so it never lags the match for good.
 */
async function showMove(move, epoch) {
  view.busy = true;
  view.waiting -= 1;
  const hurry = view.waiting > 0;
  const mover = seatName(view.match, move.seat);
  const why = {
    [Move_CpuReason.STAND_IN]: " (the CPU, standing in)",
    [Move_CpuReason.TURN_TIMEOUT]: " (the CPU: time ran out)",
  }[move.cpuReason] ?? "";
  const said = move.pit < 0 ? `${mover} resigned` : `${mover} sowed pit ${move.pit + 1}${why}`;
  const notes = [];
  for (const s of sowSteps(view.board, move.events, MoveEvent_Type)) {
    view.board = s.board;
    view.highlight = s.place;
    if (s.text) notes.push(s.text);
    $("last").textContent = said + (notes.length ? `: ${notes.join(", ")}` : "") + ".";
    if (hurry) continue;
    draw();
    if (s.kind === "drop" || s.kind === "capture" || s.kind === "sweep") {
      await sleep(STEP_MS);
      if (epoch !== view.epoch) return;
    }
  }
  view.ply = move.ply;
  view.highlight = undefined;
  // The position after the move (whose turn, which pits) is the server's:
  // kept only if no later move is in it yet, so asked only after the last.
  if (!hurry) {
    try {
      const m = await api.matches.getMatch({ name: view.name });
      if (epoch !== view.epoch) return;
      if (m.ply === move.ply) {
        view.match = m;
        view.board = copyBoard(m.board);
      }
    } catch (e) {
      showError(e);
    }
  }
  view.busy = false;
  draw();
}

/** Runs fn after what is being shown, unless the page leaves the match first. */
function then(fn) {
  const epoch = view.epoch;
  view.shown = view.shown.then(() => (epoch === view.epoch ? fn(epoch) : undefined));
}

function onEvent(ev) {
  const { case: what, value } = ev.event;
  switch (what) {
    case "match":
    case "finished":
      then(() => {
        view.match = value;
        view.board = copyBoard(value.board);
        view.ply = value.ply;
        draw();
      });
      break;
    case "move":
      view.waiting += 1;
      then((epoch) => showMove(value, epoch));
      break;
    case "presence":
      then(() => {
        const s = view.match.seats[value.seat];
        s.present = value.present;
        s.cpuStandingIn = value.cpuStandingIn;
        draw();
      });
      break;
    case "deadline":
      view.match.turnDeadline = value.deadline;
      drawClock();
      break;
  }
}

/** Watches `name` until it ends or the page leaves it; resumes after a drop. */
async function watch(name) {
  view.watch?.abort();
  const ac = new AbortController();
  view.watch = ac;
  for (;;) {
    try {
      for await (const ev of serverStream(
        api.matches.watchMatch,
        { name, afterPly: view.name === name ? view.ply : 0n },
        { signal: ac.signal },
      )) {
        onEvent(ev);
      }
      return;
    } catch (e) {
      if (ac.signal.aborted) return;
      const code = ConnectError.from(e).code;
      if (code === Code.NotFound || code === Code.InvalidArgument) {
        showError(e);
        return;
      }
      await sleep(1000); // The connection dropped: watch again from our ply.
    }
  }
}

function openMatch(name, push = true) {
  clearError();
  if (push) history.pushState({}, "", `/?match=${name.split("/")[1]}`);
  view.name = name;
  view.match = undefined;
  view.ply = 0n;
  view.epoch += 1;
  view.shown = Promise.resolve();
  view.waiting = 0;
  view.busy = false;
  $("lobby").hidden = true;
  $("play").hidden = false;
  $("last").textContent = "";
  watch(name);
}

function openLobby(push = true) {
  view.watch?.abort();
  view.epoch += 1;
  view.name = "";
  if (push) history.pushState({}, "", "/");
  $("play").hidden = true;
  $("lobby").hidden = false;
  drawLeaders().catch(showError);
}

async function play(pit) {
  const m = view.match;
  if (view.moving) return;
  view.moving = true;
  draw();
  try {
    await api.matches.submitMove({
      name: m.name,
      pit,
      expectedPly: m.ply,
      requestId: crypto.randomUUID(),
    });
    clearError();
  } catch (e) {
    showError(e);
  } finally {
    view.moving = false;
    draw();
  }
}

// Wiring -----------------------------------------------------------------------

function wire() {
  const form = $("new-match");
  for (const o of form.game.options) $("leaders-game").add(new Option(o.text, o.value));
  form.game.addEventListener("change", drawOptions);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    clearError();
    newMatch(e.submitter?.value ?? "cpu").catch(showError);
  });
  $("search-cancel").addEventListener("click", () => searching?.abort());
  $("join").addEventListener("submit", (e) => {
    e.preventDefault();
    clearError();
    api.matches
      .joinMatch({ inviteCode: e.target.code.value })
      .then((m) => openMatch(m.name))
      .catch(showError);
  });
  $("watch").addEventListener("submit", (e) => {
    e.preventDefault();
    const n = e.target.match.value.trim().replace(/^matches\//, "");
    openMatch(`matches/${n}`);
  });
  $("leaders-game").addEventListener("change", () => drawLeaders().catch(showError));
  $("leave").addEventListener("click", () => openLobby());
  $("resign").addEventListener("click", () => {
    if (!confirm("Resign this match?")) return;
    api.matches.resign({ name: view.name }).catch(showError);
  });
  $("rematch").addEventListener("click", () => {
    const m = view.match;
    (m.rematch ? Promise.resolve({ name: m.rematch }) : api.matches.rematch({ name: m.name }))
      .then((r) => openMatch(r.name))
      .catch(showError);
  });
  // Keys 1-9: your pit of that number, when it is yours to sow.
  document.addEventListener("keydown", (e) => {
    if ($("play").hidden || e.target.closest?.("input, select, textarea")) return;
    const n = Number(e.key);
    if (!Number.isInteger(n) || n < 1) return;
    const button = document.querySelector(`#board button.pit[data-pit="${n - 1}"]`);
    button?.click();
  });
  window.addEventListener("popstate", () => route(false));
}

async function route(push) {
  const params = new URLSearchParams(location.search);
  if (params.get("join")) {
    try {
      const m = await api.matches.joinMatch({ inviteCode: params.get("join") });
      openMatch(m.name, push);
      history.replaceState({}, "", `/?match=${m.name.split("/")[1]}`);
    } catch (e) {
      // A second visit of the same link (our seat is taken already):
      // the match is still ours to open.
      openLobby(false);
      showError(e);
    }
  } else if (params.get("match")) {
    openMatch(`matches/${params.get("match")}`, push);
  } else {
    openLobby(push);
  }
}

async function main() {
  wire();
  drawOptions();
  try {
    await ensurePlayer();
  } catch (e) {
    showError(e);
    return;
  }
  $("who").textContent = `Playing as ${me.displayName || me.name}`;
  document.body.dataset.player = me.name;
  drawCounts();
  setInterval(drawCounts, 5000);
  await route(false);
}

main();
