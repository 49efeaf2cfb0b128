/**
 * The second cruise of `npm run check:cycles`: the rules of .dependency-cruiser.cjs on the
 * imports as they run (type-only imports left out), so that every circle it finds is a runtime
 * one and no type-only circle hides it.
 */
module.exports = {
  extends: './.dependency-cruiser.cjs',
  options: { tsPreCompilationDeps: false },
};
