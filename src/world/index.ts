/**
 * The world's shapes that need more than JSON Patch to change (the door): trees of folders
 * and files addressed by paths, with a current folder, and sparse views of a file system
 * known only in part. Pure functions on plain JSON, shared by the effects engine (the `tree`
 * effect) and hybrid mode's overlay.
 */
export {
  baseName,
  globTest,
  isWithin,
  pathGlobTest,
  pathText,
  resolvePath,
  type Segments,
  segmentsOf,
} from "./paths.js";
export * as sparse from "./sparse.js";
export {
  applyEdits,
  type EditedText,
  type EditMismatch,
  editSummary,
  type TextEdit,
  textEdits,
} from "./text.js";
export {
  cd,
  copy,
  type EntryFields,
  edit,
  type FindOptions,
  find,
  homeOf,
  info,
  isFolder,
  type ListOptions,
  list,
  mkdir,
  move,
  type NestedNode,
  type NodeConventions,
  type NodeInfo,
  nested,
  pwd,
  type RelocateOptions,
  type RemoveOptions,
  read,
  remove,
  size,
  type Tree,
  type TreeChange,
  type TreeError,
  type TreeErrorKind,
  type TreeOutcome,
  touch,
  type WriteOptions,
  write,
} from "./tree.js";
