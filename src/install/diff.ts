/**
 * A small unified diff of two texts, line by line: what `install-hooks`
 * prints before it writes anything (I3). Files here are settings files of a
 * few hundred lines, so a plain LCS over the region between the common head
 * and tail is fast enough and keeps the code obvious.
 * @module
 */

/** Options of `unifiedDiff`. */
export interface DiffOptions {
  /** The name printed on the `---`/`+++` lines. */
  path: string;
  /** Lines of context around each change (default 3). */
  context?: number;
}

type Op = { kind: " " | "-" | "+"; line: string; a: number; b: number };

/** Splits a text into lines, keeping a note of a missing final newline. */
function toLines(text: string | null): string[] {
  if (text === null || text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  else lines[lines.length - 1] += "\n\\ No newline at end of file";
  return lines;
}

/** The edit script between two line arrays (LCS over the differing middle). */
function editScript(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const n = midA.length;
  const m = midB.length;
  // lcs[i][j]: LCS length of midA[i..] and midB[j..].
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = midA[i] === midB[j]
        ? lcs[i + 1][j + 1] + 1
        : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const ops: Op[] = [];
  for (let k = 0; k < head; k++) ops.push({ kind: " ", line: a[k], a: k, b: k });
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && midA[i] === midB[j]) {
      ops.push({ kind: " ", line: midA[i], a: head + i, b: head + j });
      i++;
      j++;
    } else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      // Removals first on a tie, so a changed line reads "-old" then "+new".
      ops.push({ kind: "-", line: midA[i], a: head + i, b: head + j });
      i++;
    } else {
      ops.push({ kind: "+", line: midB[j], a: head + i, b: head + j });
      j++;
    }
  }
  for (let k = 0; k < tail; k++) {
    ops.push({
      kind: " ",
      line: a[a.length - tail + k],
      a: a.length - tail + k,
      b: b.length - tail + k,
    });
  }
  return ops;
}

/**
 * The unified diff turning `before` into `after` (`null` = the file is
 * absent), or `""` when they are equal.
 *
 * ```ts
 * unifiedDiff("a\nb\n", "a\nc\n", { path: "x.json" });
 * // "--- x.json\n+++ x.json\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
 * ```
 */
export function unifiedDiff(
  before: string | null,
  after: string | null,
  options: DiffOptions,
): string {
  if (before === after) return "";
  const context = options.context ?? 3;
  const ops = editScript(toLines(before), toLines(after));
  const changed = ops.map((op, index) => op.kind === " " ? -1 : index).filter((i) => i >= 0);
  const out = [
    `--- ${before === null ? "/dev/null" : options.path}`,
    `+++ ${after === null ? "/dev/null" : options.path}`,
  ];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - context);
    let end = Math.min(ops.length, changed[k] + context + 1);
    k++;
    while (k < changed.length && changed[k] - context <= end) {
      end = Math.min(ops.length, changed[k] + context + 1);
      k++;
    }
    const hunk = ops.slice(start, end);
    const aLines = hunk.filter((op) => op.kind !== "+").length;
    const bLines = hunk.filter((op) => op.kind !== "-").length;
    const aStart = aLines === 0 ? hunk[0].a : hunk[0].a + 1;
    const bStart = bLines === 0 ? hunk[0].b : hunk[0].b + 1;
    out.push(`@@ -${aStart},${aLines} +${bStart},${bLines} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
  }
  return out.join("\n") + "\n";
}
