/**
 * Finding the evalyaml language server. Pure logic: no `vscode` import, every effect (file
 * system, processes, the Python extension) comes in through `DiscoveryProbe`, so the order and
 * the messages are unit-tested with `node --test`.
 *
 * Order, first that works wins. The first three are overrides, for a user who wants a server of
 * their own; the fourth, the server bundled in the extension, is what runs when there is none:
 *   1. the `evalyaml.server.path` setting: an executable run as `<path> lsp` (a Python
 *      interpreter is run as `<path> -m evalyaml lsp`);
 *   2. the interpreter selected in the Python extension, if `<python> -c "import evalyaml"`
 *      succeeds: `<python> -m evalyaml lsp`;
 *   3. `evalyaml` on PATH: `evalyaml lsp`;
 *   4. the bundled server (`bundled/tool/evalyaml_server.py`, run as `<python> -I <launcher> lsp`)
 *      with the first Python 3.11+ among the Python extension's interpreter, `python3` and
 *      `python` on PATH, and on Windows `py -3`.
 */

export type ServerSource = 'setting' | 'python' | 'path' | 'bundled';

export interface ServerCommand {
  /** Executable to spawn. */
  readonly command: string;
  readonly args: readonly string[];
  readonly source: ServerSource;
  /** For the bundled server: the interpreter that runs it, e.g. "Python 3.12.3 (`python3` on PATH)". */
  readonly detail?: string;
}

export interface Attempt {
  readonly source: ServerSource;
  /** What was looked at, e.g. "evalyaml.server.path = /opt/evalyaml" */
  readonly what: string;
  /** Why it was not used; undefined for the attempt that worked. */
  readonly problem?: string;
}

export type DiscoveryResult =
  | { readonly ok: true; readonly server: ServerCommand; readonly attempts: readonly Attempt[] }
  | { readonly ok: false; readonly attempts: readonly Attempt[] };

export interface DiscoveryInput {
  /** Raw value of `evalyaml.server.path` (may be empty, relative, start with `~`, use ${workspaceFolder}). */
  readonly serverPath?: string | undefined;
  /** Interpreter selected in the Python extension; undefined when that extension is absent or has none. */
  readonly pythonPath?: string | undefined;
  /** Why no interpreter came from the Python extension (shown in the failure message). */
  readonly pythonUnavailableReason?: string | undefined;
  readonly homeDir: string;
  /** First workspace folder, for relative paths and ${workspaceFolder}. */
  readonly workspaceFolder?: string | undefined;
  readonly platform: NodeJS.Platform;
  /** The bundled launcher (`bundled/tool/evalyaml_server.py`), undefined when the extension has none. */
  readonly bundledLauncher?: string | undefined;
}

export interface DiscoveryProbe {
  /** True when `path` is a file this process may execute. */
  isExecutable(path: string): Promise<boolean>;
  /** Exit status 0 of `<python> -c "import evalyaml"`; otherwise a short reason. */
  canImportEvalyaml(python: string): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** Absolute path of `name` on PATH, or undefined. */
  which(name: string): Promise<string | undefined>;
  /** The version (e.g. "3.12.3") of the Python that `command ...args` runs; otherwise a short reason. */
  pythonVersion(command: string, args: readonly string[]): Promise<{ ok: true; version: string } | { ok: false; reason: string }>;
}

/** The oldest Python the server runs on (pyproject.toml's requires-python). */
export const MIN_PYTHON: readonly [number, number] = [3, 11];

export const SERVER_ARGS: readonly string[] = ['lsp'];
export const PYTHON_MODULE_ARGS: readonly string[] = ['-m', 'evalyaml', 'lsp'];

/** True when a version string such as "3.11.4" or "3.13.0rc1" is at least MIN_PYTHON. */
export function isSupportedPython(version: string): boolean {
  const m = /^(\d+)\.(\d+)/.exec(version);
  if (m === null) {
    return false;
  }
  const major = Number(m[1]);
  const minor = Number(m[2]);
  return major > MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor >= MIN_PYTHON[1]);
}

/** Expands `~`, `${userHome}` and `${workspaceFolder}`; resolves a relative path against the workspace folder. */
export function expandPath(
  raw: string,
  env: { homeDir: string; workspaceFolder?: string | undefined; platform: NodeJS.Platform },
): string {
  let p = raw.trim();
  if (p === '') {
    return p;
  }
  const sep = env.platform === 'win32' ? '\\' : '/';
  p = p.replace(/\$\{userHome\}/g, env.homeDir);
  if (env.workspaceFolder !== undefined) {
    p = p.replace(/\$\{workspaceFolder\}/g, env.workspaceFolder);
  }
  if (p === '~') {
    p = env.homeDir;
  } else if (p.startsWith('~/') || (env.platform === 'win32' && p.startsWith('~\\'))) {
    p = joinPath(env.homeDir, p.slice(2), sep);
  }
  if (!isAbsolutePath(p, env.platform) && env.workspaceFolder !== undefined && looksLikePath(p)) {
    p = joinPath(env.workspaceFolder, p, sep);
  }
  return p;
}

function looksLikePath(p: string): boolean {
  // A bare name such as "evalyaml" or "python3" is looked up on PATH, not in the workspace.
  return p.includes('/') || p.includes('\\');
}

export function isAbsolutePath(p: string, platform: NodeJS.Platform): boolean {
  if (platform === 'win32') {
    return /^[a-zA-Z]:[\\/]/.test(p) || p.startsWith('\\\\') || p.startsWith('/');
  }
  return p.startsWith('/');
}

function joinPath(base: string, rest: string, sep: string): string {
  const trimmedBase = base.endsWith('/') || base.endsWith('\\') ? base.slice(0, -1) : base;
  let r = rest;
  while (r.startsWith('./') || r.startsWith('.\\')) {
    r = r.slice(2);
  }
  return `${trimmedBase}${sep}${r}`;
}

/** Base name of a path on either kind of separator. */
export function baseName(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts[parts.length - 1] ?? p;
}

/** `python`, `python3`, `python3.12`, `pythonw.exe`, `pypy3`: run with `-m evalyaml lsp`. */
export function isPythonInterpreter(p: string): boolean {
  return /^(python|pypy)(w)?(\d+(\.\d+)*)?(\.exe)?$/i.test(baseName(p));
}

/** The command for an explicit path from the setting. */
export function commandForPath(path: string, source: ServerSource): ServerCommand {
  return isPythonInterpreter(path)
    ? { command: path, args: PYTHON_MODULE_ARGS, source }
    : { command: path, args: SERVER_ARGS, source };
}

export async function discoverServer(input: DiscoveryInput, probe: DiscoveryProbe): Promise<DiscoveryResult> {
  const attempts: Attempt[] = [];

  // 1. The setting.
  const raw = (input.serverPath ?? '').trim();
  if (raw === '') {
    attempts.push({ source: 'setting', what: 'evalyaml.server.path', problem: 'not set' });
  } else {
    const expanded = expandPath(raw, input);
    let resolved: string | undefined = expanded;
    if (!isAbsolutePath(expanded, input.platform) && !looksLikePath(expanded)) {
      resolved = await probe.which(expanded);
    }
    const what = `evalyaml.server.path = ${raw}`;
    if (resolved === undefined) {
      attempts.push({ source: 'setting', what, problem: 'not found on PATH' });
    } else if (!(await probe.isExecutable(resolved))) {
      attempts.push({ source: 'setting', what, problem: `${resolved} is not an executable file` });
    } else {
      attempts.push({ source: 'setting', what });
      return { ok: true, server: commandForPath(resolved, 'setting'), attempts };
    }
  }

  // 2. The Python extension's interpreter.
  if (input.pythonPath === undefined || input.pythonPath.trim() === '') {
    attempts.push({
      source: 'python',
      what: 'the Python extension’s selected interpreter',
      problem: input.pythonUnavailableReason ?? 'none selected',
    });
  } else {
    const python = input.pythonPath;
    const what = `Python interpreter ${python}`;
    const check = await probe.canImportEvalyaml(python);
    if (check.ok) {
      attempts.push({ source: 'python', what });
      return { ok: true, server: { command: python, args: PYTHON_MODULE_ARGS, source: 'python' }, attempts };
    }
    attempts.push({ source: 'python', what, problem: check.reason });
  }

  // 3. PATH.
  const onPath = await probe.which('evalyaml');
  if (onPath === undefined) {
    attempts.push({ source: 'path', what: '`evalyaml` on PATH', problem: 'not found' });
  } else {
    attempts.push({ source: 'path', what: `\`evalyaml\` on PATH (${onPath})` });
    return { ok: true, server: { command: onPath, args: SERVER_ARGS, source: 'path' }, attempts };
  }

  // 4. The server bundled with the extension, run by the first Python 3.11+ found.
  const launcher = input.bundledLauncher;
  if (launcher === undefined || launcher === '') {
    attempts.push({ source: 'bundled', what: 'the bundled server', problem: 'this build of the extension has none' });
    return { ok: false, attempts };
  }
  const candidates: { command: string; args: string[]; label: string }[] = [];
  if (input.pythonPath !== undefined && input.pythonPath.trim() !== '') {
    candidates.push({ command: input.pythonPath, args: [], label: 'the Python extension’s interpreter' });
  }
  for (const name of input.platform === 'win32' ? ['python3', 'python', 'py'] : ['python3', 'python']) {
    const found = await probe.which(name);
    if (found === undefined) {
      attempts.push({ source: 'bundled', what: `the bundled server with \`${name}\` on PATH`, problem: 'not found' });
    } else {
      candidates.push({ command: found, args: name === 'py' ? ['-3'] : [], label: `\`${name === 'py' ? 'py -3' : name}\` on PATH` });
    }
  }
  const tried = new Set<string>();
  for (const c of candidates) {
    const key = [c.command, ...c.args].join(' ');
    if (tried.has(key)) {
      continue;
    }
    tried.add(key);
    const what = `the bundled server with ${c.label} (${key})`;
    const v = await probe.pythonVersion(c.command, c.args);
    if (!v.ok) {
      attempts.push({ source: 'bundled', what, problem: v.reason });
    } else if (!isSupportedPython(v.version)) {
      attempts.push({ source: 'bundled', what, problem: `Python ${v.version} is older than ${MIN_PYTHON.join('.')}` });
    } else {
      attempts.push({ source: 'bundled', what });
      return {
        ok: true,
        server: { command: c.command, args: [...c.args, '-I', launcher, ...SERVER_ARGS], source: 'bundled', detail: `Python ${v.version}, ${c.label}` },
        attempts,
      };
    }
  }
  return { ok: false, attempts };
}

/** The single notification shown when no server could be found. */
export function failureMessage(attempts: readonly Attempt[]): string {
  const tried = attempts.map((a) => `${a.what}: ${a.problem ?? 'ok'}`).join('; ');
  return (
    'evalyaml: the language server was not found, and no Python 3.11 or newer to run the bundled one. ' +
    `Tried ${tried}. ` +
    'Fix: install Python 3.11 or newer (select it in the Python extension, or put `python3` on PATH), ' +
    'or set `evalyaml.server.path` to an `evalyaml` executable.'
  );
}

/** A line for the output channel naming the server that will be started and why that one. */
export function describeServer(server: ServerCommand): string {
  const command = [server.command, ...server.args].join(' ');
  switch (server.source) {
    case 'setting':
      return `Starting ${command} (from evalyaml.server.path)`;
    case 'python':
      return `Starting ${command} (from the Python extension’s interpreter, where evalyaml is installed)`;
    case 'path':
      return `Starting ${command} (from PATH)`;
    case 'bundled':
      return (
        `Starting ${command} (the server bundled with the extension, run by ${server.detail ?? 'Python'}; ` +
        'no evalyaml.server.path, no evalyaml in the Python extension’s interpreter, no `evalyaml` on PATH)'
      );
  }
}
