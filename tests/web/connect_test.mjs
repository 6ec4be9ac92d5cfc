// mancalad's browser port (Connect and gRPC-Web) through the clients a web
// page uses: connect-web's transports (over Node's global fetch, as in a
// browser) and connect-node's (node:http), each in three kinds: Connect
// JSON, Connect binary and gRPC-Web.
//
//   (cd clients/web && npm ci --no-audit --no-fund && sh gen.sh)
//   MANCALA_WEB_URL=http://127.0.0.1:PORT node --test tests/web/
//
// Without MANCALA_WEB_URL only the offline checks run (the clients
// construct) and the server tests are skipped with a message.
//
// Each (library, kind): a guest player plays Kalah against the CPU to the
// end while watching the match, then a few errors are checked for their
// code and their google.rpc.ErrorInfo reason (docs/api.md "Errors").

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
} from "../../clients/web/src/client.js";
import { createNodeTransport } from "../../clients/web/src/node_transports.js";

const BASE_URL = process.env.MANCALA_WEB_URL ?? "";
const SKIP = BASE_URL
  ? false
  : "MANCALA_WEB_URL is not set (http://127.0.0.1:PORT of mancalad's web " +
    "port): the server tests are skipped";

// How each library makes a transport: (baseUrl, kind, { token }).
const LIBRARIES = {
  "connect-web": createTransport,
  "connect-node": createNodeTransport,
};

const CALL = { timeoutMs: 10_000 };

/** Clients whose calls carry the token `tokenRef.token` once it is set. */
function clients(makeTransport, kind, tokenRef = {}) {
  return createServiceClients(
    makeTransport(BASE_URL, kind, { token: () => tokenRef.token }),
  );
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
    describe(`${library} ${kind}`, { skip: SKIP }, () => {
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
        let match = await api.matches.createMatch(
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
        assert.equal(Match_State[match.state], "IN_PROGRESS");

        const myTurn = (m) =>
          m.state === Match_State.IN_PROGRESS && m.toMove === mySeat;
        let playedAtPly = -1n;
        let moveEvents = 0;
        let finished;
        // The stream starts with the Match, then sends every move (the
        // CPU's and ours), and ends after `finished`.
        for await (const ev of serverStream(
          api.matches.watchMatch,
          { name: match.name },
          { timeoutMs: 110_000 },
        )) {
          assert.equal(finished, undefined, `${ev.event.case} after finished`);
          const { case: what, value } = ev.event;
          if (what === "match") {
            match = value;
          } else if (what === "move") {
            moveEvents++;
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
    });
  }
}
