/**
 * The OpenCode API lane: one HTTP POST to the v1 plane per action, bounded by
 * the action's `timeout_ms`, never retried and never followed by keystrokes
 * (A27-A30). A 2xx on a request the server was holding open is `replied`; a
 * 404 means the request was already answered or withdrawn.
 *
 * ```ts
 * const call = apiCall({ op: "permission-reply", reply: "once" }, {
 *   endpoint: "http://127.0.0.1:4096", permissionRequest: "per_1", questionRequest: null,
 * });
 * call.url; // "http://127.0.0.1:4096/permission/per_1/reply"
 * ```
 * @module
 */
import type { ApiOp } from "../core/manifest/action_schema.ts";

/** One HTTP call of the lane. */
export interface ApiCall {
  url: string;
  body: string;
  /** Whether a 2xx proves a held request was answered (`replied`) or only delivery (`sent`). */
  held: boolean;
}

/** What an API op is addressed with. */
export interface ApiTarget {
  /** The server base URL (`@agent_api_endpoint`, else `[api.<agent>] api_base`). */
  endpoint: string;
  permissionRequest: string | null;
  questionRequest: string | null;
  /** `question-reply` only: one list of picked labels per question (A33). */
  answers?: readonly (readonly string[])[];
}

/** Thrown when an op lacks what it is addressed with. */
export class ApiCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ApiCallError";
  }
}

function join(endpoint: string, path: string): string {
  return `${endpoint.replace(/\/+$/, "")}${path}`;
}

/**
 * The v1 request of an op (A27). Ids are path-escaped; the three ops the
 * manifest vocabulary knows all answer a request the server holds open.
 */
export function apiCall(op: ApiOp, target: ApiTarget): ApiCall {
  if (op.op === "permission-reply") {
    if (!target.permissionRequest) {
      throw new ApiCallError("no @agent_permission_request to reply to");
    }
    return {
      url: join(
        target.endpoint,
        `/permission/${encodeURIComponent(target.permissionRequest)}/reply`,
      ),
      body: JSON.stringify({ reply: op.reply }),
      held: true,
    };
  }
  if (!target.questionRequest) throw new ApiCallError("no @agent_question_request to answer");
  const base = `/question/${encodeURIComponent(target.questionRequest)}`;
  if (op.op === "question-reject") {
    return { url: join(target.endpoint, `${base}/reject`), body: "{}", held: true };
  }
  if (!target.answers) {
    throw new ApiCallError("question-reply needs answers (one list of option labels per question)");
  }
  return {
    url: join(target.endpoint, `${base}/reply`),
    body: JSON.stringify({ answers: target.answers }),
    held: true,
  };
}

/** How one POST ended. */
export type ApiEnd =
  | { kind: "ok"; status: number }
  | { kind: "gone"; status: 404 }
  | { kind: "failed"; message: string };

/**
 * Sends one call: connect and total time bounded by `timeoutMs`, no retry.
 * 2xx is `ok`, 404 `gone`, anything else (another status, a refused
 * connection, a timeout) `failed` with a message naming the URL.
 */
export async function postApi(call: ApiCall, timeoutMs: number): Promise<ApiEnd> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(call.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: call.body,
      signal: controller.signal,
      redirect: "manual",
    });
    await response.body?.cancel().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) {
      return { kind: "ok", status: response.status };
    }
    if (response.status === 404) return { kind: "gone", status: 404 };
    return { kind: "failed", message: `POST ${call.url} answered ${response.status}` };
  } catch (error) {
    if (controller.signal.aborted) {
      return { kind: "failed", message: `POST ${call.url} did not answer within ${timeoutMs} ms` };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "failed", message: `POST ${call.url} failed: ${message}` };
  } finally {
    clearTimeout(timer);
  }
}
