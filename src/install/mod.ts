/**
 * `tma install-hooks`: wires each agent's own config files to tma (features.md
 * C76-C83, I1-I7 and the per-agent "files written" rows), verifies the
 * wiring and removes it again, editing the user's files in place.
 * @module
 */
export { type InstallHooksDeps, type InstallHooksRequest, runInstallHooks } from "./run.ts";
export { type InstallPaths, type PathFlags, resolveInstallPaths } from "./paths.ts";
export { currentLauncher, type Launcher, resolveLauncher } from "./launcher.ts";
export { AGENT_NAMES, type AgentName } from "./agents.ts";
export { InstallError, SettingsParseError } from "./errors.ts";
export {
  type InstallKeysDeps,
  type InstallKeysRequest,
  readKeysState,
  runInstallKeys,
} from "./keys_run.ts";
export { checkKeys, DAEMON_AVAILABLE, planKeysInstall, planKeysUninstall } from "./keys.ts";
