import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  type DiscoveryInput,
  type DiscoveryProbe,
  commandForPath,
  describeServer,
  discoverServer,
  expandPath,
  failureMessage,
  isPythonInterpreter,
  isSupportedPython,
} from '../src/discovery';

interface FakeWorld {
  executables?: string[];
  importable?: string[];
  onPath?: Record<string, string>;
  /** Python version each interpreter command reports. */
  pythons?: Record<string, string>;
}

/** A probe over an imaginary machine; records the calls it got. */
function fakeProbe(world: FakeWorld): DiscoveryProbe & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    isExecutable: (p) => {
      calls.push(`isExecutable ${p}`);
      return Promise.resolve((world.executables ?? []).includes(p));
    },
    canImportEvalyaml: (python) => {
      calls.push(`import ${python}`);
      return Promise.resolve(
        (world.importable ?? []).includes(python) ? { ok: true } : { ok: false, reason: 'evalyaml is not installed there' },
      );
    },
    which: (name) => {
      calls.push(`which ${name}`);
      return Promise.resolve(world.onPath?.[name]);
    },
    pythonVersion: (command, args) => {
      const key = [command, ...args].join(' ');
      calls.push(`version ${key}`);
      const v = world.pythons?.[key];
      return Promise.resolve(v === undefined ? { ok: false, reason: 'the interpreter does not exist' } : { ok: true, version: v });
    },
  };
}

const base: DiscoveryInput = { homeDir: '/home/u', workspaceFolder: '/ws', platform: 'linux' };

describe('discoverServer order', () => {
  it('uses evalyaml.server.path first and does not look further', async () => {
    const probe = fakeProbe({
      executables: ['/opt/ey/bin/evalyaml'],
      importable: ['/usr/bin/python3'],
      onPath: { evalyaml: '/usr/local/bin/evalyaml' },
    });
    const r = await discoverServer({ ...base, serverPath: '/opt/ey/bin/evalyaml', pythonPath: '/usr/bin/python3' }, probe);
    assert.equal(r.ok, true);
    assert.ok(r.ok);
    assert.deepEqual(r.server, { command: '/opt/ey/bin/evalyaml', args: ['lsp'], source: 'setting' });
    assert.deepEqual(probe.calls, ['isExecutable /opt/ey/bin/evalyaml']);
  });

  it('falls back to the Python extension interpreter when the setting is empty', async () => {
    const probe = fakeProbe({ importable: ['/ws/.venv/bin/python'], onPath: { evalyaml: '/usr/local/bin/evalyaml' } });
    const r = await discoverServer({ ...base, serverPath: '', pythonPath: '/ws/.venv/bin/python' }, probe);
    assert.ok(r.ok);
    assert.deepEqual(r.server, { command: '/ws/.venv/bin/python', args: ['-m', 'evalyaml', 'lsp'], source: 'python' });
    assert.deepEqual(probe.calls, ['import /ws/.venv/bin/python']);
    assert.deepEqual(
      r.attempts.map((a) => [a.source, a.problem]),
      [
        ['setting', 'not set'],
        ['python', undefined],
      ],
    );
  });

  it('falls back to PATH when the interpreter cannot import evalyaml', async () => {
    const probe = fakeProbe({ onPath: { evalyaml: '/usr/local/bin/evalyaml' } });
    const r = await discoverServer({ ...base, pythonPath: '/usr/bin/python3' }, probe);
    assert.ok(r.ok);
    assert.deepEqual(r.server, { command: '/usr/local/bin/evalyaml', args: ['lsp'], source: 'path' });
    assert.deepEqual(probe.calls, ['import /usr/bin/python3', 'which evalyaml']);
  });

  it('reports a broken setting and still tries the rest', async () => {
    const probe = fakeProbe({ onPath: { evalyaml: '/usr/local/bin/evalyaml' } });
    const r = await discoverServer({ ...base, serverPath: '/nope/evalyaml' }, probe);
    assert.ok(r.ok);
    assert.equal(r.server.source, 'path');
    assert.equal(r.attempts[0]?.problem, '/nope/evalyaml is not an executable file');
  });

  it('fails with every attempt listed when nothing works', async () => {
    const probe = fakeProbe({});
    const r = await discoverServer(
      { ...base, serverPath: '', pythonUnavailableReason: 'the Python extension (ms-python.python) is not installed', bundledLauncher: LAUNCHER },
      probe,
    );
    assert.equal(r.ok, false);
    assert.deepEqual(
      r.attempts.map((a) => a.source),
      ['setting', 'python', 'path', 'bundled', 'bundled'],
    );
    const msg = failureMessage(r.attempts);
    assert.match(msg, /evalyaml\.server\.path: not set/);
    assert.match(msg, /ms-python\.python\) is not installed/);
    assert.match(msg, /`evalyaml` on PATH: not found/);
    assert.match(msg, /the bundled server with `python3` on PATH: not found/);
    assert.match(msg, /install Python 3\.11 or newer/);
    assert.match(msg, /set `evalyaml\.server\.path`/);
  });
});

const LAUNCHER = '/ext/bundled/tool/evalyaml_server.py';

describe('the bundled server', () => {
  it('runs when nothing overrides it, with python3 from PATH, isolated', async () => {
    const probe = fakeProbe({ onPath: { python3: '/usr/bin/python3' }, pythons: { '/usr/bin/python3': '3.12.3' } });
    const r = await discoverServer({ ...base, bundledLauncher: LAUNCHER }, probe);
    assert.ok(r.ok);
    assert.deepEqual(r.server, {
      command: '/usr/bin/python3',
      args: ['-I', LAUNCHER, 'lsp'],
      source: 'bundled',
      detail: 'Python 3.12.3, `python3` on PATH',
    });
    assert.match(describeServer(r.server), /^Starting \/usr\/bin\/python3 -I \/ext\/bundled\/tool\/evalyaml_server\.py lsp \(the server bundled with the extension, run by Python 3\.12\.3, `python3` on PATH; no evalyaml\.server\.path/);
  });

  it('prefers the Python extension’s interpreter, skipping one older than 3.11', async () => {
    const probe = fakeProbe({
      onPath: { python3: '/usr/bin/python3', python: '/usr/bin/python' },
      pythons: { '/ws/.venv/bin/python': '3.13.0rc1', '/usr/bin/python3': '3.12.3' },
    });
    const r = await discoverServer({ ...base, pythonPath: '/ws/.venv/bin/python', bundledLauncher: LAUNCHER }, probe);
    assert.ok(r.ok);
    assert.equal(r.server.command, '/ws/.venv/bin/python');
    assert.equal(r.server.detail, 'Python 3.13.0rc1, the Python extension’s interpreter');

    const old = fakeProbe({ onPath: { python3: '/usr/bin/python3' }, pythons: { '/ws/.venv/bin/python': '3.10.12', '/usr/bin/python3': '3.11.2' } });
    const r2 = await discoverServer({ ...base, pythonPath: '/ws/.venv/bin/python', bundledLauncher: LAUNCHER }, old);
    assert.ok(r2.ok);
    assert.equal(r2.server.command, '/usr/bin/python3');
    assert.ok(r2.attempts.some((a) => a.problem === 'Python 3.10.12 is older than 3.11'));
  });

  it('uses `py -3` on Windows', async () => {
    const probe = fakeProbe({ onPath: { py: 'C:\\Windows\\py.exe' }, pythons: { 'C:\\Windows\\py.exe -3': '3.11.9' } });
    const r = await discoverServer({ ...base, platform: 'win32', workspaceFolder: 'C:\\ws', bundledLauncher: 'C:\\ext\\bundled\\tool\\evalyaml_server.py' }, probe);
    assert.ok(r.ok);
    assert.deepEqual(r.server.args, ['-3', '-I', 'C:\\ext\\bundled\\tool\\evalyaml_server.py', 'lsp']);
  });

  it('is only the fallback: evalyaml on PATH wins over it', async () => {
    const probe = fakeProbe({ onPath: { evalyaml: '/usr/local/bin/evalyaml', python3: '/usr/bin/python3' }, pythons: { '/usr/bin/python3': '3.12.3' } });
    const r = await discoverServer({ ...base, bundledLauncher: LAUNCHER }, probe);
    assert.ok(r.ok);
    assert.equal(r.server.source, 'path');
    assert.ok(!probe.calls.some((c) => c.startsWith('version')));
  });

  it('says so when the extension was built without it', async () => {
    const r = await discoverServer(base, fakeProbe({}));
    assert.equal(r.ok, false);
    assert.equal(r.attempts.at(-1)?.problem, 'this build of the extension has none');
  });

  it('compares Python versions', () => {
    for (const v of ['3.11.0', '3.12.3', '3.13.0rc1', '4.0.0']) {
      assert.equal(isSupportedPython(v), true, v);
    }
    for (const v of ['3.10.12', '2.7.18', 'garbage', '']) {
      assert.equal(isSupportedPython(v), false, v);
    }
  });
});

describe('evalyaml.server.path forms', () => {
  it('runs a Python interpreter with -m evalyaml lsp', async () => {
    const probe = fakeProbe({ executables: ['/ws/.venv/bin/python3.12'] });
    const r = await discoverServer({ ...base, serverPath: '.venv/bin/python3.12' }, probe);
    assert.ok(r.ok);
    assert.deepEqual(r.server.args, ['-m', 'evalyaml', 'lsp']);
    assert.equal(r.server.command, '/ws/.venv/bin/python3.12');
  });

  it('looks a bare name up on PATH', async () => {
    const probe = fakeProbe({ executables: ['/usr/bin/evalyaml'], onPath: { evalyaml: '/usr/bin/evalyaml' } });
    const r = await discoverServer({ ...base, serverPath: 'evalyaml' }, probe);
    assert.ok(r.ok);
    assert.deepEqual(r.server, { command: '/usr/bin/evalyaml', args: ['lsp'], source: 'setting' });
  });

  it('reports a bare name missing from PATH', async () => {
    const r = await discoverServer({ ...base, serverPath: 'evalyaml-dev' }, fakeProbe({}));
    assert.equal(r.ok, false);
    assert.equal(r.attempts[0]?.problem, 'not found on PATH');
  });
});

describe('expandPath', () => {
  const env = { homeDir: '/home/u', workspaceFolder: '/ws', platform: 'linux' as const };
  it('expands ~ and variables', () => {
    assert.equal(expandPath('~/bin/evalyaml', env), '/home/u/bin/evalyaml');
    assert.equal(expandPath('~', env), '/home/u');
    assert.equal(expandPath('${workspaceFolder}/.venv/bin/evalyaml', env), '/ws/.venv/bin/evalyaml');
    assert.equal(expandPath('${userHome}/x/evalyaml', env), '/home/u/x/evalyaml');
  });
  it('resolves relative paths against the workspace folder', () => {
    assert.equal(expandPath('./.venv/bin/evalyaml', env), '/ws/.venv/bin/evalyaml');
    assert.equal(expandPath('.venv/bin/evalyaml', env), '/ws/.venv/bin/evalyaml');
  });
  it('leaves absolute paths and bare names alone', () => {
    assert.equal(expandPath('/opt/evalyaml', env), '/opt/evalyaml');
    assert.equal(expandPath('evalyaml', env), 'evalyaml');
    assert.equal(expandPath('  /opt/evalyaml  ', env), '/opt/evalyaml');
  });
  it('handles Windows paths', () => {
    const win = { homeDir: 'C:\\Users\\u', workspaceFolder: 'C:\\ws', platform: 'win32' as const };
    assert.equal(expandPath('C:\\tools\\evalyaml.exe', win), 'C:\\tools\\evalyaml.exe');
    assert.equal(expandPath('.venv\\Scripts\\evalyaml.exe', win), 'C:\\ws\\.venv\\Scripts\\evalyaml.exe');
    assert.equal(expandPath('~\\bin\\evalyaml.exe', win), 'C:\\Users\\u\\bin\\evalyaml.exe');
  });
});

describe('commands', () => {
  it('recognises interpreters by name', () => {
    for (const p of ['/usr/bin/python', '/usr/bin/python3', 'C:\\Py\\python.exe', '/x/python3.12', '/x/pypy3', 'pythonw.exe']) {
      assert.equal(isPythonInterpreter(p), true, p);
    }
    for (const p of ['/usr/bin/evalyaml', '/x/python-evalyaml', '/x/evalyaml.exe']) {
      assert.equal(isPythonInterpreter(p), false, p);
    }
  });
  it('describes the server for the output channel', () => {
    assert.equal(describeServer(commandForPath('/v/bin/evalyaml', 'setting')), 'Starting /v/bin/evalyaml lsp (from evalyaml.server.path)');
    assert.equal(
      describeServer({ command: 'py', args: ['-m', 'evalyaml', 'lsp'], source: 'python' }),
      'Starting py -m evalyaml lsp (from the Python extension’s interpreter, where evalyaml is installed)',
    );
  });
});
