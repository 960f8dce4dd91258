import {
  assert,
  assertEquals,
  assertStrictEquals,
  assertThrows,
} from "../../../tests/harness/assert.ts";
import {
  findRolloutFile,
  readCodexTelemetry,
  readRolloutTail,
  resolveCodexHome,
  RolloutMemo,
  TAIL_CHUNK_BYTES,
  TAIL_LIMIT_BYTES,
} from "./codex_rollout.ts";

const SESSION = "019fa1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b";
const OTHER = "019fa1b2-9999-7e5f-8a9b-0c1d2e3f4a5b";
const NOW = 1_785_000_000_000;
const FUTURE_S = 1_785_007_200;
const KIB = 1024;
const MIB = 1024 * KIB;
const encoder = new TextEncoder();

/** A rollout line padded to exactly `bytes` bytes, newline included. */
function fillerLine(bytes: number): string {
  const head = '{"timestamp":"2026-07-25T18:03:01.884Z","type":"response_item","payload":' +
    '{"type":"message","role":"assistant","content":[{"type":"output_text","text":"';
  const tail = '"}]}}\n';
  return head + "x".repeat(bytes - head.length - tail.length) + tail;
}

const FILLER_1K = fillerLine(KIB);
const BLOCK_64K = FILLER_1K.repeat(64);

function tokenCountLine(input: number, output: number, usedPercent = 30): string {
  return JSON.stringify({
    timestamp: "2026-07-25T18:05:12.481Z",
    type: "event_msg",
    payload: {
      type: "token_count",
      info: {
        total_token_usage: {
          input_tokens: input,
          output_tokens: output,
          total_tokens: input + output,
        },
        last_token_usage: { input_tokens: input, output_tokens: 10, total_tokens: input + 10 },
        model_context_window: 272000,
      },
      rate_limits: {
        primary: { used_percent: usedPercent, window_minutes: 300, resets_at: FUTURE_S },
        secondary: null,
      },
    },
  }) + "\n";
}

function turnContextLine(model: string): string {
  return JSON.stringify({
    timestamp: "2026-07-25T18:02:55.210Z",
    type: "turn_context",
    payload: { cwd: "/tmp", model },
  }) + "\n";
}

/** Writes `blocks64k` filler blocks, then `tail` (already newline-terminated lines). */
async function writeRollout(
  path: string,
  parts: { before?: string; blocks64k: number; tail: string },
) {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  try {
    if (parts.before) await file.write(encoder.encode(parts.before));
    const block = encoder.encode(BLOCK_64K);
    for (let i = 0; i < parts.blocks64k; i++) await writeAll(file, block);
    await writeAll(file, encoder.encode(parts.tail));
  } finally {
    file.close();
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array) {
  let done = 0;
  while (done < bytes.length) done += await file.write(bytes.subarray(done));
}

async function withCodexHome(fn: (codexHome: string, dayDir: string) => Promise<void>) {
  const codexHome = await Deno.makeTempDir({ prefix: "tma-codex-" });
  const dayDir = `${codexHome}/sessions/2026/07/25`;
  await Deno.mkdir(dayDir, { recursive: true });
  try {
    await fn(codexHome, dayDir);
  } finally {
    await Deno.remove(codexHome, { recursive: true });
  }
}

function rolloutName(session: string, time = "18-02-41"): string {
  return `rollout-2026-07-25T${time}-${session}.jsonl`;
}

Deno.test("readCodexTelemetry() I29: a 5 MiB rollout with token_count near the end reads only the last 64 KiB", async () => {
  await withCodexHome(async (_home, dayDir) => {
    const path = `${dayDir}/${rolloutName(SESSION)}`;
    await writeRollout(path, {
      before: turnContextLine("gpt-5-codex"),
      blocks64k: 80,
      tail: turnContextLine("gpt-5.1-codex") + tokenCountLine(130000, 6000, 41) +
        FILLER_1K.repeat(3),
    });
    const got = await readRolloutTail(path, { nowMs: NOW, memo: new RolloutMemo() });
    assert(got !== null);
    assert(got.sizeBytes > 5 * MIB);
    assertStrictEquals(got.bytesRead, TAIL_CHUNK_BYTES);
    assertStrictEquals(got.memoHit, false);
    assertEquals(got.reading, {
      contextPct: 50,
      model: "gpt-5.1-codex",
      quota: { pct: 41, window: "primary", resetsAtMs: FUTURE_S * 1000 },
    });
    const stat = await Deno.stat(path);
    assertStrictEquals(got.evidenceMs, stat.mtime?.getTime());
  });
});

Deno.test("readCodexTelemetry() I29: a token_count 800 KiB from the end is found by stepping back", async () => {
  await withCodexHome(async (_home, dayDir) => {
    const path = `${dayDir}/${rolloutName(SESSION)}`;
    await writeRollout(path, {
      blocks64k: 60,
      tail: tokenCountLine(100000, 2000) + FILLER_1K.repeat(800),
    });
    const got = await readRolloutTail(path, { nowMs: NOW, memo: new RolloutMemo() });
    assert(got !== null);
    // (100000 + 2000) / 272000 = 37.5%
    assertStrictEquals(got.reading.contextPct, 38);
    assertStrictEquals(got.bytesRead, 13 * TAIL_CHUNK_BYTES);
    assertStrictEquals("tokens" in got.reading, false);
  });
});

Deno.test("readCodexTelemetry() I29: with no token_count the scan stops at 1 MiB and stamps no gauge", async () => {
  await withCodexHome(async (_home, dayDir) => {
    const path = `${dayDir}/${rolloutName(SESSION)}`;
    await writeRollout(path, { before: turnContextLine("gpt-5-codex"), blocks64k: 80, tail: "" });
    const got = await readRolloutTail(path, { nowMs: NOW, memo: new RolloutMemo() });
    assert(got !== null);
    assertEquals(got.reading, {});
    assertStrictEquals(got.bytesRead, TAIL_LIMIT_BYTES);
    assert(got.sizeBytes > 4 * got.bytesRead, "never reads the whole file");
  });
});

Deno.test("readCodexTelemetry() I29: a token_count beyond 1 MiB from the end is a miss", async () => {
  await withCodexHome(async (_home, dayDir) => {
    const path = `${dayDir}/${rolloutName(SESSION)}`;
    await writeRollout(path, {
      blocks64k: 4,
      tail: tokenCountLine(100000, 2000) + FILLER_1K.repeat(1100),
    });
    const got = await readRolloutTail(path, { nowMs: NOW, memo: new RolloutMemo() });
    assert(got !== null);
    assertStrictEquals("contextPct" in got.reading, false);
    assertStrictEquals(got.bytesRead, TAIL_LIMIT_BYTES);
  });
});

Deno.test("readCodexTelemetry() I29: a record straddling a 64 KiB step is joined back together", async () => {
  await withCodexHome(async (_home, dayDir) => {
    const path = `${dayDir}/${rolloutName(SESSION)}`;
    const record = tokenCountLine(54400, 0);
    // Put the 64 KiB boundary in the middle of the record.
    const after = FILLER_1K.repeat(63) + fillerLine(KIB - Math.floor(record.length / 2));
    await writeRollout(path, { blocks64k: 3, tail: record + after });
    const got = await readRolloutTail(path, { nowMs: NOW, memo: new RolloutMemo() });
    assert(got !== null);
    assertStrictEquals(got.reading.contextPct, 20);
    assertStrictEquals(got.bytesRead, 2 * TAIL_CHUNK_BYTES);
  });
});

Deno.test("readCodexTelemetry() I29: a line longer than a step is carried across steps", async () => {
  await withCodexHome(async (_home, dayDir) => {
    const path = `${dayDir}/${rolloutName(SESSION)}`;
    await writeRollout(path, {
      blocks64k: 2,
      tail: tokenCountLine(54400, 0) + fillerLine(200 * KIB) + FILLER_1K,
    });
    const got = await readRolloutTail(path, { nowMs: NOW, memo: new RolloutMemo() });
    assert(got !== null);
    assertStrictEquals(got.reading.contextPct, 20);
  });
});

Deno.test("readCodexTelemetry() I29: a partial last line (a write in progress) is dropped", async () => {
  await withCodexHome(async (_home, dayDir) => {
    const path = `${dayDir}/${rolloutName(SESSION)}`;
    const newer = tokenCountLine(250000, 9000);
    await writeRollout(path, {
      blocks64k: 1,
      tail: tokenCountLine(54400, 0) + newer.slice(0, newer.length - 40),
    });
    const got = await readRolloutTail(path, { nowMs: NOW, memo: new RolloutMemo() });
    assertStrictEquals(got?.reading.contextPct, 20);
  });
});

Deno.test("readCodexTelemetry() I29: the memo skips an unchanged file and rereads a changed one", async () => {
  await withCodexHome(async (_home, dayDir) => {
    const path = `${dayDir}/${rolloutName(SESSION)}`;
    const memo = new RolloutMemo();
    await writeRollout(path, { blocks64k: 2, tail: tokenCountLine(54400, 0) });
    const first = await readRolloutTail(path, { nowMs: NOW, memo });
    const second = await readRolloutTail(path, { nowMs: NOW + 1000, memo });
    assertStrictEquals(first?.memoHit, false);
    assertStrictEquals(second?.memoHit, true);
    assertStrictEquals(second?.bytesRead, 0);
    assertEquals(second?.reading, first?.reading);

    await Deno.writeTextFile(path, tokenCountLine(108800, 0), { append: true });
    const third = await readRolloutTail(path, { nowMs: NOW + 2000, memo });
    assertStrictEquals(third?.memoHit, false);
    assertStrictEquals(third?.reading.contextPct, 40);
  });
});

Deno.test("readCodexTelemetry() I9: a memoized quota window is still dropped once its reset passes", async () => {
  await withCodexHome(async (_home, dayDir) => {
    const path = `${dayDir}/${rolloutName(SESSION)}`;
    const memo = new RolloutMemo();
    await writeRollout(path, { blocks64k: 0, tail: tokenCountLine(54400, 0, 77) });
    assertStrictEquals((await readRolloutTail(path, { nowMs: NOW, memo }))?.reading.quota?.pct, 77);
    const later = await readRolloutTail(path, { nowMs: FUTURE_S * 1000 + 1, memo });
    assertStrictEquals(later?.memoHit, true);
    assertStrictEquals(later?.reading.quota, undefined);
    assertStrictEquals(later?.reading.contextPct, 20);
  });
});

Deno.test("readCodexTelemetry() I29: a missing file reads as null", async () => {
  await withCodexHome(async (_home, dayDir) => {
    assertStrictEquals(await readRolloutTail(`${dayDir}/nope.jsonl`, { nowMs: NOW }), null);
  });
});

Deno.test("findRolloutFile() I29: globs sessions/YYYY/MM/DD and keeps the newest mtime", async () => {
  await withCodexHome(async (codexHome, dayDir) => {
    const laterDir = `${codexHome}/sessions/2026/07/26`;
    await Deno.mkdir(laterDir, { recursive: true });
    const older = `${laterDir}/${rolloutName(SESSION, "09-00-00")}`;
    const newer = `${dayDir}/${rolloutName(SESSION)}`;
    await Deno.writeTextFile(older, tokenCountLine(1000, 0));
    await Deno.writeTextFile(newer, tokenCountLine(1000, 0));
    await Deno.writeTextFile(`${dayDir}/${rolloutName(OTHER)}`, tokenCountLine(1000, 0));
    await Deno.writeTextFile(`${dayDir}/notes-${SESSION}.jsonl`, "");
    await Deno.mkdir(`${codexHome}/sessions/archive/07/25`, { recursive: true });
    await Deno.writeTextFile(`${codexHome}/sessions/archive/07/25/${rolloutName(SESSION)}`, "");
    await Deno.utime(older, new Date(NOW - 60_000), new Date(NOW - 60_000));
    await Deno.utime(newer, new Date(NOW), new Date(NOW));

    assertStrictEquals(await findRolloutFile(SESSION, { codexHome }), newer);
    await Deno.utime(older, new Date(NOW + 60_000), new Date(NOW + 60_000));
    assertStrictEquals(await findRolloutFile(SESSION, { codexHome }), older);
    assertStrictEquals(
      await findRolloutFile(OTHER, { codexHome }),
      `${dayDir}/${rolloutName(OTHER)}`,
    );
    assertStrictEquals(
      await findRolloutFile("019fa1b2-0000-0000-0000-000000000000", { codexHome }),
      null,
    );
  });
});

Deno.test("findRolloutFile() refuses odd session ids and tolerates a missing tree", async () => {
  await withCodexHome(async (codexHome) => {
    assertStrictEquals(await findRolloutFile("../../etc", { codexHome }), null);
    assertStrictEquals(await findRolloutFile("2026", { codexHome }), null);
    assertStrictEquals(await findRolloutFile(SESSION, { codexHome: `${codexHome}/absent` }), null);
  });
});

Deno.test("resolveCodexHome() prefers codexHome, else <home>/.codex", () => {
  assertStrictEquals(
    resolveCodexHome({ codexHome: "/opt/codex/", home: "/home/me" }),
    "/opt/codex",
  );
  assertStrictEquals(resolveCodexHome({ home: "/home/me" }), "/home/me/.codex");
  assertStrictEquals(resolveCodexHome({ codexHome: "", home: "/home/me/" }), "/home/me/.codex");
  assertThrows(() => resolveCodexHome({}), Error, "codexHome");
});

Deno.test("readCodexTelemetry() I29: finds the file from the session, under home/.codex", async () => {
  const home = await Deno.makeTempDir({ prefix: "tma-home-" });
  try {
    const dayDir = `${home}/.codex/sessions/2026/07/25`;
    await Deno.mkdir(dayDir, { recursive: true });
    const path = `${dayDir}/${rolloutName(SESSION)}`;
    await writeRollout(path, { blocks64k: 1, tail: tokenCountLine(54400, 0) });
    const memo = new RolloutMemo();
    const got = await readCodexTelemetry(SESSION, { home, nowMs: NOW, memo });
    assertStrictEquals(got?.path, path);
    assertStrictEquals(got?.reading.contextPct, 20);
    assertStrictEquals(await readCodexTelemetry(OTHER, { home, nowMs: NOW, memo }), null);

    // The located path is reused; when it vanishes, the tree is walked again.
    await Deno.remove(path);
    const moved = `${dayDir}/${rolloutName(SESSION, "19-00-00")}`;
    await writeRollout(moved, { blocks64k: 0, tail: tokenCountLine(108800, 0) });
    const again = await readCodexTelemetry(SESSION, { home, nowMs: NOW + 1000, memo });
    assertStrictEquals(again?.path, moved);
    assertStrictEquals(again?.reading.contextPct, 40);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("readCodexTelemetry() I29: a located path is re-checked after relocateAfterMs for a newer file", async () => {
  await withCodexHome(async (codexHome, dayDir) => {
    const memo = new RolloutMemo();
    const first = `${dayDir}/${rolloutName(SESSION)}`;
    await writeRollout(first, { blocks64k: 0, tail: tokenCountLine(54400, 0) });
    await Deno.utime(first, new Date(NOW - 10_000), new Date(NOW - 10_000));
    assertStrictEquals(
      (await readCodexTelemetry(SESSION, { codexHome, nowMs: NOW, memo }))?.path,
      first,
    );

    const second = `${dayDir}/${rolloutName(SESSION, "19-00-00")}`;
    await writeRollout(second, { blocks64k: 0, tail: tokenCountLine(108800, 0) });
    const opts = { codexHome, memo, relocateAfterMs: 5000 };
    assertStrictEquals(
      (await readCodexTelemetry(SESSION, { ...opts, nowMs: NOW + 1000 }))?.path,
      first,
    );
    assertStrictEquals(
      (await readCodexTelemetry(SESSION, { ...opts, nowMs: NOW + 6000 }))?.path,
      second,
    );
  });
});
