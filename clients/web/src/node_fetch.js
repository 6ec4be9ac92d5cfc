// A fetch for connect-web's transports in Node (createTransport's `fetch`
// option) whose abort always reaches the response body and the socket, as
// a browser's does. Not for a browser bundle: browsers need none of it.
//
// Why: Node's fetch (undici; Debian 12's Node 18.20.4 with undici 5.15)
// follows the caller's AbortSignal through the Request it builds inside
// fetch(), and holds that Request's own AbortController only weakly. Once
// a garbage collection has taken that Request (nothing keeps it while a
// body streams), an abort reaches nothing: a read of the body goes on
// returning messages and the connection stays open, so the server never
// learns that the caller went (nodejs/undici#4627, fixed in undici 7).
// A stream read through connect-web then neither ends with CANCELED nor
// ends its call on the server (a FindMatch stays in the queue).
//
// This wrapper reads the body through a reader it owns and, on the
// signal's abort, errors the stream it hands out with the abort's reason
// (connect maps it to CANCELED) and cancels its reader, which closes the
// connection whatever the collector took.

/**
 * `fetch(input, init)`, with `init.signal`'s abort made to end the body.
 * @param {Parameters<typeof globalThis.fetch>[0]} input
 * @param {RequestInit} [init]
 * @returns {Promise<Response>}
 */
export async function abortableFetch(input, init = {}) {
  const { signal } = init;
  const response = await globalThis.fetch(input, init);
  if (!signal || !response.body) return response;
  const reader = response.body.getReader();
  /** @type {ReadableStreamDefaultController<Uint8Array>} */
  let controller;
  const onAbort = () => {
    controller.error(signal.reason);
    reader.cancel(signal.reason).catch(() => {});
  };
  const body = new ReadableStream({
    start(c) {
      controller = c;
    },
    async pull(c) {
      const { done, value } = await reader.read();
      if (done) {
        signal.removeEventListener("abort", onAbort);
        c.close();
      } else {
        c.enqueue(value);
      }
    },
    cancel(reason) {
      signal.removeEventListener("abort", onAbort);
      return reader.cancel(reason);
    },
  });
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
