/**
 * User manifest patterns, matched in linear time: the JavaScript (u mode)
 * source is checked by the native parser, read into a tree, printed in RE2
 * syntax with the same meaning and compiled by re2js, so no pane text, title
 * or payload can make a user's pattern take more than linear time (R10, R11).
 * What RE2 cannot run (lookarounds, backreferences) is refused with a
 * message that says so.
 *
 * ```ts
 * import { compileLinear } from "./linear.ts";
 * compileLinear("(a+)+$").test("a".repeat(40) + "!"); // false, at once
 * ```
 * @module
 */
import { RE2JS } from "../../deps/re2js.ts";
import type { TextPattern } from "./pattern.ts";
import { re2Source } from "./re2.ts";
import { parseRegex, UnsupportedRegexError } from "./syntax.ts";

/** A pattern tma cannot compile; the message says what is wrong and what to do. */
export class PatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PatternError";
  }
}

/** A pattern compiled for the linear-time engine. */
class LinearPattern implements TextPattern {
  readonly flags = "u";
  readonly #re: ReturnType<typeof RE2JS.compile>;

  constructor(readonly source: string, re2: string) {
    this.#re = RE2JS.compile(re2);
  }

  test(text: string): boolean {
    return this.#re.test(text);
  }
}

/**
 * Compiles a manifest pattern for the linear-time engine. Throws
 * {@linkcode PatternError} for a source that is not a valid u-mode
 * JavaScript regex or that uses what RE2 cannot run.
 */
export function compileLinear(source: string): TextPattern {
  let native: RegExp;
  try {
    native = new RegExp(source, "u"); // syntax only: compiling matches nothing
  } catch (error) {
    const why = error instanceof Error
      ? error.message.replace(/^Invalid regular expression: /, "")
      : String(error);
    throw new PatternError(
      `invalid regex ${JSON.stringify(source)} (${why}); fix the pattern ` +
        "(JavaScript syntax, compiled with the u flag)",
    );
  }
  try {
    // `source` as a RegExp spells it (`/` escaped), so both engines encode alike.
    return new LinearPattern(native.source, re2Source(parseRegex(source)));
  } catch (error) {
    if (error instanceof UnsupportedRegexError) {
      throw new PatternError(
        `regex ${JSON.stringify(source)} ${error.message} (tma matches user patterns with a ` +
          "linear-time engine, so no screen or payload can stall it)",
      );
    }
    const why = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : "";
    throw new PatternError(
      `regex ${JSON.stringify(source)} cannot run on the linear-time engine (${why}); ` +
        "simplify the pattern",
    );
  }
}
