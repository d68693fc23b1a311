/**
 * The world's shapes that need more than JSON Patch to change (the door): trees of folders
 * and files addressed by paths, with a current folder. Pure functions on plain JSON, shared
 * by the effects engine (the `tree` effect) and hybrid mode's overlay.
 */
export { baseName, globTest, isWithin, pathText, resolvePath, type Segments, segmentsOf } from "./paths.js";
export {
  cd,
  copy,
  type FindOptions,
  find,
  homeOf,
  info,
  isFolder,
  list,
  mkdir,
  move,
  type NodeConventions,
  type NodeInfo,
  pwd,
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
