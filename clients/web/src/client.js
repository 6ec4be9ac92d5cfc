// The five mancala.v1 service clients over Connect or gRPC-Web, for the
// browser (and Node >= 18, whose global fetch streams). Plain ES module with
// JSDoc types: the generated gen/**/*_pb.d.ts give every request and
// response its type, so editors and `tsc --checkJs` see typed clients,
// while Node and esbuild run this file as it is.
//
//   import { createMancalaClients } from "./client.js";
//   let token;
//   const api = createMancalaClients("http://127.0.0.1:8080", "connect-json",
//                                    { token: () => token });
//   const { token: t } = await api.players.createPlayer({});
//   token = t;  // every later call sends `authorization: Bearer <t>`
//
// Server-streaming calls (MatchService.WatchMatch, MatchmakingService.
// FindMatch) are async iterables: read them through serverStream() below,
// which ends the call when the loop is left. Errors are
// ConnectError; their google.rpc.ErrorInfo (domain "mancala.v1", reason an
// ErrorReason name) comes from err.findDetails(ErrorInfoSchema), see
// errorInfo() below.

import { Code, createClient, ConnectError } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-web";
import { AdminService } from "#gen/mancala/v1/admin_service_pb.js";
import { MatchService } from "#gen/mancala/v1/match_service_pb.js";
import { MatchmakingService } from "#gen/mancala/v1/matchmaking_service_pb.js";
import { PlayerService } from "#gen/mancala/v1/player_service_pb.js";
import { RatingService } from "#gen/mancala/v1/rating_service_pb.js";
import { ErrorInfoSchema } from "#gen/google/rpc/error_details_pb.js";

/**
 * How calls travel:
 * - "connect-json":   Connect protocol, JSON bodies (application/json,
 *                     streams application/connect+json); readable in the
 *                     browser's network tab.
 * - "connect-binary": Connect protocol, protobuf bodies (application/proto,
 *                     application/connect+proto).
 * - "grpc-web":       gRPC-Web, protobuf bodies (application/grpc-web+proto).
 * @typedef {"connect-json" | "connect-binary" | "grpc-web"} TransportKind
 */

/** @type {readonly TransportKind[]} */
export const TRANSPORT_KINDS = Object.freeze([
  "connect-json",
  "connect-binary",
  "grpc-web",
]);

/**
 * A bearer token, or a function returning the current one (so a client
 * made before CreatePlayer picks the token up once it exists). Empty or
 * undefined: no `authorization` header (public calls).
 * @typedef {string | undefined | (() => string | undefined)} TokenSource
 */

/**
 * An interceptor that sends `authorization: Bearer <token>` on every call
 * (docs/api.md "Authentication") while the token source yields one.
 * @param {TokenSource} token
 * @returns {import("@connectrpc/connect").Interceptor}
 */
export function bearerToken(token) {
  return (next) => async (req) => {
    const t = typeof token === "function" ? token() : token;
    if (t) req.header.set("authorization", `Bearer ${t}`);
    return next(req);
  };
}

/**
 * @typedef {object} ClientOptions
 * @property {TokenSource} [token] bearer token for every call
 * @property {import("@connectrpc/connect").Interceptor[]} [interceptors]
 *   run after the token interceptor
 * @property {typeof globalThis.fetch} [fetch] defaults to globalThis.fetch
 */

/**
 * A connect-web transport of the given kind for `baseUrl` (the server's
 * origin, e.g. "http://127.0.0.1:8080"; calls go to
 * baseUrl + "/mancala.v1.MatchService/GetMatch" and so on).
 * @param {string} baseUrl
 * @param {TransportKind} kind
 * @param {ClientOptions} [options]
 * @returns {import("@connectrpc/connect").Transport}
 */
export function createTransport(baseUrl, kind, options = {}) {
  return transportOfKind(
    { createConnectTransport, createGrpcWebTransport },
    kind,
    {
      baseUrl,
      interceptors: [bearerToken(options.token), ...(options.interceptors ?? [])],
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
  );
}

/**
 * The transport of `kind` made by a library's two factories (connect-web's
 * here, connect-node's in node_transports.js) from the options they share.
 * @template O
 * @param {{ createConnectTransport: (o: any) => import("@connectrpc/connect").Transport,
 *           createGrpcWebTransport: (o: any) => import("@connectrpc/connect").Transport }} library
 * @param {TransportKind} kind
 * @param {O} common
 * @returns {import("@connectrpc/connect").Transport}
 */
export function transportOfKind(library, kind, common) {
  switch (kind) {
    case "connect-json":
      return library.createConnectTransport({ ...common, useBinaryFormat: false });
    case "connect-binary":
      return library.createConnectTransport({ ...common, useBinaryFormat: true });
    case "grpc-web":
      return library.createGrpcWebTransport({ ...common, useBinaryFormat: true });
    default:
      throw new TypeError(
        `unknown transport ${JSON.stringify(kind)}: one of ${TRANSPORT_KINDS.join(", ")}`,
      );
  }
}

/**
 * @typedef {object} MancalaClients
 * @property {import("@connectrpc/connect").Client<typeof PlayerService>} players
 * @property {import("@connectrpc/connect").Client<typeof MatchService>} matches
 * @property {import("@connectrpc/connect").Client<typeof MatchmakingService>} matchmaking
 * @property {import("@connectrpc/connect").Client<typeof RatingService>} ratings
 * @property {import("@connectrpc/connect").Client<typeof AdminService>} admin
 */

/**
 * The five service clients over one transport (any Connect transport:
 * connect-web's, or connect-node's in tests).
 * @param {import("@connectrpc/connect").Transport} transport
 * @returns {MancalaClients}
 */
export function createServiceClients(transport) {
  return {
    players: createClient(PlayerService, transport),
    matches: createClient(MatchService, transport),
    matchmaking: createClient(MatchmakingService, transport),
    ratings: createClient(RatingService, transport),
    admin: createClient(AdminService, transport),
  };
}

/**
 * The five service clients for `baseUrl` over a connect-web transport.
 * @param {string} baseUrl
 * @param {TransportKind} [kind] "connect-json" by default
 * @param {ClientOptions} [options]
 * @returns {MancalaClients}
 */
export function createMancalaClients(baseUrl, kind = "connect-json", options = {}) {
  return createServiceClients(createTransport(baseUrl, kind, options));
}

/**
 * Iterates a server stream (`api.matches.watchMatch`,
 * `api.matchmaking.findMatch`) and ends the call whenever the loop is left:
 * at the stream's end, on `break`, `return` or a throw. Use it rather than
 * iterating the client method directly: in @connectrpc/connect 2.0.4 a
 * `for await` left early neither cancels the HTTP request (its iterator
 * has no return(); runStreamingCall in protocol/run-call.js) nor clears a
 * `timeoutMs` timer, so the browser keeps the stream open (one of its 6
 * HTTP/1.1 connections per origin; on WatchMatch the player stays present)
 * and Node keeps its process alive until the deadline.
 *
 * `timeoutMs` here is a local limit on the whole stream (it fails with
 * DEADLINE_EXCEEDED); it is not sent to the server as connect-timeout-ms /
 * grpc-timeout. `signal` ends the stream from outside (CANCELED).
 *
 * @template I, O
 * @param {(request: I, options?: import("@connectrpc/connect").CallOptions) => AsyncIterable<O>} method
 * @param {I} request
 * @param {import("@connectrpc/connect").CallOptions} [options]
 * @returns {AsyncGenerator<O, void, undefined>}
 */
export async function* serverStream(method, request, options = {}) {
  const { timeoutMs, signal, ...rest } = options;
  const ac = new AbortController();
  const onAbort = () => ac.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  let timedOut = false;
  const timer =
    timeoutMs !== undefined && timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          ac.abort();
        }, timeoutMs)
      : undefined;
  try {
    yield* method(request, { ...rest, signal: ac.signal });
  } catch (e) {
    if (!timedOut) throw e;
    throw new ConnectError(
      `the stream did not end within ${timeoutMs} ms`,
      Code.DeadlineExceeded,
      undefined,
      undefined,
      e,
    );
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    ac.abort();
  }
}

/**
 * The mancala.v1 ErrorInfo of an error, or undefined: `{ reason, domain,
 * metadata }`, reason an ErrorReason name such as "MATCH_NOT_FOUND".
 * @param {unknown} err
 * @returns {import("#gen/google/rpc/error_details_pb.js").ErrorInfo | undefined}
 */
export function errorInfo(err) {
  const e = ConnectError.from(err);
  return e
    .findDetails(ErrorInfoSchema)
    .find((d) => d.domain === "mancala.v1");
}

export { ConnectError, Code } from "@connectrpc/connect";
// The generated messages, enums and services (gen.sh; "#gen/" is
// clients/web/gen, package.json "imports"), so that callers import
// everything from this module: Game, Seat_Kind, Match_State, ErrorReason...
export * from "#gen/mancala/v1/admin_service_pb.js";
export * from "#gen/mancala/v1/error_reason_pb.js";
export * from "#gen/mancala/v1/field_limits_pb.js";
export * from "#gen/mancala/v1/game_pb.js";
export * from "#gen/mancala/v1/match_service_pb.js";
export * from "#gen/mancala/v1/matchmaking_service_pb.js";
export * from "#gen/mancala/v1/player_service_pb.js";
export * from "#gen/mancala/v1/rating_service_pb.js";
export * from "#gen/google/rpc/error_details_pb.js";
export * from "#gen/google/rpc/status_pb.js";
