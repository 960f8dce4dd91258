/**
 * A waiter's snapshots on a scratch server: the process table is reused
 * while the panes show no process change, and taken afresh when one does or
 * when it is too old.
 * @module
 */
import { assert, assertStrictEquals } from "./harness/assert.ts";
import { tmuxTest } from "./harness/tmux.ts";
import { WaiterSnapshots } from "../src/runtime/waiter_snapshot.ts";

tmuxTest(
  "WaiterSnapshots D52: reuses ps while the panes are unchanged, not after a change or the age limit",
  async (t) => {
    let clock = Date.now();
    const snapshots = new WaiterSnapshots(t.server, { reuseMs: 5000, now: () => clock });
    const first = await (await snapshots.next()).processes;
    clock += 1000;
    assertStrictEquals(await (await snapshots.next()).processes, first);
    await t.newWindow(["sh", "-c", "sleep 3600"]);
    clock += 1000;
    const afterChange = await (await snapshots.next()).processes;
    assert(afterChange !== first, "a new pane takes a fresh table");
    clock += 1000;
    assertStrictEquals(await (await snapshots.next()).processes, afterChange);
    clock += 5000;
    assert(
      (await (await snapshots.next()).processes) !== afterChange,
      "an old table is not reused",
    );
  },
);
