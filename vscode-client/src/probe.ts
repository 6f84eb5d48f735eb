/**
 * The real effects behind `DiscoveryProbe`: file checks, PATH look-up, the
 * `python -c "import evalyaml"` check and the Python version check. Node only, no `vscode` import.
 */
import { execFile } from 'node:child_process';
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';

import type { DiscoveryProbe } from './discovery';

export interface ProbeOptions {
  /** PATH to search; defaults to process.env.PATH. */
  readonly pathEnv?: string | undefined;
  /** PATHEXT on Windows. */
  readonly pathExt?: string | undefined;
  readonly platform?: NodeJS.Platform;
  /** Milliseconds allowed for `python -c "import evalyaml"` and the version check. */
  readonly importTimeoutMs?: number;
}

export async function isExecutableFile(file: string, platform: NodeJS.Platform = process.platform): Promise<boolean> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) {
      return false;
    }
    if (platform === 'win32') {
      return true;
    }
    await fs.access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Looks `name` up on PATH the way a shell would (PATHEXT on Windows). */
export async function which(name: string, options: ProbeOptions = {}): Promise<string | undefined> {
  const platform = options.platform ?? process.platform;
  const pathEnv = options.pathEnv ?? process.env.PATH ?? '';
  const delimiter = platform === 'win32' ? ';' : ':';
  const exts =
    platform === 'win32'
      ? (options.pathExt ?? process.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter((e) => e !== '')
      : [''];
  const candidates = platform === 'win32' && path.extname(name) !== '' ? [''] : exts;
  for (const dir of pathEnv.split(delimiter)) {
    if (dir === '') {
      continue;
    }
    for (const ext of candidates) {
      const full = path.join(dir, name + ext);
      if (await isExecutableFile(full, platform)) {
        return full;
      }
    }
  }
  return undefined;
}

/** Runs `<python> -c "import evalyaml"`; reports the first line of stderr on failure. */
export function canImportEvalyaml(
  python: string,
  timeoutMs = 15_000,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    execFile(
      python,
      ['-c', 'import evalyaml'],
      { timeout: timeoutMs, windowsHide: true },
      (error, _stdout, stderr) => {
        if (error === null) {
          resolve({ ok: true });
          return;
        }
        const err = error as NodeJS.ErrnoException & { killed?: boolean };
        if (err.code === 'ENOENT') {
          resolve({ ok: false, reason: 'the interpreter does not exist' });
        } else if (err.killed === true) {
          resolve({ ok: false, reason: `\`import evalyaml\` did not finish within ${timeoutMs / 1000} s` });
        } else {
          const lines = stderr
            .split(/\r?\n/)
            .map((l) => l.trim())
            .filter((l) => l !== '');
          const last = lines[lines.length - 1];
          resolve({
            ok: false,
            reason: last?.includes('ModuleNotFoundError') === true ? 'evalyaml is not installed there' : (last ?? err.message),
          });
        }
      },
    );
  });
}

/** Runs `<command> ...args -I -c <print version>`; the version such as "3.12.3", or a short reason. */
export function pythonVersion(
  command: string,
  args: readonly string[],
  timeoutMs = 15_000,
): Promise<{ ok: true; version: string } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      [...args, '-I', '-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])'],
      { timeout: timeoutMs, windowsHide: true },
      (error, stdout, stderr) => {
        const version = stdout.trim();
        if (error === null && /^\d+\.\d+\.\d+$/.test(version)) {
          resolve({ ok: true, version });
          return;
        }
        const err = error as (NodeJS.ErrnoException & { killed?: boolean }) | null;
        if (err?.code === 'ENOENT') {
          resolve({ ok: false, reason: 'the interpreter does not exist' });
        } else if (err?.killed === true) {
          resolve({ ok: false, reason: `it did not answer within ${timeoutMs / 1000} s` });
        } else {
          const last = stderr
            .split(/\r?\n/)
            .map((l) => l.trim())
            .filter((l) => l !== '')
            .pop();
          resolve({ ok: false, reason: `not a working Python (${last ?? err?.message ?? `printed "${version}"`})` });
        }
      },
    );
  });
}

export function nodeProbe(options: ProbeOptions = {}): DiscoveryProbe {
  const platform = options.platform ?? process.platform;
  return {
    isExecutable: (file) => isExecutableFile(file, platform),
    canImportEvalyaml: (python) => canImportEvalyaml(python, options.importTimeoutMs),
    which: (name) => which(name, options),
    pythonVersion: (command, args) => pythonVersion(command, args, options.importTimeoutMs),
  };
}
