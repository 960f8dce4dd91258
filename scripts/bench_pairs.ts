/**
 * The measuring method of `deno task bench`: every figure is a subject run
 * timed against a reference run made right beside it, pair by pair, and the
 * figure is the median of the pairs' ratios. On a machine whose load drifts
 * (two cores shared by a team), each pair shares the load of its moment; the
 * order within a pair alternates, so neither side always runs on the
 * other's warm-up.
 *
 * The references are the true floors: {@link emptyDeno}, `deno run
 * --no-config --quiet` of an empty file in a temporary folder with no
 * deno.json, and {@link shNoop}, `sh -c :`, the cost of one process.
 *
 * ```ts
 * const floor = await emptyDeno();
 * const pair = await measurePairs(floor.run, { label: "deno --version", once: async () => {} }, 5);
 * pair.ratio.median; // about 1
 * await floor.dispose();
 * ```
 * @module
 */

/** One thing to time: a whole process, usually. */
export interface Run {
  /** What it is, for the report. */
  label: string;
  /** One timed execution. */
  once(): Promise<void>;
  /** Untimed work before each execution (waiting for the next second, resetting state). */
  prepare?(): Promise<void>;
}

/** The quartiles of a list of numbers. */
export interface Spread {
  median: number;
  q1: number;
  q3: number;
}

/** What {@link measurePairs} measured. */
export interface PairResult {
  subject: Run;
  reference: Run;
  pairs: number;
  /** Wall ms of the subject's runs. */
  subjectMs: Spread;
  /** Wall ms of the reference's runs. */
  referenceMs: Spread;
  /** Each pair's subject ms over its reference ms. */
  ratio: Spread;
}

/**
 * The middle of the sorted values (the upper of the two middles for an even
 * count): the single-run figures of the side benches, which take odd counts.
 *
 * ```ts
 * middle([3, 1, 2]); // 2
 * ```
 */
export function middle(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The wall time of one call, in ms. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * The quartiles of `values` (the median of each half, the middle value
 * counted in neither half).
 *
 * ```ts
 * spread([1, 2, 3, 4, 5]); // { median: 3, q1: 1.5, q3: 4.5 }
 * ```
 */
export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { median: NaN, q1: NaN, q3: NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = (list: number[]) => {
    const half = Math.floor(list.length / 2);
    return list.length % 2 === 1 ? list[half] : (list[half - 1] + list[half]) / 2;
  };
  const half = Math.floor(sorted.length / 2);
  const lower = sorted.slice(0, half);
  const upper = sorted.slice(sorted.length % 2 === 1 ? half + 1 : half);
  return {
    median: mid(sorted),
    q1: lower.length > 0 ? mid(lower) : sorted[0],
    q3: upper.length > 0 ? mid(upper) : sorted[0],
  };
}

async function timeOnce(run: Run): Promise<number> {
  await run.prepare?.();
  const start = performance.now();
  await run.once();
  return performance.now() - start;
}

/**
 * Times `subject` against `reference` in `pairs` adjacent pairs, after one
 * untimed warm-up of each (a cold module or code cache is not the figure).
 */
export async function measurePairs(
  reference: Run,
  subject: Run,
  pairs: number,
): Promise<PairResult> {
  await timeOnce(reference);
  await timeOnce(subject);
  const subjectMs: number[] = [];
  const referenceMs: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    let ref: number;
    let sub: number;
    if (i % 2 === 0) {
      ref = await timeOnce(reference);
      sub = await timeOnce(subject);
    } else {
      sub = await timeOnce(subject);
      ref = await timeOnce(reference);
    }
    subjectMs.push(sub);
    referenceMs.push(ref);
    ratios.push(sub / ref);
  }
  return {
    subject,
    reference,
    pairs,
    subjectMs: spread(subjectMs),
    referenceMs: spread(referenceMs),
    ratio: spread(ratios),
  };
}

/** A run of a child process to its end, its output discarded. */
export function processRun(
  label: string,
  program: string,
  options: {
    args?: readonly string[];
    env?: Record<string, string>;
    cwd?: string;
    stdin?: string;
    prepare?: () => Promise<void>;
  } = {},
): Run {
  const stdin = options.stdin === undefined ? undefined : new TextEncoder().encode(options.stdin);
  return {
    label,
    prepare: options.prepare,
    once: async () => {
      const child = new Deno.Command(program, {
        args: [...options.args ?? []],
        env: options.env,
        clearEnv: options.env !== undefined,
        cwd: options.cwd,
        stdin: stdin === undefined ? "null" : "piped",
        stdout: "null",
        stderr: "null",
      }).spawn();
      if (stdin !== undefined) {
        const writer = child.stdin.getWriter();
        await writer.write(stdin);
        await writer.close();
      }
      const status = await child.status;
      if (!status.success) throw new Error(`${label}: exit ${status.code}`);
    },
  };
}

/** A reference that owns a scratch folder. */
export interface Floor {
  run: Run;
  dispose(): Promise<void>;
}

/**
 * The empty-script floor: `deno run --no-config --quiet` of an empty file,
 * run from a temporary folder outside any repository, so Deno reads no
 * deno.json and no lock file first.
 */
export async function emptyDeno(): Promise<Floor> {
  const dir = await Deno.makeTempDir({ prefix: "tma-bench-empty-" });
  const file = `${dir}/empty.ts`;
  await Deno.writeTextFile(file, "\n");
  return {
    run: processRun("deno run --no-config --quiet empty.ts", Deno.execPath(), {
      args: ["run", "--no-config", "--quiet", file],
      cwd: dir,
    }),
    dispose: () => Deno.remove(dir, { recursive: true }).catch(() => undefined),
  };
}

/** The process floor: `sh -c :`. */
export function shNoop(): Run {
  return processRun("sh -c :", "sh", { args: ["-c", ":"] });
}

/** Rounds to two decimals. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * One report line of a pair: the subject, its reference, the median ratio
 * with its quartiles, and the budget when there is one.
 *
 * ```ts
 * // "hook fire: 71 ms / empty deno script 52 ms = 1.37 (q1-q3 1.30-1.45; budget 1.5: met)"
 * ```
 */
export function describePair(result: PairResult, budget?: number): string {
  const verdict = budget === undefined
    ? ""
    : `; budget ${budget}: ${result.ratio.median <= budget ? "met" : "NOT MET"}`;
  return `${result.subject.label}: ${Math.round(result.subjectMs.median)} ms / ` +
    `${result.reference.label} ${Math.round(result.referenceMs.median)} ms = ` +
    `${round2(result.ratio.median).toFixed(2)} (q1-q3 ${round2(result.ratio.q1).toFixed(2)}-` +
    `${round2(result.ratio.q3).toFixed(2)}, ${result.pairs} pairs${verdict})`;
}
