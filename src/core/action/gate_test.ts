import { assertEquals } from "../../../tests/harness/assert.ts";
import { bundledManifests } from "../../runtime/manifest/load.ts";
import { checkGate, type GateContext, type GateVerdict } from "./gate.ts";
import type { PaneView } from "./view.ts";

const actions = bundledManifests().actions;
const approve = actions.get("approve")!;
const compact = actions.get("compact")!;

function view(over: Partial<PaneView> = {}): PaneView {
  return {
    pane: "%3",
    locator: "main:1.0",
    agent: "claude",
    state: "blocked",
    detail: "permission",
    stampedAt: 1,
    contextPct: null,
    contextAt: null,
    tokens: null,
    tokensAt: null,
    session: null,
    cwd: "/w",
    pid: 42,
    title: "t",
    permissionRequest: null,
    questionRequest: null,
    apiEndpoint: null,
    lock: null,
    height: 40,
    socketPath: "/tmp/s",
    ...over,
  };
}

const ctx: GateContext = { force: false, hasContext: true, endpoint: null };

function gate(
  action: typeof approve,
  v: PaneView,
  context: GateContext = ctx,
): GateVerdict {
  return checkGate(action, { ...context, view: v });
}

function reason(v: GateVerdict): string | null {
  return v.ok ? null : v.refusal.reason;
}

Deno.test("checkGate() A11: identity first: no agent, or an agent the action does not cover, is wrong-agent", () => {
  assertEquals(reason(gate(approve, view({ agent: null }), ctx)), "wrong-agent");
  assertEquals(reason(gate(approve, view({ agent: "pi" }), ctx)), "wrong-agent");
});

Deno.test("checkGate() M34, A17: state and detail gate; --force skips when only", () => {
  assertEquals(gate(approve, view(), ctx).ok, true);
  assertEquals(reason(gate(approve, view({ state: "idle", detail: null }), ctx)), "gated");
  assertEquals(reason(gate(approve, view({ detail: "question" }), ctx)), "gated");
  assertEquals(gate(approve, view({ state: "idle" }), { ...ctx, force: true }).ok, true);
  assertEquals(
    reason(gate(approve, view({ agent: "pi" }), { ...ctx, force: true })),
    "wrong-agent",
  );
});

Deno.test("checkGate() A34: context bounds fail closed; no [telemetry.context] is no-coverage", () => {
  const idle = { state: "idle" as const, detail: null };
  assertEquals(reason(gate(compact, view(idle), ctx)), "gated");
  assertEquals(reason(gate(compact, view({ ...idle, contextPct: 74.9 }), ctx)), "gated");
  assertEquals(gate(compact, view({ ...idle, contextPct: 75 }), ctx).ok, true);
  assertEquals(
    reason(gate(compact, view({ ...idle, contextPct: 90 }), { ...ctx, hasContext: false })),
    "no-coverage",
  );
});

Deno.test("checkGate() A26, A29: transports: Claude's hook lane with an id; the API lane's preconditions", () => {
  const lane = gate(approve, view({ permissionRequest: "tma_1" }), ctx);
  assertEquals(lane.ok && lane.transport, {
    kind: "hook-lane",
    verdict: "allow",
    requestId: "tma_1",
    keys: ["1"],
  });
  const plain = gate(approve, view(), ctx);
  assertEquals(plain.ok && plain.transport, { kind: "keys", keys: ["1"] });
  const oc = view({ agent: "opencode" });
  assertEquals(reason(gate(approve, oc, { ...ctx, endpoint: "http://x" })), "requires-unmet");
  assertEquals(
    reason(gate(approve, { ...oc, permissionRequest: "per_1" }, ctx)),
    "requires-unmet",
  );
  const api = gate(approve, { ...oc, permissionRequest: "per_1" }, {
    ...ctx,
    endpoint: "http://x",
  });
  assertEquals(api.ok && api.transport, {
    kind: "api",
    op: { op: "permission-reply", reply: "once" },
  });
});
