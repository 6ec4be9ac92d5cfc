// The board page (clients/web/page, served by mancalad --web-root) in a
// real browser: Debian's Chromium driven by puppeteer-core, which drives
// /usr/bin/chromium and downloads nothing. Each browser context is a
// device of its own (its own localStorage, so its own guest player).
//
// ctest runs it through run_node_suite.py, which starts mancalad with the
// page and sets MANCALA_WEB_URL (the page's origin); MANCALA_SCREENSHOT_DIR
// gets a screenshot per test. Every position the page shows is checked
// against GetMatch, read over connect-node beside the browser. On two
// PostgreSQL nodes MANCALA_WEB_WATCH_URL is node B's port: the second
// player (and the spectator) load the page from node B, the first from A.

import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import {
  createServiceClients,
  Match_State,
} from "../../../clients/web/src/client.js";
import { createNodeTransport } from "../../../clients/web/src/node_transports.js";

// puppeteer-core from clients/web's node_modules (a devDependency there):
// this file lives outside that package.
const puppeteer = createRequire(
  new URL("../../../clients/web/package.json", import.meta.url),
)("puppeteer-core");

const BASE_URL = process.env.MANCALA_WEB_URL ?? "";
const OTHER_URL = process.env.MANCALA_WEB_WATCH_URL || BASE_URL;
const SHOTS = process.env.MANCALA_SCREENSHOT_DIR ?? "";
const CHROMIUM = process.env.MANCALA_CHROMIUM ?? "/usr/bin/chromium";
// As root Chromium needs --no-sandbox; the rest keeps it off the network
// (this machine has none) and quiet.
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];
const api = createServiceClients(createNodeTransport(BASE_URL, "connect-binary"));
const CALL = { timeoutMs: 10_000 };

let browser;
before(async () => {
  assert.ok(BASE_URL, "MANCALA_WEB_URL is not set");
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
  });
});
after(async () => {
  await browser?.close();
});

/** A new device: a fresh context's page, loaded, with its guest made. */
async function device(url = "/", base = BASE_URL) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1000, height: 900 });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // Moves shown at 2 ms a seed: the same steps, quicker.
  await page.evaluateOnNewDocument(() => localStorage.setItem("mancala.step-ms", "2"));
  await page.goto(base + url);
  await page.waitForSelector("body[data-player]", { timeout: 10_000 });
  page.errors = errors;
  return page;
}

async function shot(page, name) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** The match the page shows ("matches/N"), from its URL. */
function matchOf(page) {
  const id = new URL(page.url()).searchParams.get("match");
  assert.ok(id, `no match in ${page.url()}`);
  return `matches/${id}`;
}

/**
 * The board as the page draws it, read at one moment: { ply, busy, state
 * (Match_State's name), sides: [{pits, store}] by seat, legal: the pits it
 * offers (buttons) }.
 */
function drawn(page) {
  return page.$eval("#board", (el) => {
    const sides = [...el.querySelectorAll(".side")].map((s) => ({
      seat: Number(s.dataset.seat),
      pits: [...s.querySelectorAll(".pit")]
        .sort((a, b) => a.dataset.pit - b.dataset.pit)
        .map((p) => Number(p.querySelector(".count").textContent)),
      store: Number(s.querySelector(".store .count").textContent),
    }));
    sides.sort((a, b) => a.seat - b.seat);
    return {
      ply: el.dataset.ply,
      busy: el.dataset.busy,
      state: el.dataset.state,
      sides: sides.map(({ pits, store }) => ({ pits, store })),
      legal: [...el.querySelectorAll("button.pit.legal")].map((b) => Number(b.dataset.pit)),
    };
  });
}

const boardOf = (m) => m.board.sides.map((s) => ({ pits: [...s.pits], store: s.store }));

/**
 * Waits until every page shows the match as the server has it now (same
 * ply and state, nothing in flight: at ply 0 a page may not have heard yet
 * that the last seat was taken) and checks each board against GetMatch's.
 * Returns the match and the pages' views (drawn()) that matched it: what a
 * page offers must be read from that same view, since a CPU may move, and
 * the page follow, right after.
 */
async function settled(pages, name, what) {
  const start = Date.now();
  for (;;) {
    const m = await api.matches.getMatch({ name }, CALL);
    const views = await Promise.all(pages.map(drawn));
    const state = Match_State[m.state];
    if (views.every((v) => v.busy === "false" && v.ply === String(m.ply) && v.state === state)) {
      for (const v of views) assert.deepEqual(v.sides, boardOf(m), `${what} at ply ${m.ply}`);
      return { m, views };
    }
    if (Date.now() - start > 15_000) {
      assert.fail(
        `${what}: pages at ${views.map((v) => `${v.ply}/${v.busy}/${v.state}`)}, server at ${m.ply}/${state}`,
      );
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Starts a match from the lobby's form. */
async function newMatch(page, { game, seats = "2", level = "1", against }) {
  await page.select('#new-match select[name="game"]', game);
  await page.select('#new-match select[name="seats"]', seats);
  await page.select('#new-match select[name="level"]', level);
  await page.click(`#new-match button[value="${against}"]`);
  await page.waitForSelector("#play:not([hidden]) #board .side", { timeout: 10_000 });
}

/**
 * Plays `players` (pages, each on its own seat) to the end, the lowest
 * legal pit each turn (by key on the first page, by click on the others),
 * checking every page against GetMatch whenever the match waits for one.
 * A turn of a seat no page holds (a CPU's) is waited out.
 */
async function playOut(players, watchers, name, onTurn = async () => {}) {
  const everyone = [...players, ...watchers];
  const who = await Promise.all(players.map((p) => p.$eval("body", (b) => b.dataset.player)));
  const deadline = Date.now() + 180_000;
  for (let turns = 0; ; ) {
    assert.ok(Date.now() < deadline, "the match did not end");
    const { m, views } = await settled(everyone, name, "board");
    if (m.state !== Match_State.IN_PROGRESS) return m;
    const mover = who.indexOf(m.seats[m.toMove].player);
    const moves = views.slice(0, players.length).map((v) => v.legal);
    // Only the page whose seat is to move offers pits, and those the
    // server allows.
    moves.forEach((pits, i) =>
      assert.deepEqual(pits, i === mover ? [...m.legalPits] : [], `page ${i}'s pits at ply ${m.ply}`),
    );
    if (mover < 0) {
      await new Promise((r) => setTimeout(r, 20)); // The CPU's turn.
      continue;
    }
    await onTurn(turns++);
    const pit = moves[mover][0];
    if (mover === 0) await players[0].keyboard.press(String(pit + 1));
    else await players[mover].click(`#board button.pit[data-pit="${pit}"]`);
    await waitPly(players[mover], m.ply);
  }
}

/** Waits until the page has moved past `ply`. */
async function waitPly(page, ply) {
  await page.waitForFunction(
    (p) => BigInt(document.getElementById("board").dataset.ply) > BigInt(p),
    { timeout: 15_000 },
    String(ply),
  );
}

/**
 * A opens a Kalah match for friends; B opens its invite link on node B
 * (the link names A's origin: B takes its path and query). Both pages show
 * the match.
 */
async function friendsMatch() {
  const a = await device();
  await newMatch(a, { game: "KALAH", against: "friends" });
  const link = new URL(await a.$eval("#invite-link", (el) => el.href));
  assert.match(link.search, /^\?join=[2-9A-Z]{8}$/);
  const b = await device(link.pathname + link.search, OTHER_URL);
  await b.waitForSelector("#play:not([hidden]) #board .side");
  assert.equal(matchOf(b), matchOf(a));
  return { a, b, name: matchOf(a) };
}

/** The result list as shown: "1st: ..." lines, in rank order. */
const shownResult = (page) =>
  page.$$eval("#result li[data-rank]", (lis) => lis.map((li) => Number(li.dataset.rank)));

describe("the board page in Chromium", () => {
  it("a whole Kalah game against the CPU, the board after every move as GetMatch's", async () => {
    const page = await device();
    await newMatch(page, { game: "KALAH", against: "cpu" });
    const name = matchOf(page);
    await shot(page, "kalah-start");
    const end = await playOut([page], [], name, async (turn) => {
      if (turn === 4) await shot(page, "kalah-in-progress");
    });
    assert.equal(Match_State[end.state], "FINISHED");
    await page.waitForSelector("#result:not([hidden])");
    const ranks = await shownResult(page);
    assert.deepEqual(ranks, [...end.result.ranks].sort());
    await shot(page, "kalah-end");
    assert.deepEqual(page.errors, []);
    await page.browserContext().close();
  });

  it("friends: A invites, B joins by the link, C watches; every page shows the same plies", async () => {
    const { a, b, name } = await friendsMatch();
    const c = await device(`/?match=${name.split("/")[1]}`, OTHER_URL);
    await c.waitForSelector("#play:not([hidden]) #board .side");
    // B sees its own side at the bottom: seat 1 first in its drawing.
    assert.equal(await b.$eval("#board .side", (s) => s.dataset.seat), "1");
    assert.equal(await c.$eval("#board .side", (s) => s.dataset.seat), "0");
    const end = await playOut([a, b], [c], name);
    assert.equal(Match_State[end.state], "FINISHED");
    for (const p of [a, b, c]) {
      await p.waitForSelector("#result:not([hidden])");
      assert.deepEqual(p.errors, []);
    }
    await shot(c, "friends-watched");
    for (const p of [a, b, c]) await p.browserContext().close();
  });

  it("Mancala Basic with 3 seats (two CPUs) to the end, ranks shown", async () => {
    const page = await device();
    await newMatch(page, { game: "MANCALA_BASIC", seats: "3", against: "cpu" });
    const name = matchOf(page);
    assert.equal((await drawn(page)).sides.length, 3);
    await shot(page, "basic3-start");
    const end = await playOut([page], [], name);
    assert.equal(Match_State[end.state], "FINISHED");
    await page.waitForSelector("#result:not([hidden])");
    const ranks = await shownResult(page);
    assert.equal(ranks.length, 3);
    assert.deepEqual(ranks, [...end.result.ranks].sort());
    await shot(page, "basic3-end");
    await page.browserContext().close();
  });

  it("Mancala Basic with 4 seats: four sides around the table, yours at the bottom; a resignation ranks you last", async () => {
    const page = await device();
    await newMatch(page, { game: "MANCALA_BASIC", seats: "4", against: "cpu" });
    const name = matchOf(page);
    const { m } = await settled([page], name, "4 seats");
    assert.equal(m.seats.length, 4);
    const sides = await page.$$eval("#board .side", (els) =>
      els.map((e) => `${e.dataset.seat}:${e.className.match(/pos-(\w+)/)[1]}`),
    );
    assert.deepEqual(sides, ["0:bottom", "1:right", "2:top", "3:left"]);
    await shot(page, "basic4");
    page.on("dialog", (d) => d.accept());
    await page.click("#resign");
    // MB.13: the resigner gets the worst rank not given yet (4th); the
    // three CPUs play on.
    for (let t = Date.now(); ; ) {
      const m2 = await api.matches.getMatch({ name }, CALL);
      if (m2.result?.ranks[0] === 4) break;
      assert.ok(Date.now() - t < 10_000, "the resignation was not recorded");
      await new Promise((r) => setTimeout(r, 20));
    }
    const { m: after } = await settled([page], name, "after the resignation");
    assert.equal(after.result.ranks[0], 4);
    assert.equal(await page.$eval("#resign", (b) => b.hidden), true);
    await page.browserContext().close();
  });

  it("a reload mid-match keeps the seat; a closed tab past the grace period gets the CPU stand-in", async () => {
    const { a, b, name } = await friendsMatch();
    let { m, views } = await settled([a, b], name, "before the reload");
    // A moves, then reloads: the same player (its token in localStorage),
    // the same seat, resumed at the match's ply.
    assert.deepEqual(views[0].legal, [...m.legalPits]);
    await a.click(`#board button.pit[data-pit="${m.legalPits[0]}"]`);
    await waitPly(a, m.ply);
    const player = await a.$eval("body", (el) => el.dataset.player);
    await a.reload();
    await a.waitForSelector("#play:not([hidden]) #board .side");
    assert.equal(await a.$eval("body", (el) => el.dataset.player), player);
    ({ m } = await settled([a, b], name, "after the reload"));
    assert.equal(await a.$eval("#board .side", (s) => s.dataset.seat), "0");
    // B's tab closes; past the grace period the CPU stands in for B, and
    // A's page says so.
    await b.close();
    await a.waitForFunction(
      () => document.getElementById("board").textContent.includes("CPU standing in"),
      { timeout: 20_000 },
    );
    await shot(a, "stand-in");
    assert.deepEqual(a.errors, []);
    await a.browserContext().close();
    await b.browserContext().close();
  });

  it("the ranked queue: two devices searching Kalah are paired; the counts shown are GetQueueStats'", async () => {
    const a = await device();
    await a.select('#new-match select[name="game"]', "KALAH");
    await a.click('#new-match button[value="ranked"]');
    await a.waitForFunction(
      () => /1 in this queue/.test(document.getElementById("search-state").textContent),
      { timeout: 10_000 },
    );
    // The header's counts (refreshed every 5 s) as the server counts: the
    // players of the tests before leave the online count once their grace
    // period (1 s here) is over, so the two are compared until they agree.
    const stats = await api.matchmaking.getQueueStats({}, CALL);
    assert.equal(stats.searching, 1);
    assert.ok(stats.online >= 1, `${stats.online} online: A searches`);
    let shown, counted;
    for (const end = Date.now() + 15_000; Date.now() < end; ) {
      const s = await api.matchmaking.getQueueStats({}, CALL);
      counted = `${s.online} online · ${s.searching} searching`;
      shown = await a.$eval("#counts", (el) => el.textContent);
      if (shown === counted) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(shown, counted);
    await shot(a, "queue");
    const b = await device("/", OTHER_URL);
    await b.select('#new-match select[name="game"]', "KALAH");
    await b.click('#new-match button[value="ranked"]');
    for (const p of [a, b]) await p.waitForSelector("#play:not([hidden]) #board .side");
    assert.equal(matchOf(a), matchOf(b));
    const m = await api.matches.getMatch({ name: matchOf(a) }, CALL);
    assert.equal(m.ranked, true);
    assert.equal((await api.matchmaking.getQueueStats({}, CALL)).searching, 0);
    for (const p of [a, b]) await p.browserContext().close();
  });
});
