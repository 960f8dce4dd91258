/**
 * The two ways a telemetry read is refused. Either way the caller stamps
 * nothing: absent beats wrong (R24).
 * @module
 */
import { TmaError } from "../errors.ts";
import { TELEMETRY_FORMATS } from "./reading.ts";

/**
 * A `[telemetry.context]` block names a format no parser is compiled in for.
 * Manifests accept any format at load and are refused here, at read time (M23).
 *
 * ```ts
 * import { UnknownFormatError } from "./errors.ts";
 * new UnknownFormatError("claude-json").message;
 * ```
 */
export class UnknownFormatError extends TmaError {
  /** The format id that was asked for. */
  readonly format: string;

  constructor(format: string) {
    super(
      `unknown telemetry format "${format}" in [telemetry.context] format; ` +
        `use one of ${TELEMETRY_FORMATS.join(", ")}, or remove the block`,
    );
    this.name = "UnknownFormatError";
    this.format = format;
  }
}

/**
 * A payload is not the document its format describes (not JSON, or not a JSON
 * object). The caller changes nothing.
 *
 * ```ts
 * import { MalformedPayloadError } from "./errors.ts";
 * new MalformedPayloadError("pi-context-json", "not JSON").message;
 * ```
 */
export class MalformedPayloadError extends TmaError {
  /** The format whose parser refused the payload. */
  readonly format: string;

  constructor(format: string, reason: string) {
    super(`malformed ${format} payload: ${reason}; the stored telemetry is left unchanged`);
    this.name = "MalformedPayloadError";
    this.format = format;
  }
}
