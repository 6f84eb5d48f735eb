// Bundles the extension into dist/extension.js (CommonJS, `vscode` external) and, with
// --tests, the unit tests into out/test/*.test.js for `node --test`.
import { build, context } from 'esbuild';
import { readdirSync } from 'node:fs';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');

/** @type {import('esbuild').BuildOptions} */
const extension = {
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  external: ['vscode'],
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
};

if (args.has('--tests')) {
  // Tests import only the pure modules (no `vscode`), so they run under plain Node.
  const entryPoints = readdirSync('test')
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `test/${f}`);
  await build({
    entryPoints,
    bundle: true,
    outdir: 'out/test',
    format: 'cjs',
    platform: 'node',
    target: 'node18',
    sourcemap: 'inline',
    external: ['vscode'],
    logLevel: 'warning',
  });
} else if (watch) {
  const ctx = await context(extension);
  await ctx.watch();
} else {
  await build(extension);
}
