// mancalad's browser port (Connect and gRPC-Web) through the clients a web
// page uses: connect-web's transports (over Node's global fetch, as in a
// browser) and connect-node's (node:http), each in three kinds: Connect
// JSON, Connect binary and gRPC-Web.
//
// ctest runs it through run_node_suite.py, which starts mancalad (one
// node on SQLite, or two on PostgreSQL) and sets:
//   MANCALA_WEB_URL        http://127.0.0.1:PORT, the web port calls go to
//   MANCALA_WEB_WATCH_URL  the web port WatchMatch goes to (node B of two:
//                          every move played through A must reach it);
//                          MANCALA_WEB_URL when not set
// Without MANCALA_WEB_URL the suite fails: a suite that skips its server
// tests proves nothing.
//
// Each (library, kind): a guest player plays Kalah against the CPU to the
// end while watching the match, errors are checked for their code and
// their google.rpc.ErrorInfo reason (docs/api.md "Errors"), a stream the
// server ends with an error after its messages, a deadline, a search that
// an abort (a closed tab) takes out of the queue, a body over the limit.

import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";

import {
  Code,
  ConnectError,
  createServiceClients,
  createTransport,
  errorInfo,
  Game,
  Match_State,
  Seat_Kind,
  serverStream,
  TRANSPORT_KINDS,
} from "../../../clients/web/src/client.js";
import { abortableFetch } from "../../../clients/web/src/node_fetch.js";
import { createNodeTransport } from "../../../clients/web/src/node_transports.js";

const BASE_URL = process.env.MANCALA_WEB_URL ?? "";
const WATCH_URL = process.env.MANCALA_WEB_WATCH_URL || BASE_URL;

// How each library makes a transport: (baseUrl, kind, { token }).
// connect-web's fetch is Node's, wrapped so that an abort always ends the
// body and the connection as in a browser (node_fetch.js says why).
const LIBRARIES = {
  "connect-web": (baseUrl, kind, options) =>
    createTransport(baseUrl, kind, { ...options, fetch: abortableFetch }),
  "connect-node": createNodeTransport,
};

// A garbage collection (node --expose-gc, as run_node_suite.py and npm test
// run the suite): an abort must hold after one, which Node's own fetch
// does not promise (node_fetch.js).
function collectGarbage() {
  assert.equal(typeof globalThis.gc, "function", "run node with --expose-gc");
  globalThis.gc();
}

const CALL = { timeoutMs: 10_000 };

/** Clients whose calls carry the token `tokenRef.token` once it is set. */
function clients(makeTransport, kind, tokenRef = {}, baseUrl = BASE_URL) {
  return createServiceClients(
    makeTransport(baseUrl, kind, { token: () => tokenRef.token }),
  );
}

/** A new guest's clients (its token set) and its player name. */
async function guest(makeTransport, kind) {
  const auth = {};
  const api = clients(makeTransport, kind, auth);
  const created = await api.players.createPlayer({}, CALL);
  auth.token = created.token;
  return { api, auth, me: created.player.name };
}

/** A Kalah match of `me` (seat 0, to move first) against a level-1 CPU. */
function kalahAgainstCpu(api, me) {
  return api.matches.createMatch(
    {
      game: Game.KALAH,
      seats: [
        { kind: Seat_Kind.PLAYER, player: me },
        { kind: Seat_Kind.CPU, cpuLevel: 1 },
      ],
      requestId: randomUUID(),
    },
    CALL,
  );
}

/** Polls `read()` every 10 ms until `done(value)`; the value and the ms it took. */
async function until(read, done, what, limitMs = 5_000) {
  const start = performance.now();
  for (;;) {
    const value = await read();
    if (done(value)) return { value, ms: performance.now() - start };
    if (performance.now() - start > limitMs) {
      assert.fail(`${what} not within ${limitMs} ms: ${JSON.stringify(value)}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Awaits `call()` and expects it to fail with `code` and the mancala.v1
 * ErrorInfo `reason`.
 */
async function expectError(call, code, reason) {
  const err = await call().then(
    (value) => assert.fail(`expected ${Code[code]} ${reason}, got ${JSON.stringify(value)}`),
    (e) => e,
  );
  assert.ok(err instanceof ConnectError, `not a ConnectError: ${err}`);
  assert.equal(
    Code[err.code],
    Code[code],
    `code (message: ${JSON.stringify(err.rawMessage)})`,
  );
  const info = errorInfo(err);
  assert.ok(info, `no ErrorInfo of domain mancala.v1 in ${err.details.length} details`);
  assert.equal(info.reason, reason);
  return { err, info };
}

/** Reads a server stream to its end (or its error). */
async function drain(method, request, options) {
  const out = [];
  for await (const message of serverStream(method, request, options)) out.push(message);
  return out;
}

describe("offline: the clients construct", () => {
  for (const [library, makeTransport] of Object.entries(LIBRARIES)) {
    it(`${library}: every transport kind makes the five clients`, () => {
      for (const kind of TRANSPORT_KINDS) {
        const api = createServiceClients(
          makeTransport("http://127.0.0.1:9", kind, { token: "t" }),
        );
        assert.deepEqual(Object.keys(api).sort(), [
          "admin",
          "matches",
          "matchmaking",
          "players",
          "ratings",
        ]);
        assert.equal(typeof api.players.createPlayer, "function");
        assert.equal(typeof api.matches.watchMatch, "function");
        assert.equal(typeof api.matchmaking.findMatch, "function");
        assert.equal(typeof api.ratings.getRating, "function");
        assert.equal(typeof api.admin.listMatches, "function");
      }
      assert.throws(() => makeTransport("http://127.0.0.1:9", "grpc"), TypeError);
    });
  }

  it("serverStream ends the call when the loop is left, and has a deadline", async () => {
    // A stand-in for a streaming method: two messages, then it waits for
    // its signal.
    let signal;
    async function* method(_request, options) {
      signal = options.signal;
      yield 1;
      yield 2;
      await new Promise((_, reject) =>
        signal.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    }
    for await (const m of serverStream(method, {})) {
      assert.equal(m, 1);
      break;
    }
    assert.equal(signal.aborted, true, "break did not end the call");
    const err = await drain(method, {}, { timeoutMs: 50 }).catch((e) => e);
    assert.ok(err instanceof ConnectError, `${err}`);
    assert.equal(Code[err.code], "DeadlineExceeded");
  });
});

for (const [library, makeTransport] of Object.entries(LIBRARIES)) {
  for (const kind of TRANSPORT_KINDS) {
    describe(`${library} ${kind}`, () => {
      it("a guest plays Kalah against the CPU to the end, watching", { timeout: 120_000 }, async () => {
        const auth = {};
        const api = clients(makeTransport, kind, auth);

        const created = await api.players.createPlayer({}, CALL);
        assert.ok(created.token, "CreatePlayer returned no token");
        assert.equal(created.player?.guest, true);
        auth.token = created.token;
        const me = created.player.name;
        // players/me needs the token: the interceptor sent it.
        assert.equal((await api.players.getPlayer({ name: "players/me" }, CALL)).name, me);

        const mySeat = 0;
        let match = await kalahAgainstCpu(api, me);
        assert.equal(Match_State[match.state], "IN_PROGRESS");

        const myTurn = (m) =>
          m.state === Match_State.IN_PROGRESS && m.toMove === mySeat;
        // The watcher calls WATCH_URL: on two nodes, another node than
        // the one the moves are played through.
        const watcher = clients(makeTransport, kind, auth, WATCH_URL);
        let playedAtPly = -1n;
        let moveEvents = 0;
        const plies = [];
        let finished;
        // The stream starts with the Match, then sends every move (the
        // CPU's and ours), and ends after `finished`.
        for await (const ev of serverStream(
          watcher.matches.watchMatch,
          { name: match.name },
          { timeoutMs: 110_000 },
        )) {
          assert.equal(finished, undefined, `${ev.event.case} after finished`);
          const { case: what, value } = ev.event;
          if (what === "match") {
            match = value;
          } else if (what === "move") {
            moveEvents++;
            plies.push(value.ply);
            // A move event carries the move, not the position.
            match = await api.matches.getMatch({ name: match.name }, CALL);
          } else if (what === "finished") {
            finished = value;
            continue;
          }
          // Our turn (again, after a Kalah extra turn): the lowest legal pit.
          while (myTurn(match) && match.ply !== playedAtPly) {
            assert.ok(match.legalPits.length > 0, "our turn with no legal pit");
            playedAtPly = match.ply;
            const r = await api.matches.submitMove(
              {
                name: match.name,
                pit: match.legalPits[0],
                expectedPly: match.ply,
                requestId: randomUUID(),
              },
              CALL,
            );
            assert.equal(r.move?.seat, mySeat);
            match = r.match;
          }
        }
        assert.ok(finished, "the stream ended before the match did");
        assert.equal(Match_State[finished.state], "FINISHED");
        assert.equal(finished.toMove, -1);
        assert.deepEqual(finished.legalPits, []);
        assert.ok(finished.result, "a finished match has a result");
        assert.equal(BigInt(moveEvents), finished.ply, "one move event per ply");
        // Every move, once each, in order.
        assert.deepEqual(
          plies,
          plies.map((_, i) => plies[0] + BigInt(i)),
          "move plies out of order",
        );
      });

      it("errors carry their ErrorInfo reason", async () => {
        const anonymous = clients(makeTransport, kind);
        await expectError(
          () => anonymous.matches.getMatch({ name: "matches/1" }, CALL),
          Code.NotFound,
          "MATCH_NOT_FOUND",
        );
        await expectError(
          () => anonymous.matches.getMatch({ name: "match/1" }, CALL),
          Code.InvalidArgument,
          "INVALID_NAME",
        );
        // A stream that fails before its first message.
        await expectError(
          () => drain(anonymous.matches.watchMatch, { name: "matches/1" }, CALL),
          Code.NotFound,
          "MATCH_NOT_FOUND",
        );
        await expectError(
          () => anonymous.players.getPlayer({ name: "players/me" }, CALL),
          Code.Unauthenticated,
          "MISSING_TOKEN",
        );
        const stranger = clients(makeTransport, kind, { token: "no-such-token" });
        await expectError(
          () => stranger.players.getPlayer({ name: "players/me" }, CALL),
          Code.Unauthenticated,
          "UNKNOWN_TOKEN",
        );
      });

      it("a stream the server ends with an error after its messages", async () => {
        const { api } = await guest(makeTransport, kind);
        const updates = [];
        const err = await (async () => {
          for await (const u of serverStream(
            api.matchmaking.findMatch,
            { game: Game.OWARE, players: 2 },
            { timeoutMs: 30_000 },
          )) {
            updates.push(u.update.case);
            // CancelFind, a call of its own: the server ends the stream.
            if (updates.length === 1) {
              assert.equal((await api.matchmaking.cancelFind({}, CALL)).cancelled, true);
            }
          }
        })().then(
          () => assert.fail("FindMatch ended without an error"),
          (e) => e,
        );
        assert.ok(err instanceof ConnectError, `${err}`);
        assert.equal(Code[err.code], "Canceled", err.rawMessage);
        assert.ok(updates.length >= 1 && updates.every((u) => u === "waiting"), `${updates}`);
      });

      it("a call's deadline ends a stream after its first message", async () => {
        const { api, me } = await guest(makeTransport, kind);
        // The player moves first: nothing happens on the match.
        const match = await kalahAgainstCpu(api, me);
        const got = [];
        // timeoutMs as a call option: sent as connect-timeout-ms or
        // grpc-timeout (serverStream's own limit is not).
        const err = await (async () => {
          for await (const ev of api.matches.watchMatch({ name: match.name }, { timeoutMs: 500 })) {
            got.push(ev.event.case);
          }
        })().then(
          () => assert.fail("the stream ended without an error"),
          (e) => e,
        );
        assert.equal(Code[ConnectError.from(err).code], "DeadlineExceeded", `${err}`);
        assert.deepEqual(got, ["match"]);
      });

      it("an abort (a closed tab) takes the search out of the queue", async () => {
        const { api } = await guest(makeTransport, kind);
        const stats = () => api.matchmaking.getQueueStats({ game: Game.OWARE }, CALL);
        const before = (await stats()).searching;
        const ac = new AbortController();
        const search = serverStream(
          api.matchmaking.findMatch,
          { game: Game.OWARE, players: 2 },
          { signal: ac.signal },
        );
        const first = await search.next();
        assert.equal(first.value?.update.case, "waiting");
        await until(stats, (s) => s.searching === before + 1, "the search in the queue");
        collectGarbage();
        ac.abort();
        const end = await search.next().then(
          (r) => assert.fail(`a read after the abort got ${r.done ? "the end" : r.value?.update.case}`),
          (e) => e,
        );
        assert.equal(Code[ConnectError.from(end).code], "Canceled", `${end}`);
        const { ms } = await until(
          stats,
          (s) => s.searching === before,
          "the search out of the queue",
          2_000,
        );
        console.log(`# ${library} ${kind}: out of the queue ${ms.toFixed(0)} ms after the abort`);
      });

      it("a body over the message limit is RESOURCE_EXHAUSTED", async () => {
        const api = clients(makeTransport, kind);
        const err = await api.players
          .createPlayer({ displayName: "x".repeat(5 << 20) }, CALL)
          .then(
            () => assert.fail("a 5 MiB request was taken"),
            (e) => e,
          );
        assert.ok(err instanceof ConnectError, `${err}`);
        assert.equal(Code[err.code], "ResourceExhausted", err.rawMessage);
      });
    });
  }
}

// What a browser does around the calls, with Node's fetch: a preflight,
// a content type nobody serves, a method that does not exist.
describe("fetch: the HTTP around the calls", () => {
  const ORIGIN = process.env.MANCALA_WEB_ORIGIN ?? "";

  it("a CORS preflight from the allowed origin, and none for another", async () => {
    assert.ok(ORIGIN, "MANCALA_WEB_ORIGIN is not set");
    for (const [origin, allowed] of [
      [ORIGIN, true],
      ["http://elsewhere.example", false],
    ]) {
      const r = await fetch(`${BASE_URL}/mancala.v1.MatchService/WatchMatch`, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "authorization,content-type,connect-protocol-version",
        },
      });
      assert.equal(r.status, 204);
      assert.equal(r.headers.get("access-control-allow-origin"), allowed ? origin : null);
      if (allowed) {
        assert.match(r.headers.get("access-control-allow-headers"), /authorization/i);
        assert.match(r.headers.get("access-control-allow-methods"), /POST/);
      }
    }
    const r = await fetch(`${BASE_URL}/grpc.health.v1.Health/Check`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/json" },
      body: "{}",
    });
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { status: "SERVING" });
    assert.equal(r.headers.get("access-control-allow-origin"), ORIGIN);
    assert.match(r.headers.get("access-control-expose-headers"), /grpc-status-details-bin/);
  });

  it("an unsupported content type is 415", async () => {
    const r = await fetch(`${BASE_URL}/mancala.v1.MatchService/GetMatch`, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "matches/1",
    });
    assert.equal(r.status, 415);
  });

  it("an unknown method is 404 with the Connect code unimplemented", async () => {
    const r = await fetch(`${BASE_URL}/mancala.v1.MatchService/StealSeeds`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    assert.equal(r.status, 404);
    assert.equal((await r.json()).code, "unimplemented");
  });
});
