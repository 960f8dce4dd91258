/**
 * In-place edits of a JSON (or JSON-with-comments) settings file. Locations
 * come from jsonc-parser's `parseTree` and `modify`, edits are applied with
 * `applyEdits`, and only the bytes of the touched value change: the user's
 * comments, key order and formatting elsewhere stay exactly as they were.
 *
 * jsonc-parser's own formatter reformats every line an edit touches (a
 * one-line object next to an insertion would be exploded), so inserted
 * values are laid out here in the style of their neighbours instead, and
 * removals are computed as the exact inverse of an insertion, which is what
 * makes an uninstall give back the original bytes.
 * @module
 */
import {
  applyEdits,
  type Edit,
  findNodeAtLocation,
  type JsoncNode,
  modify,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "../deps/jsonc.ts";
import { isObject } from "../core/object.ts";
import { InstallError, SettingsParseError } from "./errors.ts";

/** A path into a JSON document: property names and array indexes. */
export type JsonPath = (string | number)[];

/**
 * Whether uninstall must keep the container at a path even when emptied (it
 * was in the user's original file).
 */
export type KeepContainer = (path: JsonPath) => boolean;

/** How a file lays out its values. */
export interface JsonStyle {
  /** One level of indentation: a tab, or some spaces. */
  indent: string;
  eol: string;
}

/** A parsed settings document: the text and its syntax tree. */
export interface JsonDoc {
  path: string;
  text: string;
  root: JsoncNode;
}

/**
 * Detects a file's indentation unit and line ending (two spaces and `\n`
 * when it has none).
 */
export function detectStyle(text: string): JsonStyle {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  let indent = "  ";
  let smallest = Infinity;
  for (const line of text.split("\n")) {
    const lead = /^[ \t]+(?=\S)/.exec(line)?.[0];
    if (!lead) continue;
    if (lead.startsWith("\t")) {
      indent = "\t";
      break;
    }
    if (lead.length < smallest) {
      smallest = lead.length;
      indent = lead;
    }
  }
  return { indent, eol };
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1) + 1;
  return { line, column };
}

/**
 * Parses a settings file. An empty file reads as `{}` (plus a newline). Throws
 * `SettingsParseError` (path, line, column) when the text is not JSON(C) or
 * its top level is not an object.
 */
export function parseDoc(path: string, text: string): JsonDoc {
  const errors: ParseError[] = [];
  const source = text.trim() === "" ? "{}\n" : text;
  const root = parseTree(source, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0];
    const { line, column } = lineColumn(source, first.offset);
    throw new SettingsParseError(
      path,
      line,
      column,
      `not valid JSON (${printParseErrorCode(first.error)})`,
    );
  }
  if (!root || root.type !== "object") {
    throw new SettingsParseError(path, 1, 1, "the top level is not a JSON object");
  }
  return { path, text: source, root };
}

/** The node at `path`, or `undefined`. */
export function nodeAt(doc: JsonDoc, path: JsonPath): JsoncNode | undefined {
  return findNodeAtLocation(doc.root, path);
}

/** The plain value at `path`, or `undefined`. */
export function valueAt(doc: JsonDoc, path: JsonPath): unknown {
  const node = nodeAt(doc, path);
  return node === undefined ? undefined : nodeValue(node);
}

/**
 * The object under a top-level `key`, undefined when the key is absent;
 * anything else there is refused, since tma would have to guess how to edit
 * it.
 *
 * ```ts
 * objectAt(parseDoc("/h/settings.json", '{"hooks": {}}'), "hooks"); // {}
 * ```
 */
export function objectAt(doc: JsonDoc, key: string): Record<string, unknown> | undefined {
  const value = valueAt(doc, [key]);
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    throw new InstallError(
      `${doc.path}: "${key}" is not an object; fix it by hand (tma left the file untouched)`,
      doc.path,
    );
  }
  return value;
}

/** Converts a syntax-tree node to a plain value. */
export function nodeValue(node: JsoncNode): unknown {
  switch (node.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const prop of node.children ?? []) {
        const [key, value] = prop.children ?? [];
        if (key && value) out[String(key.value)] = nodeValue(value);
      }
      return out;
    }
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

/** The whitespace that opens the line an offset is on. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** Whether only whitespace precedes `offset` on its line. */
function startsLine(text: string, offset: number): boolean {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(start, offset));
}

/** `JSON.stringify` laid out with the file's indent, continuing at `base`. */
function layout(value: unknown, base: string, style: JsonStyle): string {
  return JSON.stringify(value, null, style.indent).replaceAll("\n", style.eol + base);
}

/**
 * Inserts a value: a new property (the last path segment a name that the
 * parent object lacks) or a new last array element (the last segment `-1`).
 * The parent must exist.
 *
 * ```ts
 * insertValue('{\n  "a": 1\n}\n', ["b"], true); // '{\n  "a": 1,\n  "b": true\n}\n'
 * ```
 */
export function insertValue(text: string, path: JsonPath, value: unknown): string {
  const style = detectStyle(text);
  const root = parseTree(text, [], { allowTrailingComma: true })!;
  const parentPath = path.slice(0, -1);
  const last = path[path.length - 1];
  const parent = findNodeAtLocation(root, parentPath);
  if (!parent || (parent.type !== "object" && parent.type !== "array")) {
    throw new Error(`insertValue: no container at ${JSON.stringify(parentPath)}`);
  }
  const raw: Edit[] = modify(text, path, value, { isArrayInsertion: typeof last === "number" });
  if (raw.length !== 1 || raw[0].length !== 0) {
    throw new Error(`insertValue: ${JSON.stringify(path)} already holds a value`);
  }
  const offset = raw[0].offset;
  const children = parent.children ?? [];
  const render = (base: string) =>
    parent.type === "object"
      ? `${JSON.stringify(last)}: ${layout(value, base, style)}`
      : layout(value, base, style);
  let content: string;
  if (children.length > 0) {
    const lastChild = children[children.length - 1];
    if (startsLine(text, lastChild.offset)) {
      const indent = lineIndent(text, lastChild.offset);
      content = `,${style.eol}${indent}${render(indent)}`;
    } else {
      content = parent.type === "object"
        ? `, ${JSON.stringify(last)}: ${JSON.stringify(value)}`
        : `, ${JSON.stringify(value)}`;
    }
  } else {
    const outer = lineIndent(text, parent.offset);
    const inner = text.slice(parent.offset + 1, parent.offset + parent.length - 1);
    const indent = outer + style.indent;
    content = inner === ""
      ? `${style.eol}${indent}${render(indent)}${style.eol}${outer}`
      : inner.includes("\n")
      ? `${style.eol}${indent}${render(indent)}`
      : ` ${render(outer)}`;
  }
  return applyEdits(text, [{ offset, length: 0, content }]);
}

/**
 * Replaces the value at an existing path, touching only that value's bytes.
 *
 * ```ts
 * replaceValue('{"a": 1, "b": 2}', ["a"], 5); // '{"a": 5, "b": 2}'
 * ```
 */
export function replaceValue(text: string, path: JsonPath, value: unknown): string {
  return applyEdits(text, modify(text, path, value, {}));
}

/**
 * Removes the property or array element at `path` (a no-op when absent), as
 * the exact inverse of `insertValue`: a later sibling takes its separator
 * with it, a first one the whitespace up to the next, and a lone child
 * leaves `{}` or `[]` behind.
 */
export function removeValue(text: string, path: JsonPath): string {
  const root = parseTree(text, [], { allowTrailingComma: true })!;
  const target = findNodeAtLocation(root, path);
  if (!target) return text;
  const parentNode = target.parent?.type === "property" ? target.parent.parent : target.parent;
  const item = target.parent?.type === "property" ? target.parent : target;
  if (!parentNode) throw new Error("removeValue: cannot remove the document itself");
  const siblings = parentNode.children ?? [];
  const index = siblings.indexOf(item);
  let begin: number;
  let end: number;
  if (siblings.length === 1) {
    // insertValue lays a child into an empty `{}` as (eol, indent, child,
    // eol, outer); that whole inside goes, any other keeps its whitespace.
    const close = parentNode.offset + parentNode.length - 1;
    const after = text.slice(item.offset + item.length, close);
    const outer = lineIndent(text, parentNode.offset);
    begin = parentNode.offset + 1;
    end = after === detectStyle(text).eol + outer ? close : item.offset + item.length;
  } else if (index > 0) {
    const previous = siblings[index - 1];
    begin = previous.offset + previous.length;
    end = item.offset + item.length;
  } else {
    begin = item.offset;
    end = siblings[1].offset;
  }
  return applyEdits(text, [{ offset: begin, length: end - begin, content: "" }]);
}
