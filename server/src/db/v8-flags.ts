/**
 * PGlite's WebAssembly is compiled by V8's baseline compiler (Liftoff) only, never tiered up to
 * the optimising one (TurboFan): the optimised code of PostgreSQL took ~70 MB more of the
 * server's memory, for little speed (measured: small queries 0.18 → 0.19 ms, storing a 1 MB
 * manuscript 7 → 10 ms). Set before the module is compiled; no other WebAssembly runs in the
 * server process (the conversion threads use none).
 */
export const PGLITE_V8_FLAGS = '--liftoff-only';
