/**
 * The terminal the picker and watch draw on: raw mode, the alternate
 * screen, SGR mouse reporting with hover (modes 1003 and 1006, asked for by
 * the surface itself, U31), a hidden cursor, and line-diffed painting so a
 * refresh rewrites only what changed. Everything is undone on close.
 * @module
 */

const ENTER = "\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1006h\x1b[H\x1b[2J";
const LEAVE = "\x1b[?1006l\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[0m\x1b[?25h\x1b[?1049l";

/** A terminal in surface mode. */
export class Terminal {
  #encoder = new TextEncoder();
  #previous: string[] = [];
  #open = false;

  /** Enters raw mode and the alternate screen. */
  open(): void {
    Deno.stdin.setRaw(true);
    this.#write(ENTER);
    this.#open = true;
  }

  /** Leaves the alternate screen and raw mode (safe to call twice). */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#write(LEAVE);
    try {
      Deno.stdin.setRaw(false);
    } catch {
      // The terminal is gone (its pane was killed).
    }
  }

  /** The size in cells. */
  size(): { width: number; height: number } {
    try {
      const { columns, rows } = Deno.consoleSize();
      return { width: columns, height: rows };
    } catch {
      return { width: 80, height: 24 };
    }
  }

  /** Forgets the last frame, so the next paint rewrites every line (after a resize). */
  invalidate(): void {
    this.#previous = [];
    this.#write("\x1b[H\x1b[2J");
  }

  /** Paints a frame, rewriting only the lines that changed. */
  paint(lines: readonly string[]): void {
    let out = "\x1b[?2026h";
    for (let i = 0; i < Math.max(lines.length, this.#previous.length); i++) {
      const line = lines[i] ?? "";
      if (line === this.#previous[i]) continue;
      // Erase first: an erase after a full-width line would eat its last cell.
      out += `\x1b[${i + 1};1H\x1b[0m\x1b[2K${line}\x1b[0m`;
    }
    out += "\x1b[?2026l";
    this.#previous = [...lines];
    this.#write(out);
  }

  #write(text: string): void {
    try {
      const bytes = this.#encoder.encode(text);
      let written = 0;
      while (written < bytes.length) written += Deno.stdout.writeSync(bytes.subarray(written));
    } catch {
      // The terminal is gone; the surface is about to end.
    }
  }
}
