// The same transport kinds as client.js's createTransport, made with
// @connectrpc/connect-node (node:http, not fetch) for tests and scripts in
// Node; a browser bundle must not import this file. HTTP/1.1, as a browser
// talks to mancalad's HTTP port without a front.

import {
  createConnectTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";
import { bearerToken, transportOfKind } from "./client.js";

/**
 * @param {string} baseUrl
 * @param {import("./client.js").TransportKind} kind
 * @param {{ token?: import("./client.js").TokenSource,
 *           interceptors?: import("@connectrpc/connect").Interceptor[] }} [options]
 * @returns {import("@connectrpc/connect").Transport}
 */
export function createNodeTransport(baseUrl, kind, options = {}) {
  return transportOfKind(
    { createConnectTransport, createGrpcWebTransport },
    kind,
    {
      baseUrl,
      httpVersion: /** @type {const} */ ("1.1"),
      interceptors: [bearerToken(options.token), ...(options.interceptors ?? [])],
    },
  );
}
