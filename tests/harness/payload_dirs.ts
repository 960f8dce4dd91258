/**
 * Where payload fixtures live, for parser tests: ours in `fixtures/payloads/`
 * and the contract's real ones in `../shared/fixtures/payloads/`, which tests
 * skip when that folder is absent.
 * @module
 */

const REPO = new URL("../../", import.meta.url);

/** Our own payload fixtures. */
export const OWN_PAYLOADS: URL = new URL("fixtures/payloads/", REPO);

/** The shared, read-only payload fixtures beside the repository. */
export const SHARED_PAYLOADS: URL = new URL("../shared/fixtures/payloads/", REPO);

/** Whether the shared payloads are present. */
export const HAVE_SHARED_PAYLOADS: boolean = (() => {
  try {
    Deno.statSync(SHARED_PAYLOADS);
    return true;
  } catch {
    return false;
  }
})();

if (!HAVE_SHARED_PAYLOADS) {
  console.log(`note: ${SHARED_PAYLOADS.pathname} is absent; shared-fixture tests skipped`);
}
