import { assertEquals } from "../../../tests/harness/assert.ts";
import type { ClientFacts } from "../client.ts";
import { commandFor, messageClients, userIsLooking } from "./route.ts";

Deno.test("commandFor() G12 G17 G18: TMA_NOTIFY_CMD, then the trigger's own, then [notify] command", () => {
  const routes = {
    command: "all",
    done: { command: "done-cmd" },
    context_high: { command: "ctx" },
  };
  assertEquals(commandFor("done", routes, undefined), "done-cmd");
  assertEquals(commandFor("blocked", routes, undefined), "all");
  assertEquals(commandFor("context_high", routes, undefined), "ctx");
  assertEquals(commandFor("done", routes, "env-cmd"), "env-cmd");
  assertEquals(commandFor("blocked", {}, undefined), null);
  assertEquals(commandFor("blocked", { blocked: {} }, ""), null);
});

const T = 1_785_100_000_000;
const client = (extra: Partial<ClientFacts>): ClientFacts => ({
  name: "/dev/pts/1",
  sessionName: "work",
  sessionId: "$0",
  pane: "%3",
  activitySec: T / 1000,
  controlMode: false,
  ...extra,
});

Deno.test("userIsLooking() X5: a client showing the pane with recent input; off at 0", () => {
  const ctx = { pane: "%3", nowMs: T + 10_000, lookingSecs: 30 };
  assertEquals(userIsLooking([client({})], ctx), true);
  assertEquals(userIsLooking([client({ pane: "%4" })], ctx), false);
  assertEquals(userIsLooking([client({ activitySec: T / 1000 - 60 })], ctx), false);
  assertEquals(userIsLooking([client({ controlMode: true })], ctx), false);
  assertEquals(userIsLooking([client({})], { ...ctx, lookingSecs: 0 }), false);
});

Deno.test("messageClients() U19: every attached client but control-mode ones", () => {
  assertEquals(messageClients([client({}), client({ name: "ctl", controlMode: true })]), [
    "/dev/pts/1",
  ]);
});
