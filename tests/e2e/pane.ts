/**
 * A pane running a real agent, and the ways the suite acts on it: start it, wait for screen text,
 * answer first-run dialogs, type prompts and keys.
 *
 * ```ts
 * import { AgentPane } from "./pane.ts";
 * const pane = await AgentPane.launch(run, { tmux, width: 100, height: 40 });
 * await pane.passFirstRun(driver);
 * await pane.sendPrompt("please run probe-tool", { mock });
 * await pane.waitFor(driver.blocked);
 * ```
 * @module
 */

import type { AgentDriver, AgentRun } from "./agents.ts";
import type { MockModel } from "./mock_model.ts";
import { type ScratchTmux, shellQuote } from "./tmux.ts";

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Options of the waiting methods. */
export interface WaitOptions {
  /** Give up after this long. */
  timeoutMs?: number;
  /** Poll interval. */
  intervalMs?: number;
}

/** Options of {@link AgentPane.launch}. */
export interface LaunchOptions {
  /** The private tmux server. */
  tmux: ScratchTmux;
  /** Columns. */
  width: number;
  /** Rows. */
  height: number;
}

/** Options of {@link AgentPane.passFirstRun}. */
export interface FirstRunOptions extends WaitOptions {
  /**
   * Runs before a dialog's keys are sent (the recorder captures the dialog there), with the
   * time the dialog was first seen on screen.
   */
  onDialog?: (name: string, seenAt: number) => Promise<void>;
  /** How long the main screen must hold, dialog-free, to count. */
  settleMs?: number;
}

/** Options of {@link AgentPane.sendPrompt}. */
export interface SendPromptOptions {
  /** The mock the agent talks to: the prompt counts as sent once a request carries it. */
  mock?: MockModel;
  /** How long to wait for the request before pressing Enter again (at most twice more). */
  retryAfterMs?: number;
  /** How long to wait after the last Enter before giving up. */
  graceMs?: number;
}

/** A first-run dialog that was answered, with the screen as it was before the keys. */
export interface DialogSeen {
  /** The dialog's name. */
  name: string;
  /** The plain screen that matched. */
  screen: string;
}

/** One agent's pane in the private tmux server. */
export class AgentPane {
  /** The tmux server. */
  readonly tmux: ScratchTmux;
  /** The pane id (`%N`). */
  readonly id: string;

  constructor(tmux: ScratchTmux, id: string) {
    this.tmux = tmux;
    this.id = id;
  }

  /** Starts a pane with the run's bare shell in the project and types the agent's command. */
  static async launch(run: AgentRun, options: LaunchOptions): Promise<AgentPane> {
    const id = await options.tmux.newPane({
      name: `${run.agent}-${options.width}`,
      width: options.width,
      height: options.height,
      cwd: run.project,
      env: run.env,
      command: run.shell,
    });
    const pane = new AgentPane(options.tmux, id);
    // capture-pane drops trailing blanks: the prompt `$ ` reads as `$`.
    await pane.waitFor(/^\$ ?$/m, { timeoutMs: 10_000 });
    // Clear the shell's screen so the agent starts on a blank viewport, as in a fresh pane.
    await pane.tmux.keys(id, "C-l");
    await pane.tmux.type(id, run.argv.map(shellQuote).join(" "));
    await pane.tmux.keys(id, "Enter");
    return pane;
  }

  /** The plain screen (no escapes, no scrollback). */
  async screen(): Promise<string> {
    return await this.tmux.screenText(this.id);
  }

  /** Polls until `pattern` shows; returns the screen, or throws on timeout. */
  async waitFor(pattern: RegExp, options: WaitOptions = {}): Promise<string> {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    let screen = "";
    while (Date.now() < deadline) {
      screen = await this.screen();
      if (pattern.test(screen)) return screen;
      await sleep(options.intervalMs ?? 250);
    }
    throw new Error(`timed out waiting for ${pattern} in pane ${this.id}; screen:\n${screen}`);
  }

  /** Polls until `pattern` is gone; returns the screen, or throws on timeout. */
  async waitForGone(pattern: RegExp, options: WaitOptions = {}): Promise<string> {
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    let screen = "";
    while (Date.now() < deadline) {
      screen = await this.screen();
      if (!pattern.test(screen)) return screen;
      await sleep(options.intervalMs ?? 250);
    }
    throw new Error(
      `timed out waiting for ${pattern} to leave pane ${this.id}; screen:\n${screen}`,
    );
  }

  /** Waits until the screen stops changing for `quietMs` (at most the timeout). */
  async waitForQuiet(options: WaitOptions & { quietMs?: number } = {}): Promise<string> {
    const quietMs = options.quietMs ?? 1500;
    const deadline = Date.now() + (options.timeoutMs ?? 20_000);
    let last = await this.screen();
    let since = Date.now();
    while (Date.now() < deadline) {
      await sleep(options.intervalMs ?? 250);
      const now = await this.screen();
      if (now !== last) {
        last = now;
        since = Date.now();
      } else if (Date.now() - since >= quietMs) {
        return now;
      }
    }
    return last;
  }

  /**
   * Answers first-run dialogs until the agent's main screen shows and no dialog does.
   * Throws if the agent exits (back at the shell) or never gets there.
   */
  async passFirstRun(driver: AgentDriver, options: FirstRunOptions = {}): Promise<DialogSeen[]> {
    const deadline = Date.now() + (options.timeoutMs ?? 120_000);
    const seen: DialogSeen[] = [];
    // Each dialog is answered once: Gemini's answered trust dialog stays in view above the
    // restarted main screen when the pane is wide enough to hold both.
    const pending = () => driver.dialogs.filter((d) => !seen.some((s) => s.name === d.name));
    let screen = "";
    while (Date.now() < deadline) {
      screen = await this.screen();
      const dialog = pending().find((d) => d.match.test(screen));
      if (dialog) {
        const seenAt = Date.now();
        // Let the dialog finish drawing before it is captured and answered.
        await sleep(800);
        if (options.onDialog) await options.onDialog(dialog.name, seenAt);
        seen.push({ name: dialog.name, screen });
        await this.sendKeys(dialog.keys);
        const settled = dialog.answered
          ? this.waitFor(dialog.answered, { timeoutMs: 20_000 })
          : this.waitForGone(dialog.match, { timeoutMs: 20_000 });
        await settled.catch(() => {});
        continue;
      }
      if (driver.ready.test(screen)) {
        // Gemini draws its main screen first and the trust dialog over it a moment later, so
        // the main screen only counts once it has held, dialog-free, for a while.
        await sleep(options.settleMs ?? 2000);
        const again = await this.screen();
        if (driver.ready.test(again) && !pending().some((d) => d.match.test(again))) {
          return seen;
        }
        continue;
      }
      const facts = await this.tmux.facts(this.id);
      if (facts.dead || (seen.length > 0 && facts.command === "bash")) {
        throw new Error(`${driver.agent} exited during start-up; screen:\n${screen}`);
      }
      await sleep(options.intervalMs ?? 300);
    }
    throw new Error(`${driver.agent} never reached its main screen; screen:\n${screen}`);
  }

  /**
   * Types a prompt and submits it. A pause comes before Enter so no TUI takes it as pasted
   * text, and with a mock the Enter is repeated (twice at most) until a request carries the
   * prompt: Codex dropped the Enter of a prompt typed right after its main screen came up.
   */
  async sendPrompt(text: string, options: SendPromptOptions = {}): Promise<void> {
    const from = options.mock?.requests.length ?? 0;
    await this.tmux.type(this.id, text);
    await sleep(500);
    await this.tmux.keys(this.id, "Enter");
    const mock = options.mock;
    if (!mock) return;
    const carried = () => mock.requests.slice(from).some((r) => r.prompt?.includes(text));
    for (let attempt = 0; attempt < 3; attempt++) {
      const deadline = Date.now() + (options.retryAfterMs ?? 4000);
      while (Date.now() < deadline) {
        if (carried()) return;
        await sleep(100);
      }
      if (attempt < 2) await this.tmux.keys(this.id, "Enter");
    }
    // A loaded machine can hold an agent's first request back for a while: wait, no more keys.
    const grace = Date.now() + (options.graceMs ?? 20_000);
    while (Date.now() < grace) {
      if (carried()) return;
      await sleep(200);
    }
    const screen = (await this.screen().catch(() => "")).split("\n").filter((l) => l.trim())
      .slice(-12).join("\n  ");
    throw new Error(
      `no model request carried the prompt ${
        JSON.stringify(text)
      } (${this.id}); screen:\n  ${screen}`,
    );
  }

  /**
   * Answers a prompt on screen: waits for it to settle, sends `keys`, and sends them again
   * (three times at most) while `prompt` still shows. A key sent the moment a dialog is drawn
   * can be lost: Claude ignored a `1` sent right as its permission prompt appeared.
   */
  async answer(keys: string[], prompt: RegExp): Promise<void> {
    await sleep(1000);
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.sendKeys(keys);
      const gone = await this.waitForGone(prompt, { timeoutMs: 5000 }).then(
        () => true,
        () => false,
      );
      if (gone) return;
    }
    throw new Error(`${keys.join(" ")} did not answer ${prompt} in pane ${this.id}`);
  }

  /** Sends key names one `send-keys` at a time, with a short pause between. */
  async sendKeys(keys: string[]): Promise<void> {
    for (const key of keys) {
      await this.tmux.keys(this.id, key);
      await sleep(250);
    }
  }
}
