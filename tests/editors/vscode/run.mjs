#!/usr/bin/env node
// End-to-end test of the evalyaml VS Code extension in a real VS Code (code-server), driven
// through its UI with playwright-core and Debian's chromium. Prints one PASS/FAIL line per
// check, a closing "N passed, N failed" line, and exits non-zero on any failure.
//
// Environment (.ci/vscode-e2e.sh sets all of them):
//   CODE_SERVER     code-server's bin/code-server (run with NODE24)        required
//   NODE24          a Node 24 binary for code-server                       default: `node` on PATH
//   VSIX            the packaged extension                                 required
//   EVALYAML_BIN    the server executable, set as evalyaml.server.path     required
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
const EVALYAML_BIN = need('EVALYAML_BIN');
const NODE24 = env.NODE24 || 'node';
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
mkdirSync(join(userData, 'User'), { recursive: true });
mkdirSync(join(userData, 'Machine'), { recursive: true });
mkdirSync(extensions, { recursive: true });

// evalyaml.server.path is machine-overridable: in code-server (a remote window) such settings
// are read from the remote machine's settings, <user-data-dir>/Machine/settings.json.
const machineSettings = { 'evalyaml.server.path': resolve(EVALYAML_BIN) };
const settings = {
  'evalyaml.trace.server': 'messages',
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
writeFileSync(join(userData, 'Machine', 'settings.json'), JSON.stringify(machineSettings, null, 2));
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

const port = await freePort();
const serverLog = [];
const server = spawn(
  NODE24,
  [
    CODE_SERVER, ...codeServerArgs,
    '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--disable-getting-started-override', '--ignore-last-opened',
    workspace,
  ],
  { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, PATH: `${dirname(NODE24)}${sep === '/' ? ':' : ';'}${env.PATH}` } },
);
server.stdout.on('data', (d) => serverLog.push(String(d)));
server.stderr.on('data', (d) => serverLog.push(String(d)));
const base = `http://127.0.0.1:${port}`;

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
  await waitForHttp(`${base}/healthz`, 60000);
  log(`code-server listening on ${base}`);

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
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

  await check('extension activates and starts the server', extensionStarted);
  await check('(a) Problems panel lists the EY205 typo', problemsListsTypo);
  await check('(b) completion after `kind: ` offers the eleven check kinds', completionOffersKinds);
  await check('(c) go-to-definition on rubric_ref opens the rubric at its id line', definitionOpensRubric);
  await check('(d) the EY205 quick fix applies', quickFixApplies);
  exitCode = results.some((r) => !r.ok) ? 1 : 0;
} catch (err) {
  console.log(`FAIL harness: ${err && err.stack ? err.stack : err}`);
  results.push({ name: 'harness', ok: false });
  await shot('99-harness-error').catch(() => undefined);
} finally {
  collectLogs();
  await browser?.close().catch(() => undefined);
  server.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  if (server.exitCode === null) {
    server.kill('SIGKILL');
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
      const started = text.match(/Starting (.*) \(from/);
      return started ? started[1] : 'running';
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
  await runCommand('workbench.actions.view.problems', 'View: Toggle Problems');
  const panel = page.locator('.markers-panel');
  await panel.waitFor();
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
      labels = await widget.locator('.monaco-list-row .label-name').allInnerTexts();
      labels = labels.map((l) => l.trim());
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
  const file = join(workspace, rel);
  const deadline = Date.now() + 10000;
  let text = readFileSync(file, 'utf8');
  while (Date.now() < deadline && text.includes('expecteed_facts')) {
    await page.waitForTimeout(250);
    text = readFileSync(file, 'utf8');
  }
  await shot('d-quick-fix-applied');
  const fixedLine = text.split(/\r?\n/)[pos.line - 1] ?? '';
  if (text.includes('expecteed_facts') || !/expected_facts\s*:/.test(fixedLine)) {
    throw new Error(`after "${title}" line ${pos.line} reads "${fixedLine.trim()}"`);
  }
  return `"${title}" -> line ${pos.line}: ${fixedLine.trim()}`;
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
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title.replace(/^.*?: /, '') }).first();
  await row.waitFor();
  await page.keyboard.press('Enter');
  log(`ran ${id}`);
}

async function openAt(rel, line, col) {
  // Quick Open understands `path:line:col`.
  await page.keyboard.press('Escape');
  const end = Date.now() + TIMEOUT;
  for (;;) {
    await page.keyboard.press('Control+P');
    await quickInput(`${rel}:${line}:${col}`);
    const name = rel.split('/').pop();
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: name }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.waitForTimeout(500);
    const now = await activeEditorPath();
    const status = await cursorStatus();
    if (now === rel && status.startsWith(`Ln ${line}, Col ${col}`)) {
      await page.locator('.monaco-editor.focused').first().waitFor();
      return;
    }
    if (Date.now() > end) {
      throw new Error(`could not open ${rel} at ${line}:${col} (editor: "${now}", ${status})`);
    }
    await page.keyboard.press('Escape');
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
function outputLog(channel) {
  const logs = join(userData, 'logs');
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
    writeFileSync(join(ARTIFACTS, 'code-server.log'), serverLog.join(''));
    writeFileSync(join(ARTIFACTS, 'evalyaml-output.log'), outputLog('evalyaml'));
    const logs = join(userData, 'logs');
    if (existsSync(logs)) {
      cpSync(logs, join(ARTIFACTS, 'vscode-logs'), { recursive: true });
    }
  } catch (err) {
    console.log(`(could not collect logs: ${err})`);
  }
}
