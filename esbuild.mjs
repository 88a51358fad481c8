// Bundles the three programs of the project into dist/:
//   dist/extension.js     the extension (Node, CommonJS, `vscode` left to the extension host)
//   dist/cli.js           the headless `magi` CLI (Node, CommonJS, executable)
//   dist/webview/         the webviews (browser, IIFE): chat.js/.css, missionControl.js/.css, and
//                         codicon.css/.ttf copied from @vscode/codicons
//   dist/grepWorker.js    grep's matching worker thread, started by the two Node bundles from next to themselves
//   dist/astGrepWorker.js ast_grep's parse worker thread, likewise
// Type-checking is a separate step (`npm run typecheck`). Flags: --watch, --production (minify).
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readFileSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = {
  bundle: true,
  minify: production,
  // The packaged (production) bundles ship without maps; development builds keep them for debugging.
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  metafile: true,
  define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
};

// @ast-grep/napi is a native addon and each @ast-grep/lang-* package finds its prebuilt parser
// next to itself; playwright-core reads its own files (browser protocols, injected scripts) from
// its package folder: they stay in node_modules and are required at run time, never bundled.
const nativeModules = ['@ast-grep/*', 'playwright-core'];

// The CLI keeps its own hashbang if it has one; otherwise the bundle gets one.
const cliHasHashbang = readFileSync('src/cli.ts', 'utf8').startsWith('#!');

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', ...nativeModules],
  },
  {
    ...common,
    entryPoints: ['src/cli.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: nativeModules,
    banner: cliHasHashbang ? {} : { js: '#!/usr/bin/env node' },
    plugins: [executable('dist/cli.js')],
  },
  {
    ...common,
    entryPoints: ['src/core/tools/grep/worker.ts'],
    outfile: 'dist/grepWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    ...common,
    entryPoints: ['src/core/tools/astGrep/worker.ts'],
    outfile: 'dist/astGrepWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: nativeModules,
  },
  {
    ...common,
    entryPoints: { chat: 'webview/chat/main.ts', missionControl: 'webview/missionControl/main.ts' },
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    // codicon.css is not imported by the bundles: the host links the copy made below.
    plugins: [copyCodicons('dist/webview')],
  },
];

/** Copies the codicon stylesheet and its font next to the webview bundles, for the host to link. */
function copyCodicons(dir) {
  return {
    name: 'copy-codicons',
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length > 0) return;
        mkdirSync(dir, { recursive: true });
        for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `${dir}/${file}`);
      });
    },
  };
}

/** Marks a bundle executable after every (re)build. */
function executable(file) {
  return {
    name: 'executable',
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length === 0) chmodSync(file, 0o755);
      });
    },
  };
}

/** Prints each output's size after every (re)build. */
const sizes = {
  name: 'sizes',
  setup(build) {
    build.onEnd((result) => {
      if (!result.metafile) return;
      for (const [file, { bytes }] of Object.entries(result.metafile.outputs)) {
        if (!file.endsWith('.map')) console.log(`${file.padEnd(24)} ${(bytes / 1024).toFixed(1).padStart(8)} KiB`);
      }
    });
  },
};

const configs = targets.map((t) => ({ ...t, plugins: [...(t.plugins ?? []), sizes] }));

if (watch) {
  const contexts = await Promise.all(configs.map((c) => esbuild.context(c)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('watching for changes (Ctrl-C to stop)');
} else {
  const results = await Promise.allSettled(configs.map((c) => esbuild.build(c)));
  // esbuild has already printed the errors; a failed bundle fails the build.
  if (results.some((r) => r.status === 'rejected')) process.exit(1);
}
