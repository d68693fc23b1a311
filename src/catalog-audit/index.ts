/** Catalog audit room: near-duplicate detection (and, later, reliability audits) over loaded toolsets. */
export { type DedupDrop, type DedupReport, type DedupTool, selectDuplicates } from "./dedup.js";
export { denseCosine, sparseCosine, tfidfVectors, toolText } from "./lexical.js";
