/**
 * A stand-in for OpenCode's HTTP server, v1 plane only (A27-A30): it holds
 * pending permission and question requests, answers a reply to a pending
 * one with 200 (and forgets it, as OpenCode does), and answers 404 for a
 * request it does not hold. It can be told to answer slowly, or with a
 * status of the test's choosing. It listens on 127.0.0.1 at a port the
 * system picks, like the real server pins its own.
 *
 * ```ts
 * const oc = fakeOpencode();
 * oc.permissions.add("per_1");
 * // POST {oc.url}/permission/per_1/reply {"reply":"once"} -> 200, then 404
 * await oc.close();
 * ```
 * @module
 */

/** One request the fake received. */
export interface Received {
  method: string;
  path: string;
  body: unknown;
}

/** A running fake server. */
export interface FakeOpencode {
  /** The base URL, `http://127.0.0.1:<port>` (what the plugin stamps as `serverUrl`). */
  url: string;
  /** Pending permission request ids. */
  permissions: Set<string>;
  /** Pending question request ids. */
  questions: Set<string>;
  /** Every request received, in order. */
  received: Received[];
  /** Delay every answer by this many ms (for the timeout test). */
  delayMs: number;
  /** Answer every request with this status instead (for the error test). */
  forceStatus: number | null;
  close(): Promise<void>;
}

const ROUTE = /^\/(permission|question)\/([^/]+)\/(reply|reject)$/;

/** Starts the fake. */
export function fakeOpencode(): FakeOpencode {
  const controller = new AbortController();
  const fake: FakeOpencode = {
    url: "",
    permissions: new Set(),
    questions: new Set(),
    received: [],
    delayMs: 0,
    forceStatus: null,
    close: async () => {
      controller.abort();
      await server.finished;
    },
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen: () => {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      const text = await request.text();
      let body: unknown = null;
      try {
        body = text === "" ? null : JSON.parse(text);
      } catch {
        body = text;
      }
      fake.received.push({ method: request.method, path, body });
      if (fake.delayMs > 0) {
        // Closing the fake cuts a slow answer short, so no test waits it out.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, fake.delayMs);
          controller.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      if (fake.forceStatus !== null) return new Response("forced", { status: fake.forceStatus });
      const m = ROUTE.exec(path);
      if (request.method !== "POST" || !m) return new Response("not found", { status: 404 });
      const [, kind, id, verb] = m;
      const pending = kind === "permission" ? fake.permissions : fake.questions;
      if (kind === "permission" && verb !== "reply") return new Response("", { status: 404 });
      if (!pending.has(decodeURIComponent(id))) return new Response("", { status: 404 });
      pending.delete(decodeURIComponent(id));
      return Response.json(true);
    },
  );
  fake.url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return fake;
}
