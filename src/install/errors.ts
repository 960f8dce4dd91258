/**
 * The errors `tma install-hooks` reports: each names the file (and line,
 * where there is one), what is wrong and what to do. All end the command
 * with exit 1 and leave every file untouched.
 * @module
 */
import { EXIT, TmaError } from "../core/errors.ts";

/** A refusal or a file tma cannot safely edit. Exit 1. */
export class InstallError extends TmaError {
  /** The file the problem is in, when there is one. */
  readonly path?: string;

  constructor(message: string, path?: string) {
    super(message, EXIT.runtime);
    this.name = "InstallError";
    this.path = path;
  }
}

/**
 * A settings file that does not parse. Its message carries the path and the
 * 1-based line and column of the first error.
 *
 * ```ts
 * new SettingsParseError("/h/.claude/settings.json", 3, 7, "ValueExpected");
 * ```
 */
export class SettingsParseError extends InstallError {
  readonly line: number;
  readonly column: number;

  constructor(path: string, line: number, column: number, problem: string) {
    super(
      `${path}:${line}:${column}: ${problem}; fix the file (tma left it untouched) and rerun`,
      path,
    );
    this.name = "SettingsParseError";
    this.line = line;
    this.column = column;
  }
}
