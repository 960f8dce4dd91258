/**
 * A mock model server for the real-agent suite: one loopback HTTP server that speaks, streaming,
 * the four model APIs the real agents use, plus an OTLP/HTTP sink.
 *
 * Routes (the query string is ignored; Claude adds `?beta=true`, Gemini `?alt=sse`):
 * - `POST /v1/messages` Anthropic Messages (Claude Code), `POST /v1/messages/count_tokens`
 * - `POST /v1/responses` OpenAI Responses (Codex)
 * - `POST /v1/chat/completions` OpenAI Chat Completions (OpenCode, pi)
 * - `POST …:streamGenerateContent`, `…:generateContent`, `…:countTokens` Gemini (any model name)
 * - `GET /v1/models` a one-entry model list
 * - `POST /v1/logs`, `/v1/metrics`, `/v1/traces` OTLP sinks answering `{}`
 * - anything else: 404 with a small JSON error
 *
 * The replies are scripted by the last input of each request (see `mock_script.ts`). Every
 * request is logged in `requests`, so a test can see what an agent sent.
 *
 * ```ts
 * import { startMockModel } from "./mock_model.ts";
 * const mock = await startMockModel();
 * try {
 *   // point ANTHROPIC_BASE_URL (etc.) at mock.url
 * } finally {
 *   await mock.close();
 * }
 * ```
 * @module
 */

import {
  anthropicMessage,
  anthropicSteps,
  chatObject,
  chatSteps,
  DEFAULT_PACING,
  type FrameOptions,
  geminiJsonModeResponse,
  geminiParts,
  geminiResponse,
  geminiSteps,
  type Pacing,
  responsesObject,
  responsesSteps,
  type Step,
} from "./mock_frames.ts";
import {
  DEFAULT_MODEL,
  isGeminiJsonMode,
  type Script,
  scriptAnthropic,
  scriptChat,
  scriptGemini,
  scriptResponses,
} from "./mock_script.ts";

/** Which API a request was routed to. */
export type RouteKind =
  | "anthropic"
  | "anthropic_count_tokens"
  | "responses"
  | "chat"
  | "gemini"
  | "gemini_json_mode"
  | "gemini_count_tokens"
  | "models"
  | "otlp"
  | "not_found"
  | "bad_request";

/** One request the mock received, as logged when its reply was chosen. */
export interface RequestLogEntry {
  /** Epoch ms when the request body had been read. */
  at: number;
  /** The HTTP method. */
  method: string;
  /** The path, without the query string. */
  path: string;
  /** The query string, with its `?`, or empty. */
  query: string;
  /** The `user-agent` header, or empty. */
  userAgent: string;
  /** The route the request took. */
  route: RouteKind;
  /** The body size in bytes. */
  bytes: number;
  /** Whether the client asked for a stream (or the route always streams). */
  stream: boolean;
  /** The scripted reply, for model calls. */
  reply?: Script["kind"];
  /** Whether the reply was paced slowly. */
  slow?: boolean;
  /** The shell tool called, for a tool reply. */
  tool?: string;
  /** The user text the reply was keyed on (trimmed to 300 characters). */
  prompt?: string;
  /** The model the request named. */
  model?: string;
  /**
   * For a streamed reply: `streaming` while it is sent, then `completed`, or `aborted` when the
   * agent hung up first (an interrupt), or `closed` when the mock shut down first.
   */
  outcome?: "streaming" | "completed" | "aborted" | "closed";
}

/** Options of {@link startMockModel}. */
export interface MockModelOptions {
  /** The port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Reply pacing; the probe's when absent. */
  pacing?: Partial<Pacing>;
}

/** A running mock model server. */
export interface MockModel {
  /** The server root, `http://127.0.0.1:<port>` (no trailing slash, no `/v1`). */
  url: string;
  /** The port it listens on. */
  port: number;
  /** Every request received so far, in arrival order. */
  requests: RequestLogEntry[];
  /** Ends every open stream and stops the server. */
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

/** Requests larger than this are refused: the largest the probe saw was 1.2 MB. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

function notFound(method: string, path: string): Response {
  return jsonResponse(404, {
    error: { type: "not_found", message: `mock model: no route for ${method} ${path}` },
  });
}

/** The model named by a Gemini path such as `/v1beta/models/<model>:generateContent`. */
function geminiModel(path: string): string {
  const match = /\/models\/([^/:]+):/.exec(path);
  return match ? decodeURIComponent(match[1]) : DEFAULT_MODEL;
}

/** Streams that are still open, so `close()` can end them instead of waiting. */
class StreamSet {
  #open = new Set<() => void>();
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  add(stop: () => void): void {
    this.#open.add(stop);
  }

  delete(stop: () => void): void {
    this.#open.delete(stop);
  }

  stopAll(): void {
    this.#closed = true;
    for (const stop of [...this.#open]) stop();
  }
}

/** Plays timed steps into a streaming response; the client may hang up at any time. */
function streamSteps(
  steps: Step[],
  context: { streams: StreamSet; entry: RequestLogEntry },
): Response {
  const { streams, entry } = context;
  entry.outcome = "streaming";
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let index = 0;
      const finish = () => {
        if (finished) return;
        finished = true;
        if (timer !== undefined) clearTimeout(timer);
        streams.delete(stop);
        try {
          controller.close();
        } catch {
          // already closed or errored by a hang-up
        }
      };
      stop = () => {
        if (!finished) entry.outcome = "closed";
        finish();
      };
      streams.add(stop);
      const next = () => {
        if (finished) return;
        if (index >= steps.length) {
          entry.outcome = "completed";
          return finish();
        }
        const step = steps[index++];
        timer = setTimeout(() => {
          if (finished) return;
          try {
            controller.enqueue(encoder.encode(step.chunk));
          } catch {
            entry.outcome = "aborted";
            return finish();
          }
          next();
        }, step.delayMs);
      };
      next();
    },
    cancel() {
      // The agent hung up (an Esc interrupt): stop the timers.
      if (!finished) entry.outcome = "aborted";
      finished = true;
      if (timer !== undefined) clearTimeout(timer);
      streams.delete(stop);
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "connection": "keep-alive",
    },
  });
}

function parseBody(text: string): Json | undefined {
  if (text.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? parsed as Json
      : undefined;
  } catch {
    return undefined;
  }
}

/** Answers one request, and fills in its log entry. */
function answer(
  request: { method: string; path: string; body: Json; entry: RequestLogEntry },
  context: { pacing: Pacing; streams: StreamSet },
): Response {
  const { method, path, body, entry } = request;
  const model = typeof body.model === "string" ? body.model : DEFAULT_MODEL;
  const frame: FrameOptions = { model, pacing: context.pacing };
  const note = (route: RouteKind, script?: Script) => {
    entry.route = route;
    if (script) {
      entry.reply = script.kind;
      entry.slow = script.slow;
      entry.prompt = script.prompt.slice(-300);
      if (script.kind === "tool") entry.tool = script.tool;
    }
  };
  const wantsStream = body.stream === true;

  if (method === "GET" && path === "/v1/models") {
    note("models");
    return jsonResponse(200, {
      object: "list",
      data: [{ id: DEFAULT_MODEL, object: "model", created: 0, owned_by: "mock" }],
    });
  }
  if (method !== "POST") {
    note("not_found");
    return notFound(method, path);
  }
  if (path === "/v1/logs" || path === "/v1/metrics" || path === "/v1/traces") {
    note("otlp");
    return jsonResponse(200, {});
  }
  if (path === "/v1/messages/count_tokens") {
    note("anthropic_count_tokens");
    return jsonResponse(200, { input_tokens: Math.max(1, Math.ceil(entry.bytes / 4)) });
  }
  if (path === "/v1/messages") {
    entry.model = model;
    const script = scriptAnthropic(body);
    note("anthropic", script);
    entry.stream = wantsStream;
    return wantsStream
      ? streamSteps(anthropicSteps(script, frame), { streams: context.streams, entry })
      : jsonResponse(200, anthropicMessage(script, frame));
  }
  if (path === "/v1/responses") {
    entry.model = model;
    const script = scriptResponses(body);
    note("responses", script);
    entry.stream = wantsStream;
    return wantsStream
      ? streamSteps(responsesSteps(script, frame), { streams: context.streams, entry })
      : jsonResponse(200, responsesObject(script, frame));
  }
  if (path === "/v1/chat/completions") {
    entry.model = model;
    const script = scriptChat(body);
    note("chat", script);
    entry.stream = wantsStream;
    return wantsStream
      ? streamSteps(chatSteps(script, frame), { streams: context.streams, entry })
      : jsonResponse(200, chatObject(script, frame));
  }
  if (path.endsWith(":countTokens")) {
    note("gemini_count_tokens");
    return jsonResponse(200, { totalTokens: Math.max(1, Math.ceil(entry.bytes / 4)) });
  }
  const streaming = path.endsWith(":streamGenerateContent");
  if (streaming || path.endsWith(":generateContent")) {
    const gemini: FrameOptions = { ...frame, model: geminiModel(path) };
    entry.model = gemini.model;
    // Routing is answered before any scripting: its prompt may say `slow` or `probe-tool`.
    if (isGeminiJsonMode(body)) {
      note("gemini_json_mode");
      return jsonResponse(200, geminiJsonModeResponse(gemini));
    }
    const script = scriptGemini(body);
    note("gemini", script);
    entry.stream = streaming;
    return streaming
      ? streamSteps(geminiSteps(script, gemini), { streams: context.streams, entry })
      : jsonResponse(200, geminiResponse(geminiParts(script), { ...gemini, last: true }));
  }
  note("not_found");
  return notFound(method, path);
}

/**
 * Starts the mock model on 127.0.0.1 (a free port unless `options.port` is given).
 *
 * ```ts
 * const mock = await startMockModel({ pacing: { slowTotalMs: 2000 } });
 * console.log(mock.url); // http://127.0.0.1:41234
 * await mock.close();
 * ```
 */
export function startMockModel(options: MockModelOptions = {}): Promise<MockModel> {
  const pacing: Pacing = { ...DEFAULT_PACING, ...options.pacing };
  const streams = new StreamSet();
  const requests: RequestLogEntry[] = [];

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    // Agents send bodies of 50-100 KB and exporters over 1 MB: read it all before parsing.
    const raw = req.body ? new Uint8Array(await req.arrayBuffer()) : new Uint8Array();
    const entry: RequestLogEntry = {
      at: Date.now(),
      method: req.method,
      path: url.pathname,
      query: url.search,
      userAgent: req.headers.get("user-agent") ?? "",
      route: "not_found",
      bytes: raw.byteLength,
      stream: false,
    };
    requests.push(entry);
    if (streams.closed) return jsonResponse(503, { error: { message: "mock model closing" } });
    if (raw.byteLength > MAX_BODY_BYTES) {
      entry.route = "bad_request";
      return jsonResponse(413, { error: { message: "mock model: body too large" } });
    }
    const body = parseBody(new TextDecoder().decode(raw));
    if (body === undefined) {
      entry.route = "bad_request";
      if (url.pathname.startsWith("/v1/") && /^\/v1\/(logs|metrics|traces)$/.test(url.pathname)) {
        // OTLP protobuf bodies are not JSON; the sink accepts them anyway.
        entry.route = "otlp";
        return jsonResponse(200, {});
      }
      return jsonResponse(400, { error: { message: "mock model: the body is not a JSON object" } });
    }
    return answer({ method: req.method, path: url.pathname, body, entry }, { pacing, streams });
  }

  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: options.port ?? 0,
      onListen({ port }) {
        resolve({
          url: `http://127.0.0.1:${port}`,
          port,
          requests,
          async close() {
            streams.stopAll();
            await server.shutdown();
          },
        });
      },
    }, handle);
  });
}

/** Runs the mock alone: `deno run --allow-net=127.0.0.1 tests/e2e/mock_model.ts [port]`. */
async function serveForever(port: number): Promise<void> {
  const mock = await startMockModel({ port });
  console.log(`mock model on ${mock.url} (Ctrl-C to stop)`);
  let shown = 0;
  const timer = setInterval(() => {
    for (const r of mock.requests.slice(shown)) {
      const reply = r.reply ? ` → ${r.reply}${r.slow ? " (slow)" : ""}` : "";
      console.log(`${r.method} ${r.path}${r.query} [${r.route}]${reply} ${r.userAgent}`);
    }
    shown = mock.requests.length;
  }, 200);
  Deno.addSignalListener("SIGINT", () => {
    clearInterval(timer);
    mock.close().then(() => Deno.exit(0));
  });
}

if (import.meta.main) await serveForever(Number(Deno.args[0] ?? 0));
