#!/usr/bin/env node
// End-to-end test of the evalyaml VS Code extension in a real VS Code (code-server), driven
// through its UI with playwright-core and Debian's chromium. Prints one PASS/FAIL line per
// check, a closing "N passed, N failed" line, and exits non-zero on any failure.
//
// The extension runs the server bundled in the VSIX: no evalyaml.server.path, code-server's PATH
// has no `evalyaml` and no Python that can import evalyaml (checked before the run: a set-up
// failure otherwise), PIP_NO_INDEX=1, and .ci/vscode-e2e.sh runs this in a network namespace of
// its own with only loopback, so nothing can be fetched.
//
// Environment (.ci/vscode-e2e.sh sets all of them):
//   CODE_SERVER     code-server's bin/code-server (run with NODE24)        required
//   NODE24          a Node 24 binary for code-server                       default: `node` on PATH
//   VSIX            the packaged extension (with the bundled server)       required
//   EVALYAML_BIN    an installed server, for check (g): set as evalyaml.server.path in a
//                   profile of its own, it must win over the bundled one   default: (g) skipped
//   EXAMPLES        the example workspace (copied, never modified)         default: <repo>/examples
//   ARTIFACTS       screenshots and logs                                   default: <repo>/artifacts/vscode
//   CHROMIUM        default /usr/bin/chromium
//   E2E_TIMEOUT_MS  how long to wait for each UI expectation               default: 60000
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..', '..');
const env = process.env;
const CODE_SERVER = need('CODE_SERVER');
const VSIX = need('VSIX');
const NODE24 = env.NODE24 || 'node';
const EVALYAML_BIN = env.EVALYAML_BIN ? resolve(env.EVALYAML_BIN) : undefined;
const EXAMPLES = resolve(env.EXAMPLES || join(repo, 'examples'));
const ARTIFACTS = resolve(env.ARTIFACTS || join(repo, 'artifacts', 'vscode'));
const CHROMIUM = env.CHROMIUM || '/usr/bin/chromium';
const TIMEOUT = Number(env.E2E_TIMEOUT_MS || 60000);
// A Problems row shows source and code as "evalyaml(EY205)" (the brackets may be CSS).
const MARKER_EY205 = /evalyaml\s*\(?EY205\b/;
const CHECK_KINDS = [
  'must_contain_any', 'must_not_contain', 'regex', 'json_schema', 'php_lint', 'markdown_structure',
  'tool_usage', 'format', 'fact_match', 'llm_judge', 'composite',
];

function need(name) {
  const v = env[name];
  if (!v) {
    console.error(`FAIL setup: environment variable ${name} is required`);
    process.exit(2);
  }
  return v;
}

const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const log = (msg) => console.log(`[${elapsed()}] ${msg}`);
const results = [];

// ---------------------------------------------------------------------------------------------
// Set-up: a private copy of the workspace, a fresh profile, the extension, the settings.

rmSync(ARTIFACTS, { recursive: true, force: true });
mkdirSync(ARTIFACTS, { recursive: true });
const scratch = mkdtempSync(join(tmpdir(), 'evalyaml-vscode-e2e-'));
const workspace = join(scratch, 'examples');
const userData = join(scratch, 'user-data');
const extensions = join(scratch, 'extensions');
cpSync(EXAMPLES, workspace, { recursive: true });
// Someone else's YAML: the server must leave it alone (no findings, no check-kind completion),
// which is what lets the extension send it every YAML file.
const NOT_OURS = 'deploy/k8s-service.yaml';
mkdirSync(join(workspace, 'deploy'), { recursive: true });
writeFileSync(
  join(workspace, NOT_OURS),
  'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  expecteed_facts: none\nspec:\n  ports:\n    - port: 80\n',
);
// JSON and JSON Lines: an Every Eval Ever aggregate (.json, language `json`) and samples file
// (.jsonl: `jsonl` where VS Code has that language, else plain text, sent by pattern), and an
// Apastra baseline (.json). Expected findings come from `evalyaml check` of the same server.
const JSON_FILES = [
  'eee/mistakes/EY700-unknown-version/data/arith-demo/acme/tiny-model/5c4b3a29-1807-4f6e-9d5c-4b3a29180706.json',
  'eee/mistakes/EY704-unknown-row-key/data/arith-demo/acme/tiny-model/5c4b3a29-1807-4f6e-9d5c-4b3a29180706_samples.jsonl',
  'apastra/mistakes/derived-index/baselines/EY804-malformed-digest.json',
];
const PROMPT = 'agentv/evals/prompts/support-grader.md';
mkdirSync(join(userData, 'User'), { recursive: true });
mkdirSync(extensions, { recursive: true });

const settings = {
  'evalyaml.trace.server': env.E2E_TRACE || 'messages',
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'editor.wordBasedSuggestions': 'off',
  'editor.quickSuggestions': { other: false, comments: false, strings: false },
  'editor.minimap.enabled': false,
  'files.autoSave': 'off',
  'files.hotExit': 'off',
  'git.enabled': false,
  'window.restoreWindows': 'none',
  // The page title names the active editor by its workspace-relative path.
  'window.title': '${activeEditorMedium}|${rootName}',
};
writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
writeFileSync(join(scratch, 'code-server.yaml'), 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n');

const codeServerArgs = ['--config', join(scratch, 'code-server.yaml'), '--user-data-dir', userData, '--extensions-dir', extensions];
function codeServer(args, options = {}) {
  return spawnSync(NODE24, [CODE_SERVER, ...codeServerArgs, ...args], { encoding: 'utf8', ...options });
}

log(`code-server: ${codeServer(['--version']).stdout.trim().split('\n')[0]}`);
const install = codeServer(['--install-extension', resolve(VSIX)]);
if (install.status !== 0) {
  console.log(install.stdout, install.stderr);
  console.log('FAIL setup: installing the VSIX into code-server');
  process.exit(1);
}
log(`installed ${VSIX}: ${install.stdout.trim().split('\n').pop()}`);
const listed = codeServer(['--list-extensions', '--show-versions']).stdout.trim();
log(`extensions: ${listed.replace(/\n/g, ', ')}`);

// ---------------------------------------------------------------------------------------------
// The environment code-server (and so the extension host and the server it starts) runs in: no
// `evalyaml` executable and no interpreter that can import evalyaml anywhere on PATH, no
// virtual environment, no PYTHONPATH, pip told not to use an index.

const PATH_SEP = sep === '/' ? ':' : ';';
const PYTHON_NAMES = ['python3', 'python', 'py'];
const canImport = (python) => spawnSync(python, ['-c', 'import evalyaml'], { stdio: 'ignore', env: cleanEnv }).status === 0;
// VSCODE_CLI=1: code-server does not replace this environment with a login shell's (its
// "resolve shell environment" step), so the extension host gets exactly what is set here.
const cleanEnv = { ...env, PIP_NO_INDEX: '1', VSCODE_CLI: '1' };
for (const name of ['VIRTUAL_ENV', 'PYTHONPATH', 'PYTHONHOME', 'CONDA_PREFIX']) {
  delete cleanEnv[name];
}
const noServerPath = (env.PATH ?? '')
  .split(PATH_SEP)
  .filter((d) => d && !existsSync(join(d, 'evalyaml')) && !PYTHON_NAMES.some((p) => existsSync(join(d, p)) && canImport(join(d, p))))
  .join(PATH_SEP);
cleanEnv.PATH = noServerPath;
const leaks = spawnSync('sh', ['-c', 'command -v evalyaml; for p in python3 python; do command -v $p > /dev/null && $p -c "import evalyaml, sys; print(sys.executable)" 2> /dev/null; done; true'], { encoding: 'utf8', env: cleanEnv }).stdout.trim();
if (leaks !== '') {
  console.log(`FAIL setup: evalyaml is still reachable from code-server's environment: ${leaks}`);
  process.exit(1);
}
const python3 = spawnSync('sh', ['-c', 'command -v python3 && python3 --version'], { encoding: 'utf8', env: cleanEnv }).stdout.trim().replace(/\n/g, ' ');
log(`code-server's environment: no evalyaml on PATH or importable, PIP_NO_INDEX=1; python3: ${python3 || '(none)'}`);

// ---------------------------------------------------------------------------------------------
// code-server on 127.0.0.1 with a free port, no auth.

async function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

const launched = [];
/** Starts code-server on 127.0.0.1 (free port, no auth) with a profile; returns its base URL. */
async function launchCodeServer(profile, pathEnv = noServerPath) {
  const port = await freePort();
  const proc = spawn(
    NODE24,
    [
      CODE_SERVER, '--config', join(scratch, 'code-server.yaml'),
      '--user-data-dir', profile, '--extensions-dir', extensions,
      '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
      '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
      '--disable-getting-started-override', '--ignore-last-opened',
      workspace,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...cleanEnv, PATH: `${dirname(NODE24)}${PATH_SEP}${pathEnv}` } },
  );
  const logs = [];
  proc.stdout.on('data', (d) => logs.push(String(d)));
  proc.stderr.on('data', (d) => logs.push(String(d)));
  launched.push({ proc, logs, profile });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/healthz`, 60000);
  log(`code-server listening on ${base} (profile ${relative(scratch, profile)})`);
  return base;
}

async function waitForHttp(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      if (r.ok) {
        return;
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

let browser;
let page;
let exitCode = 1;
try {
  const base = await launchCodeServer(userData);

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Chromium's own config/crash folders go to the scratch folder, not $HOME.
    env: { ...env, XDG_CONFIG_HOME: join(scratch, 'xdg-config'), XDG_CACHE_HOME: join(scratch, 'xdg-cache') },
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
      '--disable-dev-shm-usage',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  await page.goto(`${base}/?folder=${encodeURIComponent(workspace)}`);
  await page.locator('.monaco-workbench').waitFor();
  await page.locator('.part.statusbar').waitFor();
  await shot('00-workbench');
  log('workbench loaded');
  await dismissNotifications();

  await check('extension activates and starts the bundled server', extensionStarted);
  await check('(a) Problems panel lists the EY205 typo', problemsListsTypo);
  await check('(b) completion after `kind: ` offers the eleven check kinds', completionOffersKinds);
  await check('(c) go-to-definition on rubric_ref opens the rubric at its id line', definitionOpensRubric);
  await check('(d) the EY205 quick fix applies', quickFixApplies);
  await check('(e) YAML that is not an eval file gets nothing from evalyaml', notOursLeftAlone);
  await check('(h) JSON and JSON Lines files get the findings the CLI gives', jsonFilesGetCliFindings);
  await check('(i) a Markdown grader prompt an AgentV suite names is checked as it is edited', promptCheckedWhenEdited);
  await check('(j) Markdown that no suite names gets nothing from evalyaml', unnamedMarkdownLeftAlone);
  await check('(f) no Python 3.11+ anywhere: one notification naming the fix, with a button to the setting', noServerNotification);
  if (EVALYAML_BIN) {
    await check('(g) evalyaml.server.path wins over the bundled server, and the output says so', serverPathOverrides);
  } else {
    log('(g) skipped: no EVALYAML_BIN');
  }
  exitCode = results.some((r) => !r.ok) ? 1 : 0;
} catch (err) {
  console.log(`FAIL harness: ${err && err.stack ? err.stack : err}`);
  results.push({ name: 'harness', ok: false });
  await shot('99-harness-error').catch(() => undefined);
} finally {
  collectLogs();
  await browser?.close().catch(() => undefined);
  for (const { proc } of launched) {
    proc.kill('SIGTERM');
  }
  await new Promise((r) => setTimeout(r, 500));
  for (const { proc } of launched) {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGKILL');
    }
  }
  rmSync(scratch, { recursive: true, force: true });
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  log(`artifacts in ${ARTIFACTS}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(exitCode);
}

// ---------------------------------------------------------------------------------------------
// Checks

async function check(name, fn) {
  const only = env.E2E_ONLY ? env.E2E_ONLY.split(',') : undefined;
  const letter = (name.match(/^\((\w)\)/) ?? [])[1];
  if (only && letter && !only.includes(letter)) {
    return;
  }
  const start = Date.now();
  try {
    const detail = await fn();
    results.push({ name, ok: true });
    console.log(`PASS ${name}${detail ? `: ${detail}` : ''} (${((Date.now() - start) / 1000).toFixed(1)}s)`);
  } catch (err) {
    results.push({ name, ok: false });
    const slug = name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase().slice(0, 60);
    await shot(`fail-${slug}`).catch(() => undefined);
    console.log(`FAIL ${name}: ${err && err.message ? err.message : err}`);
  }
  await page.keyboard.press('Escape').catch(() => undefined);
}

async function debugDom(text) {
  // Prints the class chain of elements whose own text contains `text` (harness debugging).
  const found = await page.evaluate((t) => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      if (walker.currentNode.textContent.includes(t)) {
        const chain = [];
        for (let el = walker.currentNode.parentElement; el && chain.length < 8; el = el.parentElement) {
          chain.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
        }
        out.push(chain.join(' < '));
      }
    }
    return out;
  }, text);
  log(`DOM for "${text}":\n  ${found.join('\n  ')}`);
}

async function extensionStarted() {
  // The extension's output channel logs "Starting <server> lsp" and the client state.
  const end = Date.now() + TIMEOUT;
  let text = '';
  while (Date.now() < end) {
    text = outputLog('evalyaml');
    if (/client state: Starting -> Running/.test(text)) {
      const started = text.match(/Starting (.*) \(the server bundled with the extension, run by ([^;]*);/);
      if (!started) {
        throw new Error(`the server running is not the bundled one. Output channel:\n${text}`);
      }
      if (!started[1].includes(`${sep}bundled${sep}tool${sep}evalyaml_server.py`) || !started[1].includes(extensions)) {
        throw new Error(`unexpected bundled command: ${started[1]}`);
      }
      return `${started[1].replace(extensions, '<extensions>')} (${started[2]})`;
    }
    if (/the language server was not found|did not start/.test(text)) {
      break;
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`the evalyaml client did not reach Running. Output channel:\n${text || '(empty)'}`);
}

async function problemsListsTypo() {
  const rel = 'mistakes/datasets/EY205-typo-expecteed_facts.yaml';
  const pos = findKey(rel, 'expecteed_facts');
  await openAt(rel, pos.line, pos.col);
  const panel = await showProblems();
  // The file row also says "EY205" (in the file name): look for the marker's own
  // "evalyaml(EY205)" source and code.
  await expectText(panel, MARKER_EY205, 'a marker "evalyaml(EY205)" in the Problems panel');
  await shot('a-problems-EY205');
  const row = page.locator('.markers-panel .monaco-list-row', { hasText: MARKER_EY205 }).first();
  return (await row.innerText()).replace(/\s+/g, ' ').trim();
}

async function completionOffersKinds() {
  const { rel, line, col } = findKindLine();
  await openAt(rel, line, col);
  // Delete the value after `kind: ` and ask for completion there.
  await page.keyboard.press('Shift+End');
  await page.keyboard.press('Delete');
  await shot('b-before-completion');
  const widget = page.locator('.editor-widget.suggest-widget.visible');
  let labels = [];
  const end = Date.now() + TIMEOUT;
  while (Date.now() < end) {
    await page.keyboard.press('Control+Space');
    try {
      await widget.waitFor({ timeout: 5000 });
      await page.waitForTimeout(500);
      labels = await suggestionLabels(widget);
      if (CHECK_KINDS.every((k) => labels.includes(k))) {
        break;
      }
    } catch {
      // widget not shown yet: the server may still be indexing
    }
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1000);
  }
  await shot('b-completion-kinds');
  await page.keyboard.press('Escape');
  await undoAll();
  const missing = CHECK_KINDS.filter((k) => !labels.includes(k));
  if (missing.length > 0) {
    throw new Error(`missing ${missing.join(', ')}; offered: ${labels.join(', ') || '(nothing)'} in ${rel}:${line}`);
  }
  return `${rel}:${line} offered ${labels.length} items`;
}

async function definitionOpensRubric() {
  const { rel, line, col, id } = findRubricRef();
  await openAt(rel, line, col);
  const end = Date.now() + TIMEOUT;
  let tab = '';
  let status = '';
  while (Date.now() < end) {
    await page.keyboard.press('F12');
    await page.waitForTimeout(1500);
    tab = await activeEditorPath();
    status = await cursorStatus();
    if (tab !== '' && tab !== rel) {
      break;
    }
    await openAt(rel, line, col);
  }
  await shot('c-definition');
  const target = tab;
  if (!walk(workspace).includes(target) || !target.split('/').includes('rubrics')) {
    throw new Error(`F12 on ${rel}:${line}:${col} left the editor on "${tab}", not a rubric file`);
  }
  const ln = Number((status.match(/Ln (\d+)/) ?? [])[1]);
  const text = readFileSync(join(workspace, target), 'utf8').split(/\r?\n/)[ln - 1] ?? '';
  if (!/^\s*id\s*:/.test(text) || !text.includes(id)) {
    throw new Error(`opened ${target} at line ${ln} ("${text.trim()}"), not its id line for ${id}`);
  }
  return `${rel}:${line} -> ${target}:${ln} (${text.trim()})`;
}

async function quickFixApplies() {
  const rel = 'mistakes/datasets/EY205-typo-expecteed_facts.yaml';
  const pos = findKey(rel, 'expecteed_facts');
  await openAt(rel, pos.line, pos.col + 2);
  const rows = page.locator('.action-widget .monaco-list-row.action');
  const end = Date.now() + TIMEOUT;
  let items = [];
  while (Date.now() < end) {
    await page.keyboard.press('Control+.');
    if (env.E2E_DEBUG) {
      await page.waitForTimeout(2000);
      await debugDom('expected_facts');
    }
    try {
      await rows.first().waitFor({ timeout: 5000 });
      items = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      if (items.some((t) => t.includes('expected_facts'))) {
        break;
      }
    } catch {
      // no code actions yet: diagnostics may not have arrived
    }
    log(`no quick fix yet (${items.join(' | ') || 'no menu'}); retrying`);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1000);
  }
  await shot('d-quick-fix-menu');
  const fix = rows.filter({ hasText: 'expected_facts' }).first();
  if ((await fix.count()) === 0) {
    throw new Error(`no quick fix naming expected_facts; offered: ${items.join(' | ') || '(nothing)'}`);
  }
  const title = (await fix.innerText()).replace(/\s+/g, ' ').trim();
  await fix.click();
  await page.waitForTimeout(500);
  await page.keyboard.press('Control+S');
  // Saved to disk (the workspace is a scratch copy): the key on that line is now spelled right.
  const file = join(workspace, rel);
  const lineOf = () => readFileSync(file, 'utf8').split(/\r?\n/)[pos.line - 1] ?? '';
  const fixed = /^\s*(?:-\s+)?expected_facts\s*:/;
  const deadline = Date.now() + 10000;
  while (Date.now() < deadline && !fixed.test(lineOf())) {
    await page.waitForTimeout(250);
  }
  await shot('d-quick-fix-applied');
  const fixedLine = lineOf();
  if (!fixed.test(fixedLine)) {
    throw new Error(`after "${title}" line ${pos.line} reads "${fixedLine.trim()}"`);
  }
  return `"${title}" -> line ${pos.line}: ${fixedLine.trim()}`;
}

async function serverPathOverrides() {
  // A third code-server whose profile sets evalyaml.server.path to an installed evalyaml.
  const profile = join(scratch, 'user-data-server-path');
  mkdirSync(join(profile, 'User'), { recursive: true });
  writeFileSync(join(profile, 'User', 'settings.json'), JSON.stringify({ ...settings, 'evalyaml.server.path': EVALYAML_BIN }, null, 2));
  const base = await launchCodeServer(profile);
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const mainPage = page;
  page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  try {
    await page.goto(`${base}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench').waitFor();
    const end = Date.now() + TIMEOUT;
    let text = '';
    while (Date.now() < end && !/client state: Starting -> Running/.test(text)) {
      await page.waitForTimeout(500);
      text = outputLog('evalyaml', profile);
    }
    writeFileSync(join(ARTIFACTS, 'evalyaml-output-server-path.log'), text);
    const expected = `Starting ${EVALYAML_BIN} lsp (from evalyaml.server.path)`;
    if (!text.includes(expected) || !/client state: Starting -> Running/.test(text)) {
      throw new Error(`expected "${expected}" and a running client; output:\n${text || '(empty)'}`);
    }
    if (text.includes('bundled/tool/evalyaml_server.py')) {
      throw new Error('the bundled server was started as well');
    }
    return expected;
  } finally {
    await context.close().catch(() => undefined);
    page = mainPage;
  }
}

async function noServerNotification() {
  // A second code-server whose extension host can find no server and no Python to run the
  // bundled one: a server.path that does not exist, no Python extension, and a PATH without any
  // `evalyaml`, `python3`, `python` or `py`.
  const profile = join(scratch, 'user-data-no-server');
  mkdirSync(join(profile, 'User'), { recursive: true });
  const bogus = join(scratch, 'no-such-dir', 'evalyaml');
  writeFileSync(join(profile, 'User', 'settings.json'), JSON.stringify({ ...settings, 'evalyaml.server.path': bogus }, null, 2));
  const pathEnv = noServerPath.split(PATH_SEP).filter((d) => d && ![...PYTHON_NAMES, 'evalyaml'].some((p) => existsSync(join(d, p)))).join(PATH_SEP);
  const base = await launchCodeServer(profile, pathEnv);
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const mainPage = page;
  page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  try {
    await page.goto(`${base}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench').waitFor();
    const toasts = page.locator('.notifications-toasts .notification-toast', { hasText: 'evalyaml' });
    await toasts.first().waitFor().catch((err) => {
      throw new Error(`${err.message}\nevalyaml output:\n${outputLog('evalyaml', profile) || '(empty)'}`);
    });
    await page.waitForTimeout(5000); // time for any second notification to show up
    await shot('f-no-server-notification');
    const texts = (await toasts.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    writeFileSync(join(ARTIFACTS, 'evalyaml-output-no-server.log'), outputLog('evalyaml', profile));
    if (texts.length !== 1) {
      throw new Error(`expected one evalyaml notification, saw ${texts.length}: ${texts.join(' | ')}`);
    }
    for (const needed of ['not found', bogus, 'no Python 3.11 or newer', 'install Python 3.11', 'evalyaml.server.path', 'PATH']) {
      if (!texts[0].includes(needed)) {
        throw new Error(`the notification does not mention "${needed}": ${texts[0]}`);
      }
    }
    await toasts.first().locator('.monaco-button', { hasText: 'Open Settings' }).click();
    const search = page.locator('.settings-editor .suggest-input-container .view-lines, .settings-editor .search-container');
    await expectText(search.first(), /evalyaml\.server\.path/, 'the Settings editor searching evalyaml.server.path');
    await page.waitForTimeout(1000);
    await shot('f-settings-opened');
    if (env.E2E_DEBUG) {
      await debugDom('Path');
    }
    await page.locator('.settings-editor .setting-item-contents', { hasText: 'evalyaml lsp' }).first().waitFor();
    return texts[0].slice(0, 160) + '…';
  } finally {
    await context.close().catch(() => undefined);
    page = mainPage;
  }
}

/** Every label in the open suggest widget: the list only renders the rows in view, so walk it. */
async function suggestionLabels(widget) {
  const seen = new Set();
  let first;
  for (let i = 0; i < 100; i++) {
    for (const l of await widget.locator('.monaco-list-row .label-name').allInnerTexts()) {
      seen.add(l.trim());
    }
    const focused = (await widget.locator('.monaco-list-row.focused .label-name').first().innerText().catch(() => '')).trim();
    if (i === 0) {
      first = focused;
    } else if (focused === first) {
      break; // wrapped around
    }
    await page.keyboard.press('ArrowDown');
  }
  return [...seen];
}

async function notOursLeftAlone() {
  const kind = findKey(NOT_OURS, 'kind');
  await openAt(NOT_OURS, kind.line, kind.col + 'kind: '.length);
  await page.keyboard.press('Shift+End');
  await page.keyboard.press('Delete');
  await page.keyboard.press('Control+Space');
  await page.waitForTimeout(3000);
  const labels = (await page.locator('.editor-widget.suggest-widget.visible .monaco-list-row .label-name').allInnerTexts()).map((l) => l.trim());
  await shot('e-not-ours-completion');
  await page.keyboard.press('Escape');
  await undoAll();
  const offered = CHECK_KINDS.filter((k) => labels.includes(k));
  if (offered.length > 0) {
    throw new Error(`completion in ${NOT_OURS} offered check kinds: ${offered.join(', ')}`);
  }
  // Findings for the other files arrive within a second or two of opening; give this one 3 s.
  const name = NOT_OURS.split('/').pop();
  await showProblems();
  const rows = await page.locator('.markers-panel .monaco-list-row').allInnerTexts();
  await shot('e-not-ours-problems');
  const mine = rows.filter((r) => r.includes(name));
  if (mine.length > 0) {
    throw new Error(`the Problems panel lists ${name}: ${mine.join(' | ').replace(/\s+/g, ' ')}`);
  }
  return `no findings, no check kinds offered (${labels.length} other suggestions)`;
}


/** `evalyaml check --format json REL` in the workspace, by the bundled server (else EVALYAML_BIN). */
function cliFindings(rel) {
  const bundled = join(repo, 'vscode-client', 'bundled', 'tool', 'evalyaml_server.py');
  const [cmd, args] = existsSync(join(repo, 'vscode-client', 'bundled', 'libs', 'evalyaml'))
    ? ['python3', ['-I', bundled]]
    : [EVALYAML_BIN, []];
  if (!cmd) {
    throw new Error('no CLI to compare with: package the extension (bundled/libs) or set EVALYAML_BIN');
  }
  const run = spawnSync(cmd, [...args, 'check', '--format', 'json', rel], { cwd: workspace, encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 1) {
    throw new Error(`evalyaml check ${rel} exited with ${run.status}: ${run.stderr}`);
  }
  return JSON.parse(run.stdout).map((f) => ({ code: f.code, line: f.range.start.line, character: f.range.start.character, message: f.message }));
}

/** The Problems panel row of an evalyaml marker with this code at this 1-based line and column. */
async function expectMarker(code, line, col, what) {
  const panel = await showProblems();
  const marker = new RegExp(`evalyaml\\s*\\(?${code}\\b[\\s\\S]*\\[Ln ${line}, Col ${col}\\]`);
  const row = page.locator('.markers-panel .monaco-list-row', { hasText: marker }).first();
  const end = Date.now() + TIMEOUT;
  while ((await row.count()) === 0) {
    if (Date.now() > end) {
      const rows = (await panel.innerText().catch(() => '')).replace(/\s+/g, ' ').slice(0, 600);
      throw new Error(`no marker ${code} at Ln ${line}, Col ${col} for ${what}; Problems: ${rows}`);
    }
    await page.waitForTimeout(500);
  }
  return (await row.innerText()).replace(/\s+/g, ' ').trim();
}

async function jsonFilesGetCliFindings() {
  const seen = [];
  for (const rel of JSON_FILES) {
    const expected = cliFindings(rel);
    if (expected.length === 0) {
      throw new Error(`the CLI finds nothing in ${rel}: not a mistake file`);
    }
    await openAt(rel, expected[0].line + 1, expected[0].character + 1);
    for (const f of expected) {
      const row = await expectMarker(f.code, f.line + 1, f.character + 1, rel);
      if (!row.includes(f.message.slice(0, 40))) {
        throw new Error(`the ${f.code} marker of ${rel} reads "${row}", not "${f.message}"`);
      }
      seen.push(`${rel.split('/').pop()}: ${f.code} Ln ${f.line + 1}, Col ${f.character + 1}`);
    }
    await shot(`h-${rel.split('/').pop()}`);
  }
  return seen.join('; ');
}

async function promptCheckedWhenEdited() {
  const lines = readFileSync(join(workspace, PROMPT), 'utf8').split(/\r?\n/);
  const line = lines.findIndex((l) => l.includes('{{ output }}')) + 1;
  if (line === 0) {
    throw new Error(`${PROMPT} has no {{ output }}`);
  }
  const col = lines[line - 1].indexOf('{{ output }}') + 4; // 1-based column of `output`
  await openAt(PROMPT, line, col);
  for (let i = 0; i < 'output'.length; i++) {
    await page.keyboard.press('Shift+ArrowRight');
  }
  await page.keyboard.type('ouput');
  try {
    const row = await expectMarker('EY624', line, col, `{{ ouput }} in ${PROMPT}`);
    await shot('i-prompt-EY624');
    return row;
  } finally {
    await undoAll();
  }
}

async function unnamedMarkdownLeftAlone() {
  const rel = 'README.md';
  await openAt(rel, 1, 1);
  await page.keyboard.type('Grade {{ ouput }} here.\n');
  await page.waitForTimeout(3000);
  await showProblems();
  const rows = await page.locator('.markers-panel .monaco-list-row').allInnerTexts();
  await shot('j-unnamed-markdown');
  await undoAll();
  const mine = rows.filter((r) => r.includes(rel) || /EY624/.test(r));
  if (mine.length > 0) {
    throw new Error(`the Problems panel lists ${rel}: ${mine.join(' | ').replace(/\s+/g, ' ')}`);
  }
  return 'no findings (check (i) shows Markdown reaches the server)';
}

// ---------------------------------------------------------------------------------------------
// UI helpers

async function shot(name) {
  if (page) {
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  }
}

async function dismissNotifications() {
  // Toasts (for example a tour or a recommendation) can cover the editor.
  const close = page.locator('.notifications-toasts .codicon-notifications-clear-all, .notification-toast .codicon-close');
  for (let i = 0; i < 5 && (await close.count()) > 0; i++) {
    await close.first().click({ timeout: 2000 }).catch(() => undefined);
  }
}

async function quickInput(text) {
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor();
  await input.fill(text);
  return input;
}

async function runCommand(id, title) {
  await page.keyboard.press('F1');
  await quickInput(`>${title}`);
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await row.waitFor();
  await page.keyboard.press('Enter');
  log(`ran ${id}`);
}

async function showProblems() {
  await runCommand('workbench.panel.markers.view.focus', 'Focus on Problems View');
  const panel = page.locator('.markers-panel');
  await panel.waitFor();
  return panel;
}

async function openAt(rel, line, col) {
  // Quick Open (Ctrl+P) for the file, then Go to Line/Column (Ctrl+G). Quick Open's own
  // `path:line:col` form moves the cursor in the *current* editor when Enter comes before the
  // file search has answered, so the two steps are kept apart and each is checked.
  const name = rel.split('/').pop();
  const end = Date.now() + TIMEOUT;
  for (;;) {
    await page.keyboard.press('Escape');
    if ((await activeEditorPath()) !== rel) {
      await page.keyboard.press('Control+P');
      await quickInput(rel);
      await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: name }).first().waitFor();
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
    }
    const now = await activeEditorPath();
    if (now === rel) {
      await page.locator('.monaco-editor.focused').first().waitFor();
      await page.keyboard.press('Control+G');
      await quickInput(`:${line}:${col}`);
      await page.waitForTimeout(200);
      await page.keyboard.press('Enter');
      await page.waitForTimeout(200);
      const status = await cursorStatus();
      if (status.startsWith(`Ln ${line}, Col ${col}`)) {
        await page.locator('.monaco-editor.focused').first().waitFor();
        return;
      }
      log(`retrying Go to Line ${line}:${col} in ${rel} (${status})`);
    } else {
      log(`retrying Quick Open of ${rel} (editor: "${now}")`);
    }
    if (Date.now() > end) {
      throw new Error(`could not open ${rel} at ${line}:${col} (editor: "${await activeEditorPath()}", ${await cursorStatus()})`);
    }
  }
}

/** Workspace-relative path of the active editor, from the page title (see window.title). */
async function activeEditorPath() {
  const title = await page.title();
  return title.split('|')[0].trim().replace(/^[●*]\s*/, '');
}

async function cursorStatus() {
  const item = page.locator('[id="status.editor.selection"]');
  return (await item.count()) > 0 ? (await item.innerText()).trim() : '';
}

async function expectText(locator, re, what) {
  const end = Date.now() + TIMEOUT;
  let text = '';
  while (Date.now() < end) {
    text = await locator.innerText().catch(() => '');
    if (re.test(text)) {
      return text;
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`timed out waiting for ${what}; saw: ${text.replace(/\s+/g, ' ').slice(0, 400) || '(nothing)'}`);
}

async function undoAll() {
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Control+Z');
  }
}

// ---------------------------------------------------------------------------------------------
// Workspace helpers: positions come from the files, so the checks follow the examples.

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      out.push(...walk(full));
    } else if (/\.ya?ml$/.test(name)) {
      out.push(relative(workspace, full).split(sep).join('/'));
    }
  }
  return out.sort();
}

/** 1-based line and column of the first mapping key `key` (not a mention in a comment). */
function findKey(rel, key) {
  const lines = readFileSync(join(workspace, rel), 'utf8').split(/\r?\n/);
  const re = new RegExp(`^(\\s*(?:-\\s+)?)${key}\\s*:`);
  for (let i = 0; i < lines.length; i++) {
    const m = re.exec(lines[i]);
    if (m) {
      return { line: i + 1, col: m[1].length + 1, text: lines[i] };
    }
  }
  throw new Error(`${rel} has no key ${key}`);
}

function findKindLine() {
  for (const rel of walk(workspace).filter((f) => f.startsWith('rubrics/'))) {
    const lines = readFileSync(join(workspace, rel), 'utf8').split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const m = /^(\s*(?:-\s+)?kind:\s*)\S/.exec(lines[i]);
      if (m) {
        return { rel, line: i + 1, col: m[1].length + 1 };
      }
    }
  }
  throw new Error('no rubric under rubrics/ has a `kind:` line');
}

function findRubricRef() {
  const files = walk(workspace).filter((f) => !f.startsWith('mistakes/'));
  for (const rel of files) {
    const lines = readFileSync(join(workspace, rel), 'utf8').split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const m = /^(\s*(?:-\s+)?rubric_ref:\s*["']?)rubric\/([A-Za-z0-9_-]+)/.exec(lines[i]);
      if (m) {
        // The cursor goes inside the id part of the reference.
        return { rel, line: i + 1, col: m[1].length + 'rubric/'.length + 2, id: m[2] };
      }
    }
  }
  throw new Error('no file outside mistakes/ has a `rubric_ref: rubric/...` line');
}

/** The text of an output channel, from the log files code-server writes under the profile. */
function outputLog(channel, profile = userData) {
  const logs = join(profile, 'logs');
  if (!existsSync(logs)) {
    return '';
  }
  const hits = [];
  const visit = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        visit(full);
      } else if (name.endsWith(`-${channel}.log`) || name === `${channel}.log`) {
        hits.push(full);
      }
    }
  };
  visit(logs);
  return hits.map((f) => readFileSync(f, 'utf8')).join('\n');
}

function collectLogs() {
  try {
    launched.forEach(({ logs }, i) => writeFileSync(join(ARTIFACTS, `code-server-${i + 1}.log`), logs.join('')));
    writeFileSync(join(ARTIFACTS, 'evalyaml-output.log'), outputLog('evalyaml'));
    const logs = join(userData, 'logs');
    if (existsSync(logs)) {
      cpSync(logs, join(ARTIFACTS, 'vscode-logs'), { recursive: true });
    }
  } catch (err) {
    console.log(`(could not collect logs: ${err})`);
  }
}
