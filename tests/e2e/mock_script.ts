/**
 * What the mock model answers: the scripting shared by every API the mock speaks.
 *
 * The last input of a request decides the reply (real-agents.md, "How the probe scripted the
 * replies"): a tool result gets the fixed done text at once; user text with `probe-tool`, in a
 * request that lists the agent's shell tool, gets a call to that tool; anything else gets a short
 * text reply. The word `slow` (any case) stretches a text reply over about ten seconds and delays
 * a tool call by six. Side calls (titles, routing) list no tools, so they only ever get text.
 * User text with `probe-question`, in a Chat Completions request that lists a `question` tool
 * (OpenCode), gets a call to that tool asking one question with two options.
 *
 * Everything here is pure: request JSON in, a {@link Script} out.
 *
 * ```ts
 * import { scriptChat } from "./mock_script.ts";
 * const script = scriptChat({ messages: [{ role: "user", content: "hello slow" }] });
 * // { kind: "text", slow: true, text: "This is a slow reply …", prompt: "hello slow" }
 * ```
 * @module
 */

/** The command every scripted tool call runs: it creates a file the tests can look for. */
export const PROBE_COMMAND = "touch probe_created.txt";

/** The text the mock sends after any tool result. */
export const DONE_TEXT = "Done: the command ran. (mock)";

/** The ordinary reply. */
export const SHORT_TEXT = "Hello from the mock model.";

/** The reply to a `slow` prompt: eleven words, streamed one word per event. */
export const SLOW_TEXT = "This is a slow reply from the mock model streamed slowly.";

/** The word in a prompt that asks for a tool call. Case-sensitive, as in the probe. */
export const TOOL_TRIGGER = "probe-tool";

/**
 * The word in a prompt that asks for a call to the agent's question tool (OpenCode's
 * `question`), when the request lists one. Case-sensitive.
 */
export const QUESTION_TRIGGER = "probe-question";

/** The question the scripted question call asks, and its options. */
export const PROBE_QUESTION = {
  question: "Which colour should the probe use?",
  header: "Probe colour",
  options: [
    { label: "Red", description: "the warm one" },
    { label: "Blue", description: "the cool one" },
  ],
};

/** The justification Codex shows after "Reason:" on its approval screen. */
export const PROBE_JUSTIFICATION = "Do you want to let the mock create probe_created.txt?";

/** The model name the mock reports when a request names none. */
export const DEFAULT_MODEL = "mock-model";

/** A decided reply. `tool` names the shell tool to call, exactly as the request listed it. */
export type Script =
  | { kind: "done"; slow: false; text: string; prompt: string }
  | { kind: "text"; slow: boolean; text: string; prompt: string }
  | { kind: "tool"; slow: boolean; tool: string; prompt: string };

/** A JSON object as the mock reads it: anything may be missing or of the wrong type. */
type Json = Record<string, unknown>;

const SLOW_WORD = /\bslow\b/i;

/** Shell tool names the mock will call, per API, in order of preference. */
const SHELL_TOOLS = {
  anthropic: ["bash"],
  responses: ["exec_command", "shell", "shell_command", "local_shell", "bash"],
  chat: ["bash", "shell", "run_shell_command", "exec_command"],
  gemini: ["run_shell_command"],
} as const;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function asString(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Picks the first preferred shell tool among the listed names (case-insensitive). */
function pickTool(listed: string[], preferred: readonly string[]): string | undefined {
  for (const want of preferred) {
    const hit = listed.find((name) => name.toLowerCase() === want);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** Turns the user text and the listed tools into a script. */
function decide(prompt: string, tool: string | undefined, question?: string): Script {
  const slow = SLOW_WORD.test(prompt);
  if (question !== undefined && prompt.includes(QUESTION_TRIGGER)) {
    return { kind: "tool", slow, tool: question, prompt };
  }
  if (tool !== undefined && prompt.includes(TOOL_TRIGGER)) {
    return { kind: "tool", slow, tool, prompt };
  }
  return { kind: "text", slow, text: slow ? SLOW_TEXT : SHORT_TEXT, prompt };
}

function done(): Script {
  return { kind: "done", slow: false, text: DONE_TEXT, prompt: "" };
}

/** Text of a content value that is a string or an array of parts with `text`. */
function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .map((part) => (isObject(part) ? asString(part.text) : ""))
    .filter((text) => text !== "")
    .join("\n");
}

/** Scripts an Anthropic Messages request (Claude Code). */
export function scriptAnthropic(body: Json): Script {
  const tools = asArray(body.tools).map((tool) => (isObject(tool) ? asString(tool.name) : ""));
  // Claude may append a `system` entry (an attachment) after the user's message: skip it.
  const messages = asArray(body.messages).filter(isObject).filter((m) => m.role !== "system");
  const last = messages.at(-1);
  if (last === undefined) return decide("", undefined);
  const blocks = asArray(last.content).filter(isObject);
  // After a prompt denied with Escape, Claude sends the interrupted call's tool_result and the
  // next prompt in one message: typed text beside the result is a new prompt, not its echo.
  const typed = blocks.filter((block) =>
    block.type === "text" && !asString(block.text).trimStart().startsWith("<")
  );
  if (blocks.some((block) => block.type === "tool_result") && typed.length === 0) return done();
  return decide(partsText(last.content), pickTool(tools, SHELL_TOOLS.anthropic));
}

/** Scripts an OpenAI Responses request (Codex). */
export function scriptResponses(body: Json): Script {
  const tools = asArray(body.tools)
    .filter(isObject)
    .map((tool) => asString(tool.name) || asString(tool.type));
  const input = body.input;
  if (typeof input === "string") return decide(input, pickTool(tools, SHELL_TOOLS.responses));
  const last = asArray(input).filter(isObject).at(-1);
  if (last === undefined) return decide("", undefined);
  if (asString(last.type).endsWith("_output")) return done();
  return decide(partsText(last.content), pickTool(tools, SHELL_TOOLS.responses));
}

/** Scripts an OpenAI Chat Completions request (OpenCode, pi). */
export function scriptChat(body: Json): Script {
  const tools = asArray(body.tools)
    .filter(isObject)
    .map((tool) => (isObject(tool.function) ? asString(tool.function.name) : ""));
  const last = asArray(body.messages).filter(isObject).at(-1);
  if (last === undefined) return decide("", undefined);
  if (last.role === "tool") return done();
  return decide(
    partsText(last.content),
    pickTool(tools, SHELL_TOOLS.chat),
    pickTool(tools, ["question"]),
  );
}

/** Scripts a Gemini generateContent request (Gemini CLI). */
export function scriptGemini(body: Json): Script {
  const tools = asArray(body.tools)
    .filter(isObject)
    .flatMap((tool) => asArray(tool.functionDeclarations))
    .map((decl) => (isObject(decl) ? asString(decl.name) : ""));
  const last = asArray(body.contents).filter(isObject).at(-1);
  if (last === undefined) return decide("", undefined);
  const parts = asArray(last.parts).filter(isObject);
  if (parts.some((part) => part.functionResponse !== undefined)) return done();
  // The typed prompt is the entry's last text part: a first prompt follows an environment
  // block, and after a cancelled tool call Gemini 0.61 sends the earlier prompt and the new one
  // as parts of one entry (keying on all of it would re-run the earlier probe-tool call).
  const texts = parts.map((part) => asString(part.text)).filter((text) => text !== "");
  return decide(texts.at(-1) ?? "", pickTool(tools, SHELL_TOOLS.gemini));
}

/** Whether a Gemini request is a JSON-mode side call (routing, complexity, next speaker). */
export function isGeminiJsonMode(body: Json): boolean {
  const config = isObject(body.generationConfig) ? body.generationConfig : {};
  return asString(config.responseMimeType).toLowerCase().includes("json");
}

/**
 * The arguments of the scripted tool call, shaped for the tool the request listed.
 *
 * Codex only asks for approval when the command wants to leave the sandbox, so `exec_command`
 * (and the older `shell`) carry `sandbox_permissions: "require_escalated"` and a justification.
 * Chat Completions agents get `command` alone: that is all the probe sent and both accepted it.
 */
export function toolArguments(
  tool: string,
  api: "anthropic" | "responses" | "chat" | "gemini",
): Json {
  const name = tool.toLowerCase();
  if (name === "question") return { questions: [PROBE_QUESTION] };
  if (api === "responses" && name === "exec_command") {
    return {
      cmd: PROBE_COMMAND,
      sandbox_permissions: "require_escalated",
      justification: PROBE_JUSTIFICATION,
    };
  }
  if (api === "responses" && name !== "bash") {
    return {
      command: ["bash", "-lc", PROBE_COMMAND],
      sandbox_permissions: "require_escalated",
      justification: PROBE_JUSTIFICATION,
    };
  }
  if (api === "anthropic" || api === "gemini") {
    return { command: PROBE_COMMAND, description: "Create the probe file" };
  }
  return { command: PROBE_COMMAND };
}
