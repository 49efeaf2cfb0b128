import type { Plugin } from 'esbuild';

export declare const packagesOutside: Plugin;
