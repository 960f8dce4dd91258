/**
 * `tma install-keys` (C84-C90, U37, U38, item 7) on a scratch HOME holding
 * a realistic user tmux config: diff, write, a second run that changes no
 * byte, `--check`, the managed file loading in a real tmux, and
 * `--uninstall` back to the original bytes.
 */
import { assert, assertEquals, assertMatch } from "./harness/assert.ts";
import { runTma, type ScratchTmux, tmuxTest } from "./harness/tmux.ts";
import {
  checkKeys,
  isMarked,
  markConf,
  renderManaged,
  resolveTmuxConf,
  sourceLine,
  unmarkConf,
} from "../src/install/keys.ts";

const USER_CONF = [
  "# my tmux config",
  "set -g prefix C-a",
  "unbind C-b",
  "bind C-a send-prefix",
  "",
  "# splits",
  'bind | split-window -h -c "#{pane_current_path}"',
  "set -g status-right '#(tma status) %H:%M'",
].join("\n"); // no trailing newline, as some editors leave it

const LAUNCHER = { argv: ["/usr/local/bin/tma"], requires: ["/usr/local/bin/tma"] };

Deno.test("install-keys C84, C89: the source line, marked; --config-dir names its path literally", () => {
  assertEquals(
    sourceLine(),
    'source-file -q "$XDG_CONFIG_HOME/tma/tmux.conf" "$HOME/.config/tma/tmux.conf" # tma keys',
  );
  assertEquals(sourceLine("/opt/tma cfg"), 'source-file -q "/opt/tma cfg/tmux.conf" # tma keys');
  assert(isMarked(sourceLine()));
});

Deno.test("install-keys C86: marking and unmarking give back the bytes, with or without a final newline", () => {
  const line = sourceLine();
  for (const text of [USER_CONF, `${USER_CONF}\n`, "", "a\n\n"]) {
    const marked = markConf(text, line);
    assertEquals(markConf(marked, line), marked, "idempotent");
    assertEquals(unmarkConf(marked), text, JSON.stringify(text));
  }
  assertEquals(markConf(null, line), `${line}\n`);
});

Deno.test("install-keys C90: the first existing config, else one that shadows nothing", () => {
  const env = (home: string, xdg?: string) => (k: string) =>
    ({ HOME: home, XDG_CONFIG_HOME: xdg } as Record<string, string | undefined>)[k];
  const has = (...paths: string[]) => (p: string) => paths.includes(p);
  assertEquals(resolveTmuxConf(env("/h"), has("/h/.tmux.conf")), "/h/.tmux.conf");
  assertEquals(
    resolveTmuxConf(env("/h", "/x"), has("/x/tmux/tmux.conf", "/h/.config/tmux/tmux.conf")),
    "/x/tmux/tmux.conf",
  );
  assertEquals(
    resolveTmuxConf(env("/h"), has("/h/.config/tmux/tmux.conf")),
    "/h/.config/tmux/tmux.conf",
  );
  assertEquals(resolveTmuxConf(env("/h", "/x"), has()), "/x/tmux/tmux.conf");
  assertEquals(resolveTmuxConf(env("/h"), has("/h/.config")), "/h/.config/tmux/tmux.conf");
  assertEquals(resolveTmuxConf(env("/h"), has()), "/h/.tmux.conf");
});

Deno.test("install-keys U37, U38: only keys stock tmux leaves unbound; mouse only with --mouse; never mouse on", () => {
  const plain = renderManaged({
    mouse: false,
    daemon: false,
    focusEvents: false,
    launcher: LAUNCHER,
  });
  const bound = [...plain.matchAll(/^bind-key (\S+) /gm)].map((m) => m[1]);
  assertEquals(bound, ["a", "G", "j", "g", "b", "h", "A"]);
  assertMatch(plain, /^bind-key a display-popup -E -w 80% -h 60% 'tma'$/m);
  assertMatch(plain, /^bind-key j run-shell 'tma jump --attention --client "#\{client_name\}"'$/m);
  assertMatch(plain, /^set-hook -g after-select-pane\[90\] /m);
  assert(!/MouseDown/.test(plain));
  assert(!/daemon --ensure/.test(plain), "no launcher with daemon: false (--no-daemon)");
  const mouse = renderManaged({
    mouse: true,
    daemon: false,
    focusEvents: true,
    launcher: LAUNCHER,
  });
  for (
    const key of [
      "MouseDown1Status",
      "MouseDown1StatusRight",
      "MouseDown3Status",
      "MouseDown3StatusRight",
    ]
  ) {
    assertMatch(mouse, new RegExp(`^bind-key -T root ${key} `, "m"));
  }
  assertMatch(mouse, /^set-hook -g pane-focus-in\[90\] /m);
  assert(!/^set\S* .*mouse on/m.test(mouse), "tma never sets mouse on");
});

Deno.test("install-keys C85: --check wants the file current and sourced exactly once", () => {
  const options = {
    mouse: false,
    // The daemon exists (DAEMON_AVAILABLE): without --no-daemon its launcher is expected.
    daemon: true,
    focusEvents: false,
    launcher: LAUNCHER,
    noDaemon: false,
  };
  const paths = { managed: "/h/.config/tma/tmux.conf", conf: "/h/.tmux.conf" };
  const managed = renderManaged(options);
  const once = markConf(USER_CONF, sourceLine());
  assert(checkKeys(paths, { managed, conf: once, others: [] }, options).ok);
  const withMouse = renderManaged({ ...options, mouse: true });
  assert(checkKeys(paths, { managed: withMouse, conf: once, others: [] }, options).ok);
  assert(!checkKeys(paths, { managed, conf: once, others: [] }, { ...options, mouse: true }).ok);
  const twice = {
    managed,
    conf: once,
    others: [{ path: "/h/.config/tmux/tmux.conf", text: once }],
  };
  assert(!checkKeys(paths, twice, options).ok);
  assert(!checkKeys(paths, { managed, conf: USER_CONF, others: [] }, options).ok);
  assert(!checkKeys(paths, { managed: `${managed}# edit\n`, conf: once, others: [] }, options).ok);
  // C88: a file without the launcher is drift now that the daemon exists, unless --no-daemon.
  const daemonless = renderManaged({ ...options, daemon: false });
  assert(!checkKeys(paths, { managed: daemonless, conf: once, others: [] }, options).ok);
  assert(
    checkKeys(paths, { managed: daemonless, conf: once, others: [] }, {
      ...options,
      noDaemon: true,
    }).ok,
  );
});

async function read(path: string): Promise<string | null> {
  return await Deno.readTextFile(path).catch(() => null);
}

async function files(t: ScratchTmux): Promise<[string | null, string | null]> {
  return [await read(`${t.home}/.tmux.conf`), await read(`${t.home}/.config/tma/tmux.conf`)];
}

tmuxTest(
  "tma install-keys C84-C86: diff, write, no byte changed on a second run, --check, loads in tmux, --uninstall restores",
  async (t) => {
    await Deno.writeTextFile(`${t.home}/.tmux.conf`, USER_CONF);
    const declined = await runTma(t, ["install-keys"]);
    assertEquals(declined.code, 1, declined.stderr);
    assertMatch(declined.stdout, /\+source-file -q .* # tma keys/);
    assertEquals(await files(t), [USER_CONF, null], "declined: nothing written");

    const first = await runTma(t, ["install-keys", "--yes"]);
    assertEquals(first.code, 0, first.stderr);
    const [conf, managed] = await files(t);
    assertEquals(conf, `${USER_CONF}\n${sourceLine()}`);
    assert(managed?.startsWith("# tma:managed-file"));
    // Loaded into the running server at once: the keys and the hooks.
    assertMatch(await t.tmux("list-keys", "-T", "prefix", "j"), /tma jump --attention/);
    assertMatch(await t.tmux("show-hooks", "-g", "after-select-pane"), /\[90\].*clear-attention/);

    const second = await runTma(t, ["install-keys", "--yes"]);
    assertEquals(second.code, 0, second.stderr);
    assertMatch(second.stdout, /nothing to change/);
    assertEquals(await files(t), [conf, managed], "a second run changes no byte");

    const check = await runTma(t, ["install-keys", "--check"]);
    assertEquals(check.code, 0, check.stdout);

    // The user's config, as tmux reads it at start-up, loads the managed file with no error.
    await t.tmux("unbind-key", "-T", "prefix", "G");
    await t.tmux("source-file", `${t.home}/.tmux.conf`);
    assertMatch(await t.tmux("list-keys", "-T", "prefix", "G"), /tma watch --table/);
    assertEquals(
      (await t.tmux("show-hooks", "-g", "after-select-pane")).trim().split("\n").length,
      1,
      "sourcing again adds no second hook",
    );

    const removed = await runTma(t, ["install-keys", "--uninstall", "--yes"]);
    assertEquals(removed.code, 0, removed.stderr);
    assertEquals(await files(t), [USER_CONF, null], "the original bytes, and no managed file");
    const after = await runTma(t, ["install-keys", "--check"]);
    assertEquals(after.code, 1);
  },
);

tmuxTest(
  "tma install-keys C89, C90: --config-dir and --conf; a created config is removed again",
  async (t) => {
    await Deno.mkdir(`${t.home}/.config`, { recursive: true });
    const dir = `${t.dir}/keys dir`;
    const out = await runTma(t, ["install-keys", "--yes", "--config-dir", dir]);
    assertEquals(out.code, 0, out.stderr);
    const conf = `${t.home}/.config/tmux/tmux.conf`;
    assertEquals(await read(conf), `${sourceLine(dir)}\n`);
    assert((await read(`${dir}/tmux.conf`))?.startsWith("# tma:managed-file"));
    assertEquals((await runTma(t, ["install-keys", "--check", "--config-dir", dir])).code, 0);
    const gone = await runTma(t, ["install-keys", "--uninstall", "--yes", "--config-dir", dir]);
    assertEquals(gone.code, 0, gone.stderr);
    assertEquals(await read(conf), null, "the config tma created is gone");
    const other = `${t.dir}/other.conf`;
    await Deno.writeTextFile(other, "set -g base-index 1\n");
    assertEquals((await runTma(t, ["install-keys", "--yes", "--conf", other])).code, 0);
    assertEquals(await read(other), `set -g base-index 1\n${sourceLine()}\n`);
  },
);

tmuxTest(
  "tma install-keys R19 (issue 13 items 7, 10): a read-only config is refused; the backup stays the user's original",
  async (t) => {
    const conf = `${t.home}/.tmux.conf`;
    await Deno.writeTextFile(conf, USER_CONF);
    await Deno.chmod(conf, 0o444);
    const refused = await runTma(t, ["install-keys", "--yes"]);
    assert(refused.code !== 0, "a read-only config must be refused");
    assertMatch(refused.stderr, /read-only/);
    assertEquals(await files(t), [USER_CONF, null], "refused: nothing written");

    await Deno.chmod(conf, 0o644);
    assertEquals((await runTma(t, ["install-keys", "--yes"])).code, 0);
    assertEquals(await read(`${conf}.tma-backup`), USER_CONF);
    // A second install that rewrites tma's line (another --config-dir) keeps that backup.
    const moved = await runTma(t, ["install-keys", "--yes", "--config-dir", `${t.dir}/keys`]);
    assertEquals(moved.code, 0, moved.stderr);
    assertEquals(await read(conf), `${USER_CONF}\n${sourceLine(`${t.dir}/keys`)}`);
    assertEquals(await read(`${conf}.tma-backup`), USER_CONF, "the backup is still the original");
  },
);
