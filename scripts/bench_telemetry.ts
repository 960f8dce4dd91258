/**
 * Benchmarks the Codex telemetry read (I29): the time to get a reading from a
 * 1 MiB and a 50 MiB rollout file, which should be the same, since only the
 * tail is read. Files are generated in a temp dir and deleted after.
 *
 * ```sh
 * deno run --allow-read --allow-write scripts/bench_telemetry.ts
 * ```
 * @module
 */
import { readRolloutTail, RolloutMemo } from "../src/runtime/telemetry/codex_rollout.ts";
import { spread } from "./bench_pairs.ts";

const RUNS = 15;
/** Untimed runs first, so the JIT warms up on neither file's account. */
const WARMUP_RUNS = 10;
const KIB = 1024;
const MIB = 1024 * KIB;
const SESSION = "019fa1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b";
const NOW = 1_785_000_000_000;

function fillerBlock(): Uint8Array {
  const head = '{"timestamp":"2026-07-25T18:03:01.884Z","type":"response_item","payload":' +
    '{"type":"message","role":"assistant","content":[{"type":"output_text","text":"';
  const tail = '"}]}}\n';
  const line = head + "x".repeat(KIB - head.length - tail.length) + tail;
  return new TextEncoder().encode(line.repeat(64));
}

function closingLines(): Uint8Array {
  const turn = JSON.stringify({
    timestamp: "2026-07-25T18:05:00.000Z",
    type: "turn_context",
    payload: { cwd: "/tmp", model: "gpt-5-codex" },
  });
  const count = JSON.stringify({
    timestamp: "2026-07-25T18:05:12.481Z",
    type: "event_msg",
    payload: {
      type: "token_count",
      info: {
        total_token_usage: { input_tokens: 151234, output_tokens: 4820, total_tokens: 156054 },
        last_token_usage: { input_tokens: 151234, output_tokens: 1204, total_tokens: 152438 },
        model_context_window: 272000,
      },
      rate_limits: {
        primary: { used_percent: 12, window_minutes: 300, resets_at: 1_785_007_200 },
        secondary: { used_percent: 64, window_minutes: 10080, resets_at: 1_785_427_200 },
      },
    },
  });
  return new TextEncoder().encode(`${turn}\n${count}\n`);
}

/** Writes a rollout of about `bytes` bytes whose newest token_count sits at the end. */
async function writeRollout(path: string, bytes: number): Promise<void> {
  const block = fillerBlock();
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  try {
    for (let written = 0; written + block.length <= bytes; written += block.length) {
      await writeAll(file, block);
    }
    await writeAll(file, closingLines());
  } finally {
    file.close();
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let done = 0;
  while (done < bytes.length) done += await file.write(bytes.subarray(done));
}

async function coldRead(path: string): Promise<number> {
  const t0 = performance.now();
  const got = await readRolloutTail(path, { nowMs: NOW, memo: new RolloutMemo() });
  const ms = performance.now() - t0;
  if (got?.reading.contextPct === undefined) {
    throw new Error(`bench_telemetry: no gauge read from ${path}; the generator is broken`);
  }
  return ms;
}

async function memoHitRead(path: string, memo: RolloutMemo): Promise<number> {
  const t0 = performance.now();
  const got = await readRolloutTail(path, { nowMs: NOW, memo });
  const ms = performance.now() - t0;
  if (got?.memoHit !== true) throw new Error(`bench_telemetry: expected a memo hit on ${path}`);
  return ms;
}

/**
 * Runs the benchmark and returns median milliseconds by metric name:
 * `codex_tail_1mib_ms`, `codex_tail_50mib_ms` (cold reads, a fresh memo each
 * run) and `codex_tail_1mib_memo_hit_ms`, `codex_tail_50mib_memo_hit_ms`.
 *
 * ```ts
 * import { benchTelemetry } from "./bench_telemetry.ts";
 * const results = await benchTelemetry();
 * ```
 */
export async function benchTelemetry(): Promise<Record<string, number>> {
  const dir = await Deno.makeTempDir({ prefix: "tma-bench-telemetry-" });
  try {
    const sizes = [1, 50];
    const paths = sizes.map((mib) => `${dir}/rollout-2026-07-25T18-02-41-${SESSION}-${mib}.jsonl`);
    for (const [i, mib] of sizes.entries()) await writeRollout(paths[i], mib * MIB);

    // Runs alternate between the files, so neither pays for the JIT warming up.
    const memo = new RolloutMemo();
    for (let run = 0; run < WARMUP_RUNS; run++) {
      for (const path of paths) {
        await coldRead(path);
        await readRolloutTail(path, { nowMs: NOW, memo });
      }
    }
    const cold: number[][] = paths.map(() => []);
    const warm: number[][] = paths.map(() => []);
    for (let run = 0; run < RUNS; run++) {
      for (const [i, path] of paths.entries()) {
        cold[i].push(await coldRead(path));
        warm[i].push(await memoHitRead(path, memo));
      }
    }

    const results: Record<string, number> = {};
    for (const [i, mib] of sizes.entries()) {
      results[`codex_tail_${mib}mib_ms`] = spread(cold[i]).median;
      results[`codex_tail_${mib}mib_memo_hit_ms`] = spread(warm[i]).median;
    }
    return results;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function formatMs(ms: number): string {
  return `${ms.toFixed(3)} ms`.padStart(12);
}

if (import.meta.main) {
  const r = await benchTelemetry();
  console.log(`codex rollout tail read, median of ${RUNS} runs`);
  console.log(`${"".padEnd(10)}${"1 MiB".padStart(12)}${"50 MiB".padStart(12)}`);
  console.log(
    `${"cold".padEnd(10)}${formatMs(r.codex_tail_1mib_ms)}${formatMs(r.codex_tail_50mib_ms)}`,
  );
  console.log(
    `${"memo hit".padEnd(10)}${formatMs(r.codex_tail_1mib_memo_hit_ms)}${
      formatMs(r.codex_tail_50mib_memo_hit_ms)
    }`,
  );
}
