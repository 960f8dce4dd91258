/**
 * The streamed bytes of each API the mock model speaks, as a list of timed steps.
 *
 * A {@link Step} says how long to wait and what to send next, so the event framing of every API
 * is a pure function of a {@link Script} and can be tested without a server. The framing follows
 * real-agents.md ("What the mock model server must speak"): Anthropic and Responses send an
 * `event:` line plus a `data:` line whose JSON `type` repeats the name; Chat Completions sends
 * `data:` lines only and ends with `data: [DONE]`; Gemini sends `data:` lines, each a whole
 * generateContent response, and ends by closing the stream.
 *
 * ```ts
 * import { anthropicSteps } from "./mock_frames.ts";
 * import { scriptAnthropic } from "./mock_script.ts";
 * const steps = anthropicSteps(scriptAnthropic({ messages: [] }), { model: "m" });
 * ```
 * @module
 */

import { type Script, toolArguments } from "./mock_script.ts";

/** One piece of a streamed reply: wait `delayMs`, then send `chunk`. */
export interface Step {
  /** Milliseconds to wait before sending. */
  delayMs: number;
  /** The bytes to send, already framed. */
  chunk: string;
}

/** The pacing of replies. The defaults are the probe's; tests may shorten them. */
export interface Pacing {
  /** Gap between pieces of an ordinary reply. */
  fastGapMs: number;
  /** Total time a `slow` text reply takes. */
  slowTotalMs: number;
  /** The smallest gap between pieces of a `slow` reply. */
  slowMinGapMs: number;
  /** Pause before a `slow` tool call. */
  slowToolDelayMs: number;
}

/** The probe's pacing: 20 ms gaps, about 10 s for a slow reply, 6 s before a slow tool call. */
export const DEFAULT_PACING: Readonly<Pacing> = {
  fastGapMs: 20,
  slowTotalMs: 10_000,
  slowMinGapMs: 300,
  slowToolDelayMs: 6_000,
};

/** What every framer needs besides the script. */
export interface FrameOptions {
  /** The model name to echo back. */
  model: string;
  /** Pacing; {@link DEFAULT_PACING} when absent. */
  pacing?: Pacing;
  /** Unix seconds for `created` fields; the current time when absent. */
  nowSeconds?: number;
}

/** Splits a reply after each space: one piece per event, as the probe did. */
export function pieces(text: string): string[] {
  return text.split(/(?<= )/);
}

/** The gap between pieces of a reply. */
function gapMs(script: Script, count: number, pacing: Pacing): number {
  if (!script.slow) return pacing.fastGapMs;
  return Math.max(pacing.slowMinGapMs, Math.round(pacing.slowTotalMs / Math.max(1, count)));
}

function replyText(script: Script): string {
  return script.kind === "tool" ? "" : script.text;
}

function randomId(prefix: string): string {
  return `${prefix}${crypto.randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

function seconds(options: FrameOptions): number {
  return options.nowSeconds ?? Math.floor(Date.now() / 1000);
}

/** A rough token count: enough for usage fields that must be integers. */
function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function sse(event: string, data: Record<string, unknown>): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function dataLine(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** Anthropic Messages streaming events (Claude Code). */
export function anthropicSteps(script: Script, options: FrameOptions): Step[] {
  const pacing = options.pacing ?? DEFAULT_PACING;
  const event = (type: string, fields: Record<string, unknown>) => sse(type, { type, ...fields });
  const steps: Step[] = [{
    delayMs: 0,
    chunk: event("message_start", {
      message: {
        id: randomId("msg_"),
        type: "message",
        role: "assistant",
        model: options.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: 12,
          output_tokens: 1,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      },
    }),
  }];
  let stopReason = "end_turn";
  let outputTokens: number;
  if (script.kind === "tool") {
    stopReason = "tool_use";
    const input = JSON.stringify(toolArguments(script.tool, "anthropic"));
    outputTokens = tokens(input);
    steps.push(
      {
        delayMs: script.slow ? pacing.slowToolDelayMs : pacing.fastGapMs,
        chunk: event("content_block_start", {
          index: 0,
          content_block: { type: "tool_use", id: randomId("toolu_"), name: script.tool, input: {} },
        }),
      },
      {
        delayMs: 0,
        chunk: event("content_block_delta", {
          index: 0,
          delta: { type: "input_json_delta", partial_json: input },
        }),
      },
    );
  } else {
    const parts = pieces(replyText(script));
    const gap = gapMs(script, parts.length, pacing);
    outputTokens = tokens(replyText(script));
    steps.push({
      delayMs: 0,
      chunk: event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
    });
    for (const text of parts) {
      steps.push({
        delayMs: gap,
        chunk: event("content_block_delta", { index: 0, delta: { type: "text_delta", text } }),
      });
    }
  }
  steps.push(
    { delayMs: 0, chunk: event("content_block_stop", { index: 0 }) },
    {
      delayMs: 0,
      chunk: event("message_delta", {
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: outputTokens },
      }),
    },
    { delayMs: 0, chunk: event("message_stop", {}) },
  );
  return steps;
}

/** The non-streaming Anthropic answer: one message object. */
export function anthropicMessage(script: Script, options: FrameOptions): Record<string, unknown> {
  const content = script.kind === "tool"
    ? [{
      type: "tool_use",
      id: randomId("toolu_"),
      name: script.tool,
      input: toolArguments(script.tool, "anthropic"),
    }]
    : [{ type: "text", text: script.text }];
  return {
    id: randomId("msg_"),
    type: "message",
    role: "assistant",
    model: options.model,
    content,
    stop_reason: script.kind === "tool" ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: tokens(JSON.stringify(content)) },
  };
}

/** The `response` object of a Responses stream, before or after its output. */
function responseObject(
  id: string,
  options: FrameOptions,
  finished?: { output: unknown[]; outputTokens: number },
): Record<string, unknown> {
  return {
    id,
    object: "response",
    created_at: seconds(options),
    status: finished ? "completed" : "in_progress",
    model: options.model,
    output: finished ? finished.output : [],
    usage: finished
      ? {
        input_tokens: 12,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: finished.outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 12 + finished.outputTokens,
      }
      : null,
  };
}

/** The finished output item of a Responses reply, for the non-streaming answer. */
function responsesItem(script: Script, ids: { item: string; call: string }) {
  if (script.kind === "tool") {
    return {
      type: "function_call",
      id: ids.item,
      call_id: ids.call,
      name: script.tool,
      arguments: JSON.stringify(toolArguments(script.tool, "responses")),
      status: "completed",
    };
  }
  return {
    type: "message",
    id: ids.item,
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: script.text, annotations: [] }],
  };
}

/** OpenAI Responses streaming events (Codex), numbered with `sequence_number`. */
export function responsesSteps(script: Script, options: FrameOptions): Step[] {
  const pacing = options.pacing ?? DEFAULT_PACING;
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>) =>
    sse(type, { type, sequence_number: sequence++, ...fields });
  const responseId = randomId("resp_");
  const steps: Step[] = [{
    delayMs: 0,
    chunk: event("response.created", { response: responseObject(responseId, options) }),
  }];
  const where = { output_index: 0 };
  if (script.kind === "tool") {
    const ids = { item: randomId("fc_"), call: randomId("call_") };
    const finished = responsesItem(script, ids);
    const args = String(finished.arguments);
    steps.push(
      {
        delayMs: script.slow ? pacing.slowToolDelayMs : pacing.fastGapMs,
        chunk: event("response.output_item.added", {
          ...where,
          item: { ...finished, arguments: "", status: "in_progress" },
        }),
      },
      {
        delayMs: 0,
        chunk: event("response.function_call_arguments.delta", {
          item_id: ids.item,
          ...where,
          delta: args,
        }),
      },
      {
        delayMs: 0,
        chunk: event("response.function_call_arguments.done", {
          item_id: ids.item,
          ...where,
          arguments: args,
        }),
      },
      { delayMs: 0, chunk: event("response.output_item.done", { ...where, item: finished }) },
      {
        delayMs: 0,
        chunk: event("response.completed", {
          response: responseObject(responseId, options, {
            output: [finished],
            outputTokens: tokens(args),
          }),
        }),
      },
    );
    return steps;
  }
  const text = replyText(script);
  const ids = { item: randomId("msg_"), call: "" };
  const finished = responsesItem(script, ids);
  const part = { type: "output_text", text, annotations: [] };
  const at = { item_id: ids.item, ...where, content_index: 0 };
  steps.push(
    {
      delayMs: 0,
      chunk: event("response.output_item.added", {
        ...where,
        item: { ...finished, status: "in_progress", content: [] },
      }),
    },
    {
      delayMs: 0,
      chunk: event("response.content_part.added", { ...at, part: { ...part, text: "" } }),
    },
  );
  const parts = pieces(text);
  const gap = gapMs(script, parts.length, pacing);
  for (const delta of parts) {
    steps.push({ delayMs: gap, chunk: event("response.output_text.delta", { ...at, delta }) });
  }
  steps.push(
    { delayMs: 0, chunk: event("response.output_text.done", { ...at, text }) },
    { delayMs: 0, chunk: event("response.content_part.done", { ...at, part }) },
    { delayMs: 0, chunk: event("response.output_item.done", { ...where, item: finished }) },
    {
      delayMs: 0,
      chunk: event("response.completed", {
        response: responseObject(responseId, options, {
          output: [finished],
          outputTokens: tokens(text),
        }),
      }),
    },
  );
  return steps;
}

/** The non-streaming Responses answer: the completed response object. */
export function responsesObject(script: Script, options: FrameOptions): Record<string, unknown> {
  const item = script.kind === "tool"
    ? responsesItem(script, { item: randomId("fc_"), call: randomId("call_") })
    : responsesItem(script, { item: randomId("msg_"), call: "" });
  return responseObject(randomId("resp_"), options, { output: [item], outputTokens: 8 });
}

/** OpenAI Chat Completions streaming chunks (OpenCode, pi), ending with `[DONE]`. */
export function chatSteps(script: Script, options: FrameOptions): Step[] {
  const pacing = options.pacing ?? DEFAULT_PACING;
  const base = {
    id: randomId("chatcmpl-"),
    object: "chat.completion.chunk",
    created: seconds(options),
    model: options.model,
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    dataLine({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const steps: Step[] = [];
  let finish = "stop";
  let completion: number;
  if (script.kind === "tool") {
    finish = "tool_calls";
    const args = JSON.stringify(toolArguments(script.tool, "chat"));
    completion = tokens(args);
    steps.push({
      delayMs: script.slow ? pacing.slowToolDelayMs : 0,
      chunk: chunk({
        role: "assistant",
        tool_calls: [{
          index: 0,
          id: randomId("call_"),
          type: "function",
          function: { name: script.tool, arguments: args },
        }],
      }, null),
    });
  } else {
    const parts = pieces(replyText(script));
    const gap = gapMs(script, parts.length, pacing);
    completion = tokens(replyText(script));
    parts.forEach((content, index) => {
      const delta = index === 0 ? { role: "assistant", content } : { content };
      steps.push({ delayMs: index === 0 ? 0 : gap, chunk: chunk(delta, null) });
    });
  }
  steps.push(
    { delayMs: 0, chunk: chunk({}, finish) },
    {
      delayMs: 0,
      chunk: dataLine({
        ...base,
        choices: [],
        usage: { prompt_tokens: 12, completion_tokens: completion, total_tokens: 12 + completion },
      }),
    },
    { delayMs: 0, chunk: dataLine("[DONE]") },
  );
  return steps;
}

/** The non-streaming Chat Completions answer: one `chat.completion` object. */
export function chatObject(script: Script, options: FrameOptions): Record<string, unknown> {
  const message = script.kind === "tool"
    ? {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: randomId("call_"),
        type: "function",
        function: {
          name: script.tool,
          arguments: JSON.stringify(toolArguments(script.tool, "chat")),
        },
      }],
    }
    : { role: "assistant", content: script.text };
  return {
    id: randomId("chatcmpl-"),
    object: "chat.completion",
    created: seconds(options),
    model: options.model,
    choices: [{
      index: 0,
      message,
      finish_reason: script.kind === "tool" ? "tool_calls" : "stop",
    }],
    usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
  };
}

/** One generateContent response holding `parts`, STOP-finished when `last`. */
export function geminiResponse(
  parts: Record<string, unknown>[],
  options: FrameOptions & { last: boolean },
): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { role: "model", parts }, index: 0 };
  if (options.last) candidate.finishReason = "STOP";
  const output = tokens(JSON.stringify(parts));
  return {
    candidates: [candidate],
    usageMetadata: {
      promptTokenCount: 12,
      candidatesTokenCount: output,
      totalTokenCount: 12 + output,
    },
    modelVersion: options.model,
  };
}

/** The parts of a whole Gemini reply: one text part, or one functionCall part. */
export function geminiParts(script: Script): Record<string, unknown>[] {
  if (script.kind === "tool") {
    return [{ functionCall: { name: script.tool, args: toolArguments(script.tool, "gemini") } }];
  }
  return [{ text: script.text }];
}

/** Gemini `:streamGenerateContent?alt=sse` chunks; the stream ends when it closes. */
export function geminiSteps(script: Script, options: FrameOptions): Step[] {
  const pacing = options.pacing ?? DEFAULT_PACING;
  if (script.kind === "tool") {
    return [{
      delayMs: script.slow ? pacing.slowToolDelayMs : 0,
      chunk: dataLine(geminiResponse(geminiParts(script), { ...options, last: true })),
    }];
  }
  const parts = pieces(script.text);
  const gap = gapMs(script, parts.length, pacing);
  return parts.map((text, index) => ({
    delayMs: index === 0 ? 0 : gap,
    chunk: dataLine(
      geminiResponse([{ text }], { ...options, last: index === parts.length - 1 }),
    ),
  }));
}

/**
 * The answer to Gemini's JSON-mode side calls. Its one text part is itself a JSON object that
 * fills the fields of the router, the complexity classifier and the next-speaker check at once,
 * so whichever of them asks finds what it reads.
 */
export function geminiJsonModeResponse(options: FrameOptions): Record<string, unknown> {
  const verdict = {
    reasoning: "The mock always routes to the flash model.",
    model_choice: "flash",
    complexity_reasoning: "The mock treats every prompt as simple.",
    complexity_score: 1,
    next_speaker: "user",
  };
  return geminiResponse([{ text: JSON.stringify(verdict) }], { ...options, last: true });
}
