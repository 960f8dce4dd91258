/**
 * POSIX shell words: quoting a path into a command string, and splitting a
 * command string back into words, so tma recognises its own hook entries
 * whatever wrapper path an older install wrote.
 * @module
 */

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes one word for a POSIX shell; a word of safe characters stays bare.
 *
 * ```ts
 * shellQuote("/usr/bin/tma"); // "/usr/bin/tma"
 * shellQuote("/a b/it's"); // "'/a b/it'\\''s'"
 * ```
 */
export function shellQuote(word: string): string {
  if (word !== "" && SAFE.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Always single-quotes (for paths embedded in longer scripts). */
export function shellQuoteAlways(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Splits a simple command line into words: whitespace separates, single and
 * double quotes and backslashes are honoured. Returns `undefined` when the
 * line uses anything beyond a plain word list (operators, substitutions,
 * unbalanced quotes), which is never a command tma wrote.
 *
 * ```ts
 * splitShellWords("'/a b/tma-hook' claude Stop"); // ["/a b/tma-hook", "claude", "Stop"]
 * ```
 */
export function splitShellWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) return undefined;
      word += line.slice(i + 1, close);
      inWord = true;
      i = close;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && j + 1 < line.length && '"\\$`'.includes(line[j + 1])) j++;
        else if (line[j] === "$" || line[j] === "`") return undefined;
        word += line[j];
      }
      if (j >= line.length) return undefined;
      inWord = true;
      i = j;
    } else if (c === "\\") {
      if (i + 1 >= line.length) return undefined;
      word += line[++i];
      inWord = true;
    } else if (c === " " || c === "\t") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else if (";&|<>()$`\n".includes(c) || (c === "#" && !inWord)) {
      return undefined;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The last path segment. */
export function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** Everything before the last path segment (`.` for a bare name). */
export function dirName(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const cut = trimmed.lastIndexOf("/");
  if (cut < 0) return ".";
  return cut === 0 ? "/" : trimmed.slice(0, cut);
}
