import { assertEquals } from "../../tests/harness/assert.ts";
import { argsFromCmdline, parseProcStat, parsePsOutput, snapshotFromProc } from "./ps.ts";

Deno.test("D29: /proc stat lines parse, a comm with spaces and parentheses included", () => {
  assertEquals(parseProcStat("4242 (claude) S 4100 4242 4100 34817 4242 4194560 0 0"), {
    pid: 4242,
    ppid: 4100,
    pgid: 4242,
    tpgid: 4242,
    name: "claude",
    state: "S",
  });
  assertEquals(parseProcStat("7 (my (odd) cmd) R 1 7 7 0 -1 4194560")?.name, "my (odd) cmd");
  assertEquals(parseProcStat("7 (x) R 1 7 7 0 -1")?.tpgid, -1);
  assertEquals(parseProcStat("garbage"), null);
  assertEquals(parseProcStat("7 (x) R one 7 7 0 -1"), null);
});

Deno.test("D29: a command line reads as ps shows it; none shows the bracketed name", () => {
  assertEquals(
    argsFromCmdline("node\0/usr/bin/codex\0--yolo\0", "node"),
    "node /usr/bin/codex --yolo",
  );
  assertEquals(argsFromCmdline("", "kworker/0:2-events", "I"), "[kworker/0:2-events]");
  assertEquals(argsFromCmdline("", "tmux: server", "Z"), "[tmux: server] <defunct>");
});

Deno.test("D29: ps output parses by its header columns, a comm with a space included", () => {
  const text = [
    "    PID    PPID    PGID   TPGID COMM            ARGS",
    "      1       0       1      -1 init            /sbin/init",
    "   4242    4100    4242    4242 Web Content     /usr/lib/firefox -contentproc",
  ].join("\n");
  assertEquals(parsePsOutput(text), [
    { pid: 1, ppid: 0, pgid: 1, tpgid: -1, comm: "init", args: "/sbin/init" },
    {
      pid: 4242,
      ppid: 4100,
      pgid: 4242,
      tpgid: 4242,
      comm: "Web Content",
      args: "/usr/lib/firefox -contentproc",
    },
  ]);
});

Deno.test("D29: a tree without /proc (macOS, a BSD) answers null, so ps is used", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assertEquals(snapshotFromProc(`${dir}/absent`), null);
    // A tree that looks like /proc: a kworker's long name is cut to 15 for comm, kept in args.
    await Deno.mkdir(`${dir}/self`);
    await Deno.writeTextFile(`${dir}/self/stat`, "9 (tma) R 1 9 9 0 -1 0");
    await Deno.mkdir(`${dir}/12`);
    await Deno.writeTextFile(`${dir}/12/stat`, "12 (kworker/u8:2-ext4-rsv) I 2 0 0 0 -1 0");
    await Deno.writeTextFile(`${dir}/12/cmdline`, "");
    await Deno.mkdir(`${dir}/13`);
    await Deno.writeTextFile(`${dir}/13/stat`, "13 (node) S 1 13 13 34816 13 0");
    await Deno.writeTextFile(`${dir}/13/cmdline`, "node\0/opt/gemini\0");
    // A process that exited between the listing and the read is skipped.
    await Deno.mkdir(`${dir}/14`);
    const rows = snapshotFromProc(dir)!.sort((a, b) => a.pid - b.pid);
    assertEquals(rows, [
      {
        pid: 12,
        ppid: 2,
        pgid: 0,
        tpgid: -1,
        comm: "kworker/u8:2-ex",
        args: "[kworker/u8:2-ext4-rsv]",
      },
      { pid: 13, ppid: 1, pgid: 13, tpgid: 13, comm: "node", args: "node /opt/gemini" },
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
