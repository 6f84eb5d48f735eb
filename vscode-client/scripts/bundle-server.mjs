// Puts the evalyaml language server inside the extension, the way Microsoft's Python-tool
// extensions (black, pylint, isort, mypy) do: bundled/libs holds the repository's own
// server/evalyaml plus its dependencies, bundled/tool/evalyaml_server.py puts bundled/libs first
// on sys.path and runs `evalyaml lsp`. Runs from `vscode:prepublish`, so `npm run package` (and
// `vsce publish`) always ship a fresh bundle. Needs python3 with pip, and the package index
// (this is the only step that downloads; the extension never does).
//
// Every dependency is a pure-Python wheel (bundled/requirements.txt says which and why), so the
// VSIX is one universal package for every OS and every CPython >= 3.11.
//
//   EVALYAML_BUNDLE_PYTHON  the interpreter that runs pip (default: python3, python, py -3)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const client = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repo = resolve(client, '..');
const source = join(repo, 'server', 'evalyaml');
const libs = join(client, 'bundled', 'libs');
const requirements = join(client, 'bundled', 'requirements.txt');

function fail(message) {
  console.error(`bundle-server: ${message}`);
  process.exit(1);
}

/** The first interpreter that runs `-m pip --version`: [command, ...args]. */
function findPython() {
  const candidates = process.env.EVALYAML_BUNDLE_PYTHON
    ? [[process.env.EVALYAML_BUNDLE_PYTHON]]
    : [['python3'], ['python'], ['py', '-3']];
  for (const [cmd, ...args] of candidates) {
    const r = spawnSync(cmd, [...args, '-m', 'pip', '--version'], { encoding: 'utf8' });
    if (r.status === 0) {
      return [cmd, ...args];
    }
  }
  return fail(`no Python with pip found (tried ${candidates.map((c) => c.join(' ')).join(', ')}); set EVALYAML_BUNDLE_PYTHON`);
}

/** Removes __pycache__ folders and compiled files: the interpreter that runs the server writes its own. */
function prune(dir) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name === '__pycache__') {
        rmSync(full, { recursive: true, force: true });
      } else {
        prune(full);
      }
    } else if (/\.(pyc|pyo|so|pyd|dylib)$/.test(name)) {
      fail(`${full}: compiled code in the bundle (every bundled dependency must be pure Python)`);
    }
  }
}

function sizeOf(dir) {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    const st = statSync(full);
    total += st.isDirectory() ? sizeOf(full) : st.size;
  }
  return total;
}

if (!existsSync(join(source, '__init__.py'))) {
  fail(`${source} not found: the bundle is built from the repository's own server code`);
}
const python = findPython();
rmSync(libs, { recursive: true, force: true });
mkdirSync(libs, { recursive: true });

// 1. The dependencies: pinned, pure-Python wheels only, nothing else pulled in.
const pip = spawnSync(
  python[0],
  [
    ...python.slice(1), '-m', 'pip', 'install',
    '--target', libs, '--no-deps', '--only-binary=:all:', '--implementation', 'py', '--python-version', '3.11',
    '--no-cache-dir', '--no-compile', '--disable-pip-version-check', '--quiet',
    '--requirement', requirements,
  ],
  { stdio: 'inherit' },
);
if (pip.status !== 0) {
  fail(`pip install --target ${libs} failed (status ${pip.status})`);
}
rmSync(join(libs, 'bin'), { recursive: true, force: true });

// 2. `rpds` for referencing/jsonschema, served by the pure-Python adapter.
mkdirSync(join(libs, 'rpds'));
writeFileSync(
  join(libs, 'rpds', '__init__.py'),
  '"""rpds-py\'s API for referencing and jsonschema, from pyrsistent-as-rpds-py (pure Python)."""\n' +
    'from pyrsistent_as_rpds.pure import *  # noqa: F403\n\n' +
    'is_pure_pyrsistent_as_rpds = True\n',
);

// 3. The server itself: this repository's code as it is now. server/evalyaml/schemas is a link
//    to the top-level schemas/ (a plain file where git checks links out as files): copy the
//    folder itself.
cpSync(source, join(libs, 'evalyaml'), { recursive: true, dereference: true });
const schemas = join(libs, 'evalyaml', 'schemas');
if (!existsSync(join(schemas, 'dataset.schema.json'))) {
  rmSync(schemas, { recursive: true, force: true });
  cpSync(join(repo, 'schemas'), schemas, { recursive: true });
}
prune(libs);

const mb = (sizeOf(libs) / 1e6).toFixed(1);
console.log(`bundle-server: ${libs} (${mb} MB): server/evalyaml + ${readdirSync(libs).filter((n) => n.endsWith('.dist-info')).length} dependencies, pip run by ${python.join(' ')}`);
