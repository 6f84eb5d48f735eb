// The real probe against real files and processes in a temporary folder.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { discoverServer } from '../src/discovery';
import { canImportEvalyaml, isExecutableFile, nodeProbe, pythonVersion, which } from '../src/probe';

const posix = process.platform !== 'win32';

describe('node probe', { skip: posix ? false : 'uses POSIX shell scripts' }, () => {
  let dir = '';
  let bin = '';
  let goodPython = '';
  let badPython = '';

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'evalyaml-probe-'));
    bin = join(dir, 'bin');
    mkdirSync(bin);
    // A stand-in interpreter whose `-c "import evalyaml"` succeeds.
    goodPython = join(dir, 'python-good');
    writeFileSync(goodPython, '#!/bin/sh\n[ "$1" = "-c" ] && [ "$2" = "import evalyaml" ] && exit 0\nexit 3\n');
    chmodSync(goodPython, 0o755);
    // One that fails the way CPython does.
    badPython = join(dir, 'python-bad');
    writeFileSync(
      badPython,
      '#!/bin/sh\necho "Traceback (most recent call last):" >&2\necho "ModuleNotFoundError: No module named \'evalyaml\'" >&2\nexit 1\n',
    );
    chmodSync(badPython, 0o755);
    writeFileSync(join(bin, 'evalyaml'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(bin, 'evalyaml'), 0o755);
    writeFileSync(join(bin, 'not-executable'), 'x');
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells executable files from others', async () => {
    assert.equal(await isExecutableFile(join(bin, 'evalyaml')), true);
    assert.equal(await isExecutableFile(join(bin, 'not-executable')), false);
    assert.equal(await isExecutableFile(bin), false);
    assert.equal(await isExecutableFile(join(dir, 'missing')), false);
  });

  it('looks names up on PATH', async () => {
    const pathEnv = ['', join(dir, 'nothing'), bin].join(':');
    assert.equal(await which('evalyaml', { pathEnv }), join(bin, 'evalyaml'));
    assert.equal(await which('not-executable', { pathEnv }), undefined);
    assert.equal(await which('evalyaml', { pathEnv: '' }), undefined);
  });

  it('checks `python -c "import evalyaml"`', async () => {
    assert.deepEqual(await canImportEvalyaml(goodPython), { ok: true });
    assert.deepEqual(await canImportEvalyaml(badPython), { ok: false, reason: 'evalyaml is not installed there' });
    assert.deepEqual(await canImportEvalyaml(join(dir, 'no-such-python')), {
      ok: false,
      reason: 'the interpreter does not exist',
    });
  });

  it('times out a hanging interpreter', async () => {
    const slow = join(dir, 'python-slow');
    writeFileSync(slow, '#!/bin/sh\nexec sleep 5\n');
    chmodSync(slow, 0o755);
    const r = await canImportEvalyaml(slow, 200);
    assert.ok(!r.ok);
    assert.match(r.reason, /did not finish/);
  });

  it('asks an interpreter for its version', async () => {
    const fake = join(dir, 'python-3.12');
    // Answers only the exact question the probe asks (isolated mode, one -c).
    writeFileSync(fake, '#!/bin/sh\n[ "$1" = "-I" ] && [ "$2" = "-c" ] && echo 3.12.1 && exit 0\nexit 3\n');
    chmodSync(fake, 0o755);
    assert.deepEqual(await pythonVersion(fake, []), { ok: true, version: '3.12.1' });
    const r = await pythonVersion(badPython, []);
    assert.ok(!r.ok);
    assert.match(r.reason, /^not a working Python/);
    assert.deepEqual(await pythonVersion(join(dir, 'no-such-python'), []), { ok: false, reason: 'the interpreter does not exist' });
    const real = await which('python3');
    if (real !== undefined) {
      const v = await pythonVersion(real, []);
      assert.ok(v.ok, JSON.stringify(v));
      assert.match(v.version, /^3\.\d+\.\d+$/);
    }
  });

  it('drives discovery end to end', async () => {
    const probe = nodeProbe({ pathEnv: bin });
    const viaPython = await discoverServer(
      { homeDir: dir, workspaceFolder: dir, platform: 'linux', pythonPath: goodPython },
      probe,
    );
    assert.ok(viaPython.ok);
    assert.deepEqual(viaPython.server.args, ['-m', 'evalyaml', 'lsp']);

    const viaPath = await discoverServer({ homeDir: dir, workspaceFolder: dir, platform: 'linux', pythonPath: badPython }, probe);
    assert.ok(viaPath.ok);
    assert.equal(viaPath.server.command, join(bin, 'evalyaml'));

    const viaSetting = await discoverServer({ homeDir: dir, workspaceFolder: dir, platform: 'linux', serverPath: 'bin/evalyaml' }, probe);
    assert.ok(viaSetting.ok);
    assert.equal(viaSetting.server.source, 'setting');
    assert.equal(viaSetting.server.command, join(bin, 'evalyaml'));

    const bundledBin = join(dir, 'bundled-bin');
    mkdirSync(bundledBin);
    writeFileSync(join(bundledBin, 'python3'), '#!/bin/sh\necho 3.11.4\n');
    chmodSync(join(bundledBin, 'python3'), 0o755);
    const viaBundle = await discoverServer(
      { homeDir: dir, workspaceFolder: dir, platform: 'linux', pythonPath: badPython, bundledLauncher: '/ext/l.py' },
      nodeProbe({ pathEnv: bundledBin }),
    );
    assert.ok(viaBundle.ok);
    assert.deepEqual(viaBundle.server, {
      command: join(bundledBin, 'python3'),
      args: ['-I', '/ext/l.py', 'lsp'],
      source: 'bundled',
      detail: 'Python 3.11.4, `python3` on PATH',
    });
  });
});
