/**
 * re2js, pinned: a linear-time (RE2) regex engine, for the patterns of user
 * manifests. Loaded only where a user manifest is read, never on the status
 * or hook path of the bundled manifests.
 */
export { RE2JS } from "npm:re2js@2.10.0";
