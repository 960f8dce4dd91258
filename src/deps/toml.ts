/** smol-toml, pinned: TOML for manifests, config and Codex's config.toml. */
export { parse as parseToml, stringify as stringifyToml, TomlError } from "npm:smol-toml@1.9.1";
