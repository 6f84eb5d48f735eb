import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  type Inspected,
  type ServerSettingKey,
  affectsServerSettings,
  answerConfiguration,
  buildDocumentSelector,
  explicitValue,
  needsRestart,
  toServerSettings,
} from '../src/settings';

function inspector(values: Partial<Record<ServerSettingKey, Inspected>>) {
  return (key: ServerSettingKey): Inspected | undefined => values[key];
}

describe('explicitValue', () => {
  it('prefers folder over workspace over user settings and ignores defaults', () => {
    assert.equal(explicitValue({ defaultValue: 90 }), undefined);
    assert.equal(explicitValue({ defaultValue: 90, globalValue: 30 }), 30);
    assert.equal(explicitValue({ defaultValue: 90, globalValue: 30, workspaceValue: 20 }), 20);
    assert.equal(explicitValue({ globalValue: 30, workspaceValue: 20, workspaceFolderValue: 10 }), 10);
    assert.equal(explicitValue({ globalValue: true, workspaceValue: false }), false);
    assert.equal(explicitValue(undefined), undefined);
  });
});

describe('toServerSettings', () => {
  it('sends nothing when the user set nothing, so evalyaml.toml decides', () => {
    const s = toServerSettings(
      inspector({
        strict: { defaultValue: false },
        freshnessDays: { defaultValue: 90 },
        include: { defaultValue: [] },
        exclude: { defaultValue: [] },
      }),
    );
    assert.deepEqual(s, {});
  });

  it('maps every key the user set', () => {
    const s = toServerSettings(
      inspector({
        strict: { defaultValue: false, workspaceValue: true },
        freshnessDays: { defaultValue: 90, globalValue: 30 },
        include: { defaultValue: [], workspaceFolderValue: ['evals/**/*.yaml'] },
        exclude: { defaultValue: [], globalValue: ['**/node_modules/**', '', 3] },
      }),
    );
    assert.deepEqual(s, {
      strict: true,
      freshnessDays: 30,
      include: ['evals/**/*.yaml'],
      exclude: ['**/node_modules/**'],
    });
  });

  it('keeps an explicit strict=false (it overrides strict=true in evalyaml.toml)', () => {
    assert.deepEqual(toServerSettings(inspector({ strict: { defaultValue: false, globalValue: false } })), { strict: false });
  });

  it('drops values of the wrong type', () => {
    const s = toServerSettings(
      inspector({
        strict: { globalValue: 'yes' },
        freshnessDays: { globalValue: -1 },
        include: { globalValue: 'rubrics/*.yaml' },
        exclude: { globalValue: Number.NaN },
      }),
    );
    assert.deepEqual(s, {});
    assert.deepEqual(toServerSettings(inspector({ freshnessDays: { globalValue: Number.POSITIVE_INFINITY } })), {});
    assert.deepEqual(toServerSettings(inspector({ freshnessDays: { globalValue: 0 } })), { freshnessDays: 0 });
  });
});

describe('answerConfiguration', () => {
  const settings = (scope: string | undefined) => (scope === 'file:///b' ? { strict: true } : { freshnessDays: 7 });

  it('answers the evalyaml section per scope and leaves other sections alone', () => {
    const items = [
      { section: 'evalyaml', scopeUri: 'file:///a' },
      { section: 'evalyaml', scopeUri: 'file:///b' },
      { section: 'yaml' },
      { section: 'evalyaml.freshnessDays' },
      { section: 'evalyaml.strict' },
      { section: 'evalyaml.server.path' },
      {},
    ];
    const defaults = [{ full: 1 }, { full: 2 }, { yaml: true }, 90, false, '/x', { all: true }];
    assert.deepEqual(answerConfiguration(items, defaults, settings), [
      { freshnessDays: 7 },
      { strict: true },
      { yaml: true },
      7,
      null,
      '/x',
      { all: true },
    ]);
  });

  it('answers null when VS Code gave fewer results than items', () => {
    assert.deepEqual(answerConfiguration([{ section: 'other' }], [], settings), [null]);
  });
});

describe('buildDocumentSelector', () => {
  it('sends every YAML file on disk', () => {
    assert.deepEqual(buildDocumentSelector(undefined), [{ scheme: 'file', language: 'yaml' }]);
    assert.deepEqual(buildDocumentSelector([]), [{ scheme: 'file', language: 'yaml' }]);
  });
  it('adds evalyaml.files.include globs regardless of language', () => {
    assert.deepEqual(buildDocumentSelector(['**/*.eval', ' ', 7, ' evals/**/*.txt ']), [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'file', pattern: '**/*.eval' },
      { scheme: 'file', pattern: 'evals/**/*.txt' },
    ]);
  });
});

describe('restart and sync decisions', () => {
  const affects = (changed: string[]) => (section: string) => changed.some((c) => c === section || c.startsWith(`${section}.`));
  it('restarts only for the server path and the document selector', () => {
    assert.equal(needsRestart(affects(['evalyaml.server.path'])), true);
    assert.equal(needsRestart(affects(['evalyaml.files.include'])), true);
    assert.equal(needsRestart(affects(['evalyaml.strict'])), false);
    assert.equal(needsRestart(affects(['yaml.schemas'])), false);
  });
  it('knows which settings reach the server', () => {
    assert.equal(affectsServerSettings(affects(['evalyaml.freshnessDays'])), true);
    assert.equal(affectsServerSettings(affects(['evalyaml.trace.server'])), false);
  });
});
