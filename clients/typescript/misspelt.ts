// A hand with a misspelt field: `tsc --strict` must refuse it, naming the field (.ci/clients
// asserts both).
import type { components } from "./generated/schema.js";

export const hand: components["schemas"]["HandDocumentRequest"] = {
  ruleset: "terziglio",
  dealr: 0,
  outcome: "passed_out",
};
