/** esbuild plugin: npm packages (bare specifiers) load from node_modules, except our workspace's. */
export const packagesOutside = {
  name: 'packages-outside',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@margins/') ? undefined : { external: true },
    );
  },
};
