import { createRequire } from "node:module";

// sorted-btree is CommonJS with `exports.default`; loaders disagree on what a default import of
// it gives (the class, or the exports object), so it is required as CommonJS, the same everywhere.
type BTreeModule = typeof import("sorted-btree");

export type BTree<K, V> = import("sorted-btree").default<K, V>;
export const BTree = (createRequire(import.meta.url)("sorted-btree") as BTreeModule).default;
