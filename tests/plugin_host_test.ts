/**
 * The OpenCode plugin and the pi extension, loaded the way their hosts load
 * them (I41, I42, I59, I60, I64): the generated JS is imported from a
 * scratch folder with `tma-hook` pointed (through the wrapper token) at a
 * recording script, a minimal host object fires the documented events, and
 * the test reads what was forwarded: the wrapper's arguments and the JSON
 * payload on its stdin.
 * @module
 */
import { assertEquals } from "./harness/assert.ts";
import { renderOpencodePlugin, renderPiExtension } from "../src/install/agent_files.ts";

/** One forwarded call: `tma-hook <agent> <event>` and its stdin payload. */
interface Record_ {
  agent: string;
  event: string;
  payload: Record<string, unknown>;
}

const RECORDER = `#!/bin/sh
f="$REC_DIR/$$-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
{ printf '%s %s %s\\n' "$1" "$2" "\${TMA_EVENT_AT-}"; cat; } > "$f.tmp" && mv "$f.tmp" "$f.rec"
`;

interface Host {
  dir: string;
  wrapper: string;
  records(count: number): Promise<Record_[]>;
  /** The TMA_EVENT_AT each forwarded call got, by its payload's `opencode_event`. */
  eventTimes(): Promise<Map<string, number>>;
  cleanup(): Promise<void>;
}

async function host(): Promise<Host> {
  const dir = await Deno.makeTempDir({ prefix: "tma-plugin-host-" });
  const wrapper = `${dir}/tma-hook`;
  await Deno.writeTextFile(wrapper, RECORDER);
  await Deno.chmod(wrapper, 0o755);
  Deno.env.set("REC_DIR", dir);
  Deno.env.set("TMUX_PANE", "%42");
  const times = new Map<string, number>();
  const readAll = async () => {
    const out: Record_[] = [];
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.name.endsWith(".rec")) continue;
      const text = await Deno.readTextFile(`${dir}/${entry.name}`);
      const cut = text.indexOf("\n");
      const [agent, event, at] = text.slice(0, cut).split(" ");
      const payload = JSON.parse(text.slice(cut + 1));
      out.push({ agent, event, payload });
      times.set(String(payload.opencode_event ?? payload.session_id), Number(at));
    }
    return out;
  };
  return {
    dir,
    wrapper,
    // Forwarding is fire-and-forget, so records arrive in any order: wait for
    // the expected count, then compare sorted.
    async records(count) {
      for (let i = 0; i < 400; i++) {
        const got = await readAll();
        if (got.length >= count) return sortRecords(got);
        await new Promise((r) => setTimeout(r, 25));
      }
      return sortRecords(await readAll());
    },
    async eventTimes() {
      await readAll();
      return times;
    },
    async cleanup() {
      Deno.env.delete("TMUX_PANE");
      await Deno.remove(dir, { recursive: true });
    },
  };
}

function sortRecords(records: Record_[]): Record_[] {
  const key = (r: Record_) =>
    `${r.event} ${JSON.stringify(r.payload, Object.keys(r.payload).sort())}`;
  return records.sort((a, b) => key(a).localeCompare(key(b)));
}

/** Writes a rendered module and imports it (a fresh file name each time). */
async function load(dir: string, text: string): Promise<Record<string, unknown>> {
  const file = `${dir}/module-${crypto.randomUUID()}.js`;
  await Deno.writeTextFile(file, text);
  const url = new URL(`file://${file}`).href;
  return await import(url);
}

type Hook = (input: unknown, output?: unknown) => unknown;
type OpencodeHooks = { event: Hook; "chat.message": Hook; "tool.execute.before": Hook };

const options = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name:
    "integrations/ I42: the OpenCode plugin forwards the event bus as tma-hook opencode <token>",
  ...options,
  fn: async () => {
    const h = await host();
    try {
      const mod = await load(h.dir, renderOpencodePlugin(h.wrapper));
      const plugin = mod.TmaPlugin as (input: unknown) => Promise<OpencodeHooks>;
      const hooks = await plugin({
        serverUrl: new URL("http://127.0.0.1:4096/"),
        directory: h.dir,
        worktree: h.dir,
        project: { id: "global" },
        client: {},
      });
      const bus = (type: string, properties: Record<string, unknown>) =>
        hooks.event({ event: { id: "evt_1", type, properties } });
      const s = "ses_abc";
      await bus("session.created", { sessionID: s, info: { id: s, title: "New session" } });
      await bus("session.status", { sessionID: s, status: { type: "busy" } });
      await hooks["chat.message"]({ sessionID: s, agent: "build" }, { message: {}, parts: [] });
      await hooks["tool.execute.before"]({ tool: "bash", sessionID: s, callID: "c1" }, {
        args: {},
      });
      await bus("permission.asked", { id: "per_1", sessionID: s, permission: "bash" });
      await bus("permission.updated", { requestID: "per_2", sessionID: s });
      await bus("permission.replied", { sessionID: s, requestID: "per_1", reply: "once" });
      await bus("question.asked", { id: "que_1", sessionID: s, questions: [] });
      await bus("question.updated", { id: "que_2", sessionID: s });
      await bus("question.replied", { sessionID: s, requestID: "que_1", answers: [["Red"]] });
      await bus("question.answered", { sessionID: s, requestID: "que_2" });
      await bus("question.rejected", { sessionID: s, requestID: "que_3" });
      await bus("session.idle", { sessionID: s });
      await bus("session.status", { sessionID: s, status: { type: "idle" } });
      // Not forwarded: noise, and a retry (the turn is still going).
      await bus("message.updated", { sessionID: s, info: {} });
      await bus("session.status", { sessionID: s, status: { type: "retry", attempt: 1 } });
      await bus("session.deleted", { sessionID: s, info: {} });

      const api = "http://127.0.0.1:4096";
      const expected: Record_[] = [
        { event: "session-start", payload: { opencode_event: "plugin.load", api_endpoint: api } },
        {
          event: "session-start",
          payload: { session_id: s, opencode_event: "session.created", api_endpoint: api },
        },
        {
          event: "user-prompt-submit",
          payload: { session_id: s, opencode_event: "session.status" },
        },
        { event: "user-prompt-submit", payload: { session_id: s, opencode_event: "chat.message" } },
        {
          event: "user-prompt-submit",
          payload: { session_id: s, opencode_event: "tool.execute.before" },
        },
        {
          event: "permission-required",
          payload: { session_id: s, opencode_event: "permission.asked", request_id: "per_1" },
        },
        {
          event: "permission-required",
          payload: { session_id: s, opencode_event: "permission.updated", request_id: "per_2" },
        },
        {
          event: "permission-replied",
          payload: {
            session_id: s,
            opencode_event: "permission.replied",
            request_id: "per_1",
            reply: "once",
          },
        },
        {
          event: "question-required",
          payload: { session_id: s, opencode_event: "question.asked", question_id: "que_1" },
        },
        {
          event: "question-required",
          payload: { session_id: s, opencode_event: "question.updated", question_id: "que_2" },
        },
        {
          event: "question-replied",
          payload: { session_id: s, opencode_event: "question.replied", question_id: "que_1" },
        },
        {
          event: "question-replied",
          payload: { session_id: s, opencode_event: "question.answered", question_id: "que_2" },
        },
        {
          event: "question-replied",
          payload: { session_id: s, opencode_event: "question.rejected", question_id: "que_3" },
        },
        { event: "stop", payload: { session_id: s, opencode_event: "session.idle" } },
        { event: "stop", payload: { session_id: s, opencode_event: "session.status" } },
      ].map((r) => ({ agent: "opencode", ...r }));
      const got = await h.records(expected.length);
      assertEquals(got, sortRecords(expected));
    } finally {
      await h.cleanup();
    }
  },
});

Deno.test({
  name:
    "integrations/ I42: the OpenCode plugin is inert outside tmux and never throws into OpenCode",
  ...options,
  fn: async () => {
    const h = await host();
    try {
      // A wrapper path that does not exist: spawn errors must be swallowed.
      const broken = await load(h.dir, renderOpencodePlugin(`${h.dir}/missing/tma-hook`));
      const brokenHooks = await (broken.TmaPlugin as (i: unknown) => Promise<OpencodeHooks>)({});
      await brokenHooks.event({ event: { type: "session.idle", properties: {} } });
      await brokenHooks.event({ event: null });

      Deno.env.delete("TMUX_PANE");
      const mod = await load(h.dir, renderOpencodePlugin(h.wrapper));
      const hooks = await (mod.TmaPlugin as (i: unknown) => Promise<OpencodeHooks>)({
        serverUrl: "http://x",
      });
      await hooks.event({ event: { type: "session.idle", properties: { sessionID: "s" } } });
      await hooks["chat.message"]({ sessionID: "s" });
      // Back in tmux: only this sentinel may arrive.
      Deno.env.set("TMUX_PANE", "%1");
      await hooks["tool.execute.before"]({ sessionID: "sentinel" });
      const got = await h.records(1);
      assertEquals(got, [{
        agent: "opencode",
        event: "user-prompt-submit",
        payload: { session_id: "sentinel", opencode_event: "tool.execute.before" },
      }]);
    } finally {
      await h.cleanup();
    }
  },
});

Deno.test({
  name:
    "integrations/ D47: the OpenCode plugin stamps each forwarded event with a strictly later TMA_EVENT_AT",
  ...options,
  fn: async () => {
    const h = await host();
    try {
      const mod = await load(h.dir, renderOpencodePlugin(h.wrapper));
      const hooks = await (mod.TmaPlugin as (i: unknown) => Promise<OpencodeHooks>)({});
      const s = "ses_t";
      // A turn's last busy, then its idle, within a millisecond (OpenCode 1.18.33 does this).
      await hooks.event({
        event: { type: "session.status", properties: { sessionID: s, status: { type: "busy" } } },
      });
      await hooks.event({ event: { type: "session.idle", properties: { sessionID: s } } });
      await h.records(3);
      const times = await h.eventTimes();
      const [loaded, busy, idle] = ["plugin.load", "session.status", "session.idle"].map((k) =>
        times.get(k)!
      );
      assertEquals(loaded < busy && busy < idle, true, `${loaded} ${busy} ${idle}`);
    } finally {
      await h.cleanup();
    }
  },
});

Deno.test({
  name:
    "integrations/ X8: the OpenCode plugin relays tma's replies to its SDK client behind a secret endpoint",
  ...options,
  fn: async () => {
    const h = await host();
    try {
      // A stand-in for the SDK client OpenCode hands its plugins: its hey-api
      // core answers like OpenCode (a reply to a pending id is true, else 404).
      const calls: { url: string; body: unknown }[] = [];
      const client = {
        _client: {
          post: (options: { url: string; body: unknown }) => {
            calls.push({ url: options.url, body: options.body });
            const known = options.url.includes("per_1") || options.url.includes("que_1");
            return Promise.resolve({
              data: known ? true : undefined,
              error: known ? undefined : { name: "NotFoundError" },
              response: new Response(null, { status: known ? 200 : 404 }),
            });
          },
        },
      };
      const mod = await load(h.dir, renderOpencodePlugin(h.wrapper));
      const hooks = await (mod.TmaPlugin as (i: unknown) => Promise<OpencodeHooks>)({
        serverUrl: new URL("http://localhost:4096/"),
        client,
      });
      assertEquals(typeof hooks.event, "function");
      const [registered] = await h.records(1);
      const endpoint = String(registered.payload.api_endpoint);
      const m = /^http:\/\/127\.0\.0\.1:(\d+)\/([0-9a-f]{48})$/.exec(endpoint);
      assertEquals(m !== null, true, endpoint);
      const post = async (url: string, body: string, method = "POST") => {
        const response = await fetch(url, {
          method,
          body: method === "POST" ? body : undefined,
          headers: { "content-type": "application/json" },
        });
        return { status: response.status, body: await response.text() };
      };
      // tma's API lane (src/actions/api.ts) joins its routes onto the endpoint.
      assertEquals(await post(`${endpoint}/permission/per_1/reply`, '{"reply":"once"}'), {
        status: 200,
        body: "true",
      });
      assertEquals((await post(`${endpoint}/question/que_1/reject`, "{}")).status, 200);
      assertEquals(
        (await post(`${endpoint}/permission/per_9/reply`, '{"reply":"once"}')).status,
        404,
      );
      assertEquals(calls, [
        { url: "/permission/per_1/reply", body: { reply: "once" } },
        { url: "/question/que_1/reject", body: {} },
        { url: "/permission/per_9/reply", body: { reply: "once" } },
      ]);
      // A wrong secret, another route, another method or a bad body reach nothing.
      const origin = `http://127.0.0.1:${m![1]}`;
      const wrong = `${origin}/${"0".repeat(48)}/permission/per_1/reply`;
      assertEquals((await post(wrong, '{"reply":"once"}')).status, 404);
      assertEquals((await post(`${endpoint}/session/ses_1/abort`, "{}")).status, 404);
      assertEquals((await post(`${endpoint}/permission/per_1/reply`, "", "GET")).status, 404);
      assertEquals((await post(`${endpoint}/permission/per_1/reply`, "{not json")).status, 400);
      assertEquals(calls.length, 3);
    } finally {
      await h.cleanup();
    }
  },
});

Deno.test({
  name:
    "integrations/ X8: without an SDK client able to relay, the plugin stamps OpenCode's own server URL",
  ...options,
  fn: async () => {
    const h = await host();
    try {
      const mod = await load(h.dir, renderOpencodePlugin(h.wrapper));
      await (mod.TmaPlugin as (i: unknown) => Promise<OpencodeHooks>)({
        serverUrl: new URL("http://127.0.0.1:4097/"),
        client: { session: {} },
      });
      const [record] = await h.records(1);
      assertEquals(record.payload.api_endpoint, "http://127.0.0.1:4097");
    } finally {
      await h.cleanup();
    }
  },
});

type PiHandler = (event: unknown, ctx: unknown) => unknown;

function piHost(): {
  pi: { on(name: string, fn: PiHandler): void };
  handlers: Map<string, PiHandler>;
} {
  const handlers = new Map<string, PiHandler>();
  return { pi: { on: (name, fn) => void handlers.set(name, fn) }, handlers };
}

Deno.test({
  name:
    "integrations/ I59, I60, I64: the pi extension forwards {session_id} per event and the context usage on agent_settled",
  ...options,
  fn: async () => {
    const h = await host();
    try {
      const mod = await load(h.dir, renderPiExtension(h.wrapper));
      const { pi, handlers } = piHost();
      (mod.default as (pi: unknown) => void)(pi);
      assertEquals([...handlers.keys()].sort(), [
        "agent_end",
        "agent_settled",
        "before_agent_start",
        "session_shutdown",
        "session_start",
        "tool_execution_start",
      ]);
      const usage = { tokens: 61000, contextWindow: 200000, percent: 30.5 };
      const ctx = {
        sessionManager: { getSessionId: () => "sess-7" },
        getContextUsage: () => usage,
      };
      // Handlers return at once: nothing for pi to wait on.
      assertEquals(
        handlers.get("session_start")!({ type: "session_start", reason: "startup" }, ctx),
        undefined,
      );
      handlers.get("before_agent_start")!({ type: "before_agent_start", prompt: "hi" }, ctx);
      handlers.get("tool_execution_start")!(
        { type: "tool_execution_start", toolName: "bash" },
        ctx,
      );
      handlers.get("agent_settled")!({ type: "agent_settled" }, ctx);
      handlers.get("session_shutdown")!({ type: "session_shutdown", reason: "quit" }, ctx);
      const expected: Record_[] = [
        { event: "session_start", payload: { session_id: "sess-7" } },
        { event: "before_agent_start", payload: { session_id: "sess-7" } },
        { event: "tool_execution_start", payload: { session_id: "sess-7" } },
        { event: "agent_settled", payload: { session_id: "sess-7" } },
        { event: "context", payload: { session_id: "sess-7", context_usage: usage } },
        { event: "session_shutdown", payload: { session_id: "sess-7" } },
      ].map((r) => ({ agent: "pi", ...r }));
      assertEquals(await h.records(expected.length), sortRecords(expected));
    } finally {
      await h.cleanup();
    }
  },
});

Deno.test({
  name:
    "integrations/ I64: after /compact the nulls are forwarded as they are; no usage object forwards nothing",
  ...options,
  fn: async () => {
    const h = await host();
    try {
      const mod = await load(h.dir, renderPiExtension(h.wrapper));
      const { pi, handlers } = piHost();
      (mod.default as (pi: unknown) => void)(pi);
      const compacted = { tokens: null, contextWindow: 200000, percent: null };
      handlers.get("agent_settled")!({}, {
        sessionManager: { getSessionId: () => "a" },
        getContextUsage: () => compacted,
      });
      handlers.get("agent_settled")!({}, {
        sessionManager: { getSessionId: () => "b" },
        getContextUsage: () => undefined,
      });
      // A context without a session manager or usage function must not throw.
      handlers.get("agent_settled")!({}, {});
      const expected: Record_[] = [
        { event: "agent_settled", payload: { session_id: "a" } },
        { event: "context", payload: { session_id: "a", context_usage: compacted } },
        { event: "agent_settled", payload: { session_id: "b" } },
        { event: "agent_settled", payload: {} },
      ].map((r) => ({ agent: "pi", ...r }));
      assertEquals(await h.records(expected.length), sortRecords(expected));
    } finally {
      await h.cleanup();
    }
  },
});

Deno.test({
  name: "integrations/ I59: the pi extension subscribes to nothing outside tmux",
  ...options,
  fn: async () => {
    const h = await host();
    try {
      Deno.env.delete("TMUX_PANE");
      const mod = await load(h.dir, renderPiExtension(h.wrapper));
      const { pi, handlers } = piHost();
      (mod.default as (pi: unknown) => void)(pi);
      assertEquals(handlers.size, 0);
    } finally {
      await h.cleanup();
    }
  },
});
