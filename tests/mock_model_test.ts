/**
 * The mock model server of the real-agent suite, driven with fetch: one test per API checks the
 * event framing and the tool-call shapes that real-agents.md says the agents accepted.
 * No `slow` prompts here (they take ten seconds); their pacing is pure and tested on the steps.
 */

import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { startMockModel } from "./e2e/mock_model.ts";
import { anthropicSteps, DEFAULT_PACING, geminiSteps, pieces } from "./e2e/mock_frames.ts";
import {
  DONE_TEXT,
  PROBE_COMMAND,
  PROBE_QUESTION,
  scriptAnthropic,
  scriptChat,
  scriptGemini,
  SHORT_TEXT,
  SLOW_TEXT,
  toolArguments,
} from "./e2e/mock_script.ts";

type Json = Record<string, unknown>;

/** One server-sent event: its `event:` name (if any) and its `data:` text. */
interface SseEvent {
  event?: string;
  data: string;
}

/** Splits an SSE body into events (blank-line separated, `event:` and `data:` fields). */
function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split("\n\n")) {
    if (block.trim() === "") continue;
    const event: SseEvent = { data: "" };
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) event.event = line.slice(7);
      else if (line.startsWith("data: ")) event.data += line.slice(6);
    }
    events.push(event);
  }
  return events;
}

async function post(url: string, body: unknown): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Posts, checks an SSE answer, and returns its events with parsed data. */
async function postSse(url: string, body: unknown): Promise<{ event?: string; json: Json }[]> {
  const response = await post(url, body);
  assertEquals(response.status, 200);
  assertEquals(response.headers.get("content-type"), "text/event-stream");
  return parseSse(await response.text()).map((e) => ({
    event: e.event,
    json: e.data === "[DONE]" ? { done: true } : JSON.parse(e.data),
  }));
}

async function withMock(fn: (url: string) => Promise<void>): Promise<void> {
  const mock = await startMockModel();
  try {
    await fn(mock.url);
  } finally {
    await mock.close();
  }
}

const BASH = { name: "Bash", description: "Run a command", input_schema: { type: "object" } };

Deno.test("mock: Anthropic text reply frames message_start … message_stop", async () => {
  await withMock(async (url) => {
    const events = await postSse(`${url}/v1/messages?beta=true`, {
      model: "claude-test",
      stream: true,
      tools: [BASH],
      messages: [{ role: "user", content: [{ type: "text", text: "hello there" }] }],
    });
    for (const e of events) assertEquals(e.event, e.json.type);
    const types = events.map((e) => e.json.type);
    assertEquals(types[0], "message_start");
    assertEquals(types[1], "content_block_start");
    assertEquals(types.slice(-3), ["content_block_stop", "message_delta", "message_stop"]);
    const message = events[0].json.message as Json;
    assertEquals(message.model, "claude-test");
    assertEquals(message.role, "assistant");
    const text = events
      .filter((e) => e.json.type === "content_block_delta")
      .map((e) => (e.json.delta as Json).text)
      .join("");
    assertEquals(text, SHORT_TEXT);
    assertEquals((events.at(-2)!.json.delta as Json).stop_reason, "end_turn");
  });
});

Deno.test("mock: Anthropic probe-tool calls Bash; the tool_result gets the done text", async () => {
  await withMock(async (url) => {
    const events = await postSse(`${url}/v1/messages`, {
      model: "m",
      stream: true,
      tools: [BASH],
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "<system-reminder>x</system-reminder>" }, {
            type: "text",
            text: "please probe-tool now",
          }],
        },
        { role: "system", content: "an attachment after the prompt" },
      ],
    });
    const start = events.find((e) => e.json.type === "content_block_start")!;
    const block = start.json.content_block as Json;
    assertEquals(block.type, "tool_use");
    assertEquals(block.name, "Bash");
    assertMatch(String(block.id), /^toolu_/);
    const delta = events.find((e) => e.json.type === "content_block_delta")!.json.delta as Json;
    assertEquals(delta.type, "input_json_delta");
    assertEquals(JSON.parse(String(delta.partial_json)).command, PROBE_COMMAND);
    const messageDelta = events.find((e) => e.json.type === "message_delta")!;
    assertEquals((messageDelta.json.delta as Json).stop_reason, "tool_use");

    const after = await postSse(`${url}/v1/messages`, {
      model: "m",
      stream: true,
      tools: [BASH],
      messages: [{
        role: "user",
        content: [{ type: "tool_result", tool_use_id: block.id, content: "", is_error: false }],
      }],
    });
    const text = after
      .filter((e) => e.json.type === "content_block_delta")
      .map((e) => (e.json.delta as Json).text)
      .join("");
    assertEquals(text, DONE_TEXT);
  });
});

Deno.test("mock: a request listing no shell tool gets text even for probe-tool", async () => {
  await withMock(async (url) => {
    const events = await postSse(`${url}/v1/messages`, {
      model: "m",
      stream: true,
      messages: [{ role: "user", content: "title for: probe-tool" }],
    });
    assertEquals((events[1].json.content_block as Json).type, "text");
  });
});

Deno.test("mock: Anthropic non-streaming answer and count_tokens", async () => {
  await withMock(async (url) => {
    const message = await (await post(`${url}/v1/messages`, {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
    })).json();
    assertEquals(message.type, "message");
    assertEquals(message.content[0].text, SHORT_TEXT);
    const count = await (await post(`${url}/v1/messages/count_tokens`, { messages: [] })).json();
    assert(Number.isInteger(count.input_tokens) && count.input_tokens > 0);
  });
});

const EXEC_COMMAND = {
  type: "function",
  name: "exec_command",
  parameters: { type: "object", properties: { cmd: { type: "string" } } },
};

Deno.test("mock: Responses text reply is numbered and ends with response.completed", async () => {
  await withMock(async (url) => {
    const events = await postSse(`${url}/v1/responses`, {
      model: "gpt-test",
      stream: true,
      tools: [EXEC_COMMAND, { type: "namespace", name: "mcp" }],
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }],
    });
    events.forEach((e, index) => {
      assertEquals(e.event, e.json.type);
      assertEquals(e.json.sequence_number, index);
    });
    assertEquals(events.map((e) => e.json.type), [
      "response.created",
      "response.output_item.added",
      "response.content_part.added",
      ...pieces(SHORT_TEXT).map(() => "response.output_text.delta"),
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const created = events[0].json.response as Json;
    assertMatch(String(created.id), /^resp_/);
    assertEquals(created.model, "gpt-test");
    const completed = events.at(-1)!.json.response as Json;
    assertEquals(completed.id, created.id);
    const usage = completed.usage as Json;
    for (const key of ["input_tokens", "output_tokens", "total_tokens"]) {
      assert(Number.isInteger(usage[key]), key);
    }
    const item = events.at(-2)!.json.item as Json;
    assertEquals((item.content as Json[])[0].text, SHORT_TEXT);
  });
});

Deno.test("mock: Responses probe-tool calls exec_command with require_escalated", async () => {
  await withMock(async (url) => {
    const events = await postSse(`${url}/v1/responses`, {
      model: "m",
      stream: true,
      tools: [EXEC_COMMAND],
      input: [{
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: "run probe-tool" }],
      }],
    });
    assertEquals(events.map((e) => e.json.type), [
      "response.created",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const item = events[4].json.item as Json;
    assertEquals(item.type, "function_call");
    assertEquals(item.name, "exec_command");
    assertMatch(String(item.id), /^fc_/);
    assertMatch(String(item.call_id), /^call_/);
    const args = JSON.parse(String(item.arguments));
    assertEquals(args.cmd, PROBE_COMMAND);
    assertEquals(args.sandbox_permissions, "require_escalated");
    assert(typeof args.justification === "string" && args.justification.length > 0);

    const after = await postSse(`${url}/v1/responses`, {
      model: "m",
      stream: true,
      tools: [EXEC_COMMAND],
      input: [{ type: "function_call_output", call_id: item.call_id, output: "ok" }],
    });
    const done = after.find((e) => e.json.type === "response.output_text.done")!;
    assertEquals(done.json.text, DONE_TEXT);
  });
});

const BASH_FUNCTION = {
  type: "function",
  function: { name: "bash", parameters: { type: "object" } },
};

Deno.test("mock: Chat Completions text chunks end with usage and [DONE]", async () => {
  await withMock(async (url) => {
    const events = await postSse(`${url}/v1/chat/completions`, {
      model: "chat-test",
      stream: true,
      tools: [BASH_FUNCTION],
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: [{ type: "text", text: "hello" }] },
      ],
    });
    for (const e of events) assertEquals(e.event, undefined);
    assertEquals(events.at(-1)!.json, { done: true });
    const chunks = events.slice(0, -1).map((e) => e.json);
    for (const chunk of chunks) {
      assertMatch(String(chunk.id), /^chatcmpl-/);
      assertEquals(chunk.object, "chat.completion.chunk");
      assertEquals(chunk.model, "chat-test");
    }
    const usage = chunks.at(-1)!;
    assertEquals(usage.choices, []);
    assert(Number.isInteger((usage.usage as Json).total_tokens));
    const close = (chunks.at(-2)!.choices as Json[])[0];
    assertEquals(close.finish_reason, "stop");
    const first = (chunks[0].choices as Json[])[0].delta as Json;
    assertEquals(first.role, "assistant");
    const text = chunks.slice(0, -2)
      .map((c) => ((c.choices as Json[])[0].delta as Json).content)
      .join("");
    assertEquals(text, SHORT_TEXT);
  });
});

Deno.test("mock: Chat Completions probe-tool calls bash; a tool message gets done", async () => {
  await withMock(async (url) => {
    const events = await postSse(`${url}/v1/chat/completions`, {
      model: "m",
      stream: true,
      tools: [BASH_FUNCTION],
      messages: [{ role: "user", content: "probe-tool please" }],
    });
    const choice = (events[0].json.choices as Json[])[0];
    const call = ((choice.delta as Json).tool_calls as Json[])[0];
    assertEquals(call.index, 0);
    assertEquals(call.type, "function");
    assertMatch(String(call.id), /^call_/);
    assertEquals((call.function as Json).name, "bash");
    assertEquals(JSON.parse(String((call.function as Json).arguments)), {
      command: PROBE_COMMAND,
    });
    assertEquals((events[1].json.choices as Json[])[0].finish_reason, "tool_calls");
    assertEquals(events.at(-1)!.json, { done: true });

    const after = await postSse(`${url}/v1/chat/completions`, {
      model: "m",
      stream: true,
      tools: [BASH_FUNCTION],
      messages: [
        { role: "user", content: "probe-tool please" },
        { role: "tool", tool_call_id: call.id, content: "" },
      ],
    });
    const text = after.slice(0, -3)
      .map((e) => (((e.json.choices as Json[])[0].delta as Json).content))
      .join("");
    assertEquals(text, DONE_TEXT);
  });
});

const SHELL_DECLARATION = { functionDeclarations: [{ name: "run_shell_command" }] };

Deno.test("mock: Gemini stream chunks are whole responses, STOP on the last only", async () => {
  await withMock(async (url) => {
    const events = await postSse(
      `${url}/v1beta/models/gemini-test:streamGenerateContent?alt=sse`,
      {
        tools: [SHELL_DECLARATION],
        contents: [{ role: "user", parts: [{ text: "<session_context/>" }, { text: "hi" }] }],
      },
    );
    assertEquals(events.length, pieces(SHORT_TEXT).length);
    events.forEach((e, index) => {
      assertEquals(e.event, undefined);
      const candidate = (e.json.candidates as Json[])[0];
      assertEquals((candidate.content as Json).role, "model");
      assertEquals(candidate.finishReason, index === events.length - 1 ? "STOP" : undefined);
      assertEquals(e.json.modelVersion, "gemini-test");
      assert(Number.isInteger((e.json.usageMetadata as Json).totalTokenCount));
    });
  });
});

Deno.test("mock: Gemini probe-tool is one functionCall chunk; then done", async () => {
  await withMock(async (url) => {
    const events = await postSse(`${url}/v1beta/models/g:streamGenerateContent?alt=sse`, {
      tools: [SHELL_DECLARATION],
      contents: [{ role: "user", parts: [{ text: "do probe-tool" }] }],
    });
    assertEquals(events.length, 1);
    const candidate = (events[0].json.candidates as Json[])[0];
    assertEquals(candidate.finishReason, "STOP");
    const part = ((candidate.content as Json).parts as Json[])[0];
    const call = part.functionCall as Json;
    assertEquals(call.name, "run_shell_command");
    assertEquals((call.args as Json).command, PROBE_COMMAND);

    const after = await postSse(`${url}/v1beta/models/g:streamGenerateContent?alt=sse`, {
      tools: [SHELL_DECLARATION],
      contents: [{
        role: "user",
        parts: [{ functionResponse: { name: "run_shell_command", response: {} } }],
      }],
    });
    const text = after
      .map((e) => ((((e.json.candidates as Json[])[0].content as Json).parts as Json[])[0].text))
      .join("");
    assertEquals(text, DONE_TEXT);
  });
});

Deno.test("mock: Gemini JSON-mode routing gets every check's fields at once", async () => {
  await withMock(async (url) => {
    const response = await post(`${url}/v1beta/models/lite:generateContent`, {
      generationConfig: { responseMimeType: "application/json" },
      contents: [{ role: "user", parts: [{ text: "slow probe-tool" }] }],
    });
    assertEquals(response.headers.get("content-type"), "application/json");
    const body = await response.json();
    const verdict = JSON.parse(body.candidates[0].content.parts[0].text);
    assertEquals(verdict.model_choice, "flash");
    assertEquals(verdict.complexity_score, 1);
    assertEquals(verdict.next_speaker, "user");
    assert(typeof verdict.reasoning === "string");

    const summary = await (await post(`${url}/v1beta/models/lite:generateContent`, {
      contents: [{ role: "user", parts: [{ text: "summarise" }] }],
    })).json();
    assertEquals(summary.candidates[0].content.parts[0].text, SHORT_TEXT);
    const count = await (await post(`${url}/v1beta/models/lite:countTokens`, {})).json();
    assert(count.totalTokens > 0);
  });
});

Deno.test("mock: models list, OTLP sinks, 404 and the request log", async () => {
  const mock = await startMockModel();
  try {
    const models = await (await fetch(`${mock.url}/v1/models`)).json();
    assertEquals(models.object, "list");
    assertEquals(models.data[0].id, "mock-model");
    for (const signal of ["logs", "metrics", "traces"]) {
      const response = await post(`${mock.url}/v1/${signal}`, { resourceLogs: [] });
      assertEquals(response.status, 200);
      assertEquals(await response.json(), {});
    }
    const head = await fetch(`${mock.url}/`, { method: "HEAD" });
    assertEquals(head.status, 404);
    await head.body?.cancel();
    const missing = await post(`${mock.url}/v1/analytics/codex/turn-costs`, {});
    assertEquals(missing.status, 404);
    assert(typeof (await missing.json()).error.message === "string");
    assertEquals(
      mock.requests.map((r) => r.route),
      ["models", "otlp", "otlp", "otlp", "not_found", "not_found"],
    );
  } finally {
    await mock.close();
  }
});

Deno.test("mock: concurrent streams and large bodies are served", async () => {
  await withMock(async (url) => {
    const filler = "x".repeat(200_000);
    const bodies = Array.from({ length: 6 }, (_, i) => ({
      model: "m",
      stream: true,
      tools: [BASH_FUNCTION],
      messages: [{ role: "system", content: filler }, { role: "user", content: `hello ${i}` }],
    }));
    const all = await Promise.all(bodies.map((b) => postSse(`${url}/v1/chat/completions`, b)));
    for (const events of all) assertEquals(events.at(-1)!.json, { done: true });
  });
});

Deno.test("mock: a client that hangs up mid-stream is logged as aborted", async () => {
  const mock = await startMockModel({ pacing: { fastGapMs: 200 } });
  try {
    const controller = new AbortController();
    const response = await fetch(`${mock.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ stream: true, messages: [{ role: "user", content: "hi there" }] }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.closed.catch(() => {});
    for (let i = 0; i < 50 && mock.requests[0].outcome !== "aborted"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assertEquals(mock.requests[0].outcome, "aborted");
  } finally {
    await mock.close();
  }
});

Deno.test("mock: close() ends a stream the client is still reading", async () => {
  const mock = await startMockModel({ pacing: { fastGapMs: 60_000 } });
  const response = await post(`${mock.url}/v1/chat/completions`, {
    stream: true,
    messages: [{ role: "user", content: "hi" }],
  });
  const reading = response.text();
  await mock.close();
  const text = await reading;
  assert(!text.includes("[DONE]"));
  assertEquals(mock.requests[0].outcome, "closed");
});

Deno.test("mock: slow pacing spreads eleven words over about ten seconds (steps only)", () => {
  const script = scriptAnthropic({ messages: [{ role: "user", content: "be SLOW please" }] });
  assertEquals(script.slow, true);
  assertEquals(pieces(SLOW_TEXT).length, 11);
  const steps = anthropicSteps(script, { model: "m" });
  const total = steps.reduce((sum, step) => sum + step.delayMs, 0);
  assert(total >= 9_000 && total <= 11_000, `total ${total}`);
  const tool = scriptAnthropic({
    tools: [BASH],
    messages: [{ role: "user", content: "slow probe-tool" }],
  });
  assertEquals(tool.kind, "tool");
  const toolSteps = anthropicSteps(tool, { model: "m" });
  assertEquals(toolSteps[0].delayMs, 0);
  assertEquals(toolSteps[1].delayMs, DEFAULT_PACING.slowToolDelayMs);
  const gemini = geminiSteps(tool.kind === "tool" ? { ...tool, tool: "run_shell_command" } : tool, {
    model: "g",
  });
  assertEquals(gemini[0].delayMs, DEFAULT_PACING.slowToolDelayMs);
});

Deno.test("mock: a Gemini entry holding an earlier prompt and a new one is keyed on the new one", () => {
  const body = {
    tools: [{ functionDeclarations: [{ name: "run_shell_command" }] }],
    contents: [{ role: "user", parts: [{ text: "please run probe-tool" }, { text: "say hi" }] }],
  };
  assertEquals(scriptGemini(body).kind, "text");
});

Deno.test("mock: probe-question calls OpenCode's question tool when it is listed", () => {
  const tools = ["bash", "question"].map((name) => ({ type: "function", function: { name } }));
  const asked = scriptChat({ tools, messages: [{ role: "user", content: "ask probe-question" }] });
  assertEquals(asked.kind === "tool" && asked.tool, "question");
  assertEquals(toolArguments("question", "chat"), { questions: [PROBE_QUESTION] });
  const none = scriptChat({
    tools: tools.slice(0, 1),
    messages: [{ role: "user", content: "probe-question" }],
  });
  assertEquals(none.kind, "text");
});

Deno.test("mock: a Claude message holding a denied call's tool_result and a new prompt is a prompt", () => {
  const tools = [{ name: "Bash" }];
  const result = {
    type: "tool_result",
    tool_use_id: "toolu_1",
    content: "interrupted",
    is_error: true,
  };
  const alone = {
    role: "user",
    content: [result, { type: "text", text: "<system-reminder>x</system-reminder>" }],
  };
  assertEquals(scriptAnthropic({ tools, messages: [alone] }).kind, "done");
  const next = { role: "user", content: [result, { type: "text", text: "please run probe-tool" }] };
  assertEquals(scriptAnthropic({ tools, messages: [next] }).kind, "tool");
});
