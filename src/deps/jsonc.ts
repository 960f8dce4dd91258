/** jsonc-parser, pinned: its edit API changes only the keys we touch. */
export {
  applyEdits,
  findNodeAtLocation,
  modify,
  parse as parseJsonc,
  parseTree,
  printParseErrorCode,
} from "npm:jsonc-parser@3.3.1";
export type {
  Edit,
  FormattingOptions,
  Node as JsoncNode,
  ParseError,
} from "npm:jsonc-parser@3.3.1";
