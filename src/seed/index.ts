/**
 * Seeding (the door): a world that starts empty, filled with N coherent entities per
 * collection its schemas describe, deterministic by a seed.
 */
export {
  MAX_SEED_COUNT,
  type Seeded,
  type SeededCollection,
  type SeedOptions,
  seedState,
} from "./seed-state.js";
